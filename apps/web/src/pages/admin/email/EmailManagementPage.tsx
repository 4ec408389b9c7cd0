/**
 * /admin/email-management: the company's email templates. Search, open one to edit, and change several at once
 * (activate, deactivate, delete) after saying how many it touches.
 */

import { Alert, Badge, Button, Checkbox, Group, Loader, Modal, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { emailAdminApi } from '../../../api/email';
import { callQuery, qk } from '../../../api/queries';
import { PageHeading } from '../../../components/PageHeading';
import { label, when } from '../../contacts/format';

type Bulk = { active?: boolean; delete?: boolean; text: string };

export function EmailManagementPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const qc = useQueryClient();
  const list = useQuery(callQuery('GET /v1/admin/emails', { query: { q: q || undefined, page: 1, limit: 50 } }));
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const [bulk, setBulk] = useState<Bulk | null>(null);
  const run = useMutation({
    mutationFn: (b: Bulk) => emailAdminApi.bulk({ ids: [...picked], active: b.active, delete: b.delete }),
    onSuccess: () => {
      setBulk(null);
      setPicked(new Set());
      void qc.invalidateQueries({ queryKey: qk('GET /v1/admin/emails') });
    },
  });
  const rows = list.data?.data ?? [];
  const toggle = (id: number) =>
    setPicked((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  return (
    <Stack>
      <Group justify="space-between" wrap="wrap">
        <PageHeading title="Email templates" section="Admin">
          Email templates
        </PageHeading>
        <Button component={Link} to="/admin/email-management/new">
          New template
        </Button>
      </Group>
      <Group wrap="wrap" align="end">
        <TextInput
          label="Search"
          placeholder="Name or subject"
          defaultValue={q}
          onChange={(e) => setParams(e.currentTarget.value ? { q: e.currentTarget.value } : {}, { replace: true })}
        />
        <Button variant="default" disabled={!picked.size} onClick={() => setBulk({ active: true, text: 'Activate' })}>
          Activate
        </Button>
        <Button
          variant="default"
          disabled={!picked.size}
          onClick={() => setBulk({ active: false, text: 'Deactivate' })}
        >
          Deactivate
        </Button>
        <Button
          color="red"
          variant="light"
          disabled={!picked.size}
          onClick={() => setBulk({ delete: true, text: 'Delete' })}
        >
          Delete
        </Button>
      </Group>
      {list.isPending && <Loader aria-label="Loading templates" />}
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.isSuccess && !rows.length && (
        <Text>
          {q
            ? 'No template matches this search.'
            : 'No templates yet. Create the first one: agents send them to their contacts.'}
        </Text>
      )}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={640} tabIndex={0} aria-label="Email templates">
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>
                  <Checkbox
                    aria-label="Select all templates"
                    checked={picked.size === rows.length}
                    onChange={() => setPicked(picked.size === rows.length ? new Set() : new Set(rows.map((r) => r.id)))}
                  />
                </Table.Th>
                <Table.Th>Name</Table.Th>
                <Table.Th>Subject</Table.Th>
                <Table.Th>Category</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Updated</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((t) => (
                <Table.Tr key={t.id}>
                  <Table.Td>
                    <Checkbox
                      aria-label={`Select ${t.name}`}
                      checked={picked.has(t.id)}
                      onChange={() => toggle(t.id)}
                    />
                  </Table.Td>
                  <Table.Td>
                    <Link to={`/admin/email-management/${t.id}`}>{t.name}</Link>
                  </Table.Td>
                  <Table.Td>{t.subject}</Table.Td>
                  <Table.Td>{label(t.category)}</Table.Td>
                  <Table.Td>
                    <Badge color={t.active ? 'green' : 'gray'} variant="light">
                      {t.active ? 'Active' : 'Inactive'}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{when(t.updated_at)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal opened={bulk !== null} onClose={() => setBulk(null)} title={`${bulk?.text ?? ''} templates`}>
        <Stack>
          <Text>
            {bulk?.text} {picked.size} template{picked.size === 1 ? '' : 's'}:{' '}
            {rows
              .filter((r) => picked.has(r.id))
              .map((r) => r.name)
              .join(', ')}
            .{bulk?.delete ? ' Emails already sent with them keep their record.' : ''}
          </Text>
          {run.error && (
            <Alert color="red" role="alert">
              {errorMessage(run.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setBulk(null)}>
              Cancel
            </Button>
            <Button
              color={bulk?.delete ? 'red' : undefined}
              loading={run.isPending}
              onClick={() => bulk && run.mutate(bulk)}
            >
              {bulk?.text}
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
