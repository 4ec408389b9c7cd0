/**
 * Admin > Feature flags: the company's switches, and per-user overrides that win over them. Changes apply at once;
 * the navigation and the server both read the resolved flags (shared resolveFeatures).
 */

import type { FeatureFlagsReply, FeatureKey } from '@harbor/shared';
import {
  Alert,
  Badge,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { putFeatureFlags } from '../../api/people';
import { callQuery, qk } from '../../api/queries';
import { ME_KEY } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';

const KEY = qk('GET /v1/admin/feature_flags');

export function FeatureFlagsPage() {
  const queryClient = useQueryClient();
  const flags = useQuery(callQuery('GET /v1/admin/feature_flags'));
  const owners = useQuery(callQuery('GET /v1/admin/users/owners'));
  const [userId, setUserId] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: putFeatureFlags,
    onSuccess: (reply) => {
      queryClient.setQueryData(KEY, reply);
      // The admin's own navigation follows their flags too.
      queryClient.invalidateQueries({ queryKey: ME_KEY });
    },
  });
  if (flags.isPending) return <Loader aria-label="Loading feature flags" />;
  if (flags.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(flags.error)}
      </Alert>
    );
  const data: FeatureFlagsReply = flags.data;
  const overrides = userId ? (data.users.find((u) => u.user_id === Number(userId))?.overrides ?? {}) : {};
  const setOverride = (key: FeatureKey, value: string) =>
    save.mutate({
      users: [{ user_id: Number(userId), overrides: { [key]: value === 'inherit' ? null : value === 'on' } }],
    });
  return (
    <Stack>
      <PageHeading title="Feature flags" section="Admin" />
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label="Company flags" maw={720}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Feature</Table.Th>
              <Table.Th>Default</Table.Th>
              <Table.Th>Company</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {data.flags.map((f) => (
              <Table.Tr key={f.key}>
                <Table.Td>{f.label}</Table.Td>
                <Table.Td>{f.default ? 'On' : 'Off'}</Table.Td>
                <Table.Td>
                  <Switch
                    aria-label={f.label}
                    checked={data.company[f.key] ?? f.default}
                    onChange={(e) => save.mutate({ company: { [f.key]: e.currentTarget.checked } })}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>

      <Title order={3} mt="lg">
        Per-user overrides
      </Title>
      <Text size="sm" c="dimmed">
        An override wins over the company's setting for that one user.
      </Text>
      {data.users.length > 0 && (
        <Group gap="xs">
          {data.users.map((u) => (
            <Badge
              key={u.user_id}
              variant="light"
              style={{ cursor: 'pointer' }}
              onClick={() => setUserId(String(u.user_id))}
            >
              {u.name}: {Object.keys(u.overrides).length}
            </Badge>
          ))}
        </Group>
      )}
      <Select
        label="User"
        placeholder="Choose a user"
        searchable
        maw={360}
        data={(owners.data?.data ?? []).map((o) => ({ value: String(o.id), label: `${o.name} (${o.email})` }))}
        value={userId}
        onChange={setUserId}
      />
      {userId && (
        <Table.ScrollContainer minWidth={480}>
          <Table aria-label="User overrides" maw={720}>
            <Table.Tbody>
              {data.flags.map((f) => {
                const v = overrides[f.key];
                return (
                  <Table.Tr key={f.key}>
                    <Table.Td>{f.label}</Table.Td>
                    <Table.Td>
                      <SegmentedControl
                        size="xs"
                        aria-label={`${f.label} for this user`}
                        value={v === undefined ? 'inherit' : v ? 'on' : 'off'}
                        onChange={(value) => setOverride(f.key, value)}
                        data={[
                          { value: 'inherit', label: `Company (${(data.company[f.key] ?? f.default) ? 'on' : 'off'})` },
                          { value: 'on', label: 'On' },
                          { value: 'off', label: 'Off' },
                        ]}
                      />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
