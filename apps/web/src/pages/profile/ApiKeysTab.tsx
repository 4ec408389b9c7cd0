/** API keys: create (the token is shown once), refresh (a new token, the old one dies), revoke. */

import type { ApiKeyWithToken } from '@harbor/shared';
import { Alert, Button, Code, CopyButton, Group, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { createApiKey, refreshApiKey, revokeApiKey } from '../../api/people';
import { callQuery, qk } from '../../api/queries';

const KEY = qk('GET /v1/users/api_keys');
const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : 'never';

export function ApiKeysTab() {
  const queryClient = useQueryClient();
  const keys = useQuery(callQuery('GET /v1/users/api_keys'));
  const [name, setName] = useState('');
  const [shown, setShown] = useState<ApiKeyWithToken | null>(null);
  const done = (key?: ApiKeyWithToken) => {
    if (key) setShown(key);
    queryClient.invalidateQueries({ queryKey: KEY });
  };
  const create = useMutation({
    mutationFn: createApiKey,
    onSuccess: (k) => {
      setName('');
      done(k);
    },
  });
  const refresh = useMutation({ mutationFn: refreshApiKey, onSuccess: done });
  const revoke = useMutation({
    mutationFn: revokeApiKey,
    onSuccess: () => {
      setShown(null);
      done();
    },
  });
  const error = keys.error ?? create.error ?? refresh.error ?? revoke.error;
  return (
    <Stack maw={760}>
      <Text size="sm" c="dimmed">
        A key signs API calls as you, with exactly your permissions: send it as{' '}
        <Code>Authorization: Bearer &lt;key&gt;</Code>.
      </Text>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {shown && (
        <Alert color="green" title={`Your key "${shown.name}"`} role="status">
          <Text size="sm">Copy it now: it will not be shown again.</Text>
          <Group mt="xs">
            <Code aria-label="New API key">{shown.token}</Code>
            <CopyButton value={shown.token}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy}>
                  {copied ? 'Copied' : 'Copy'}
                </Button>
              )}
            </CopyButton>
          </Group>
        </Alert>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(name);
        }}
      >
        <Group align="flex-end">
          <TextInput label="New key name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
          <Button type="submit" loading={create.isPending}>
            Create key
          </Button>
        </Group>
      </form>
      {keys.data && keys.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="API keys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Key</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th aria-label="Actions" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.data.map((k) => (
                <Table.Tr key={k.id}>
                  <Table.Td>{k.name}</Table.Td>
                  <Table.Td>
                    <Code>{k.token_prefix}…</Code>
                  </Table.Td>
                  <Table.Td>{when(k.created_at)}</Table.Td>
                  <Table.Td>{when(k.last_used_at)}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" justify="flex-end">
                      <Button size="xs" variant="default" onClick={() => refresh.mutate(k.id)}>
                        Refresh
                      </Button>
                      <Button size="xs" color="red" variant="light" onClick={() => revoke.mutate(k.id)}>
                        Revoke
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {keys.data?.data.length === 0 && <Text c="dimmed">No keys yet.</Text>}
    </Stack>
  );
}
