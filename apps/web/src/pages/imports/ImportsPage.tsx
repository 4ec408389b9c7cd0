/**
 * Contacts > Imports (/contacts/imports): attempts with tabs and filters (everyone's own; admins and managers also
 * those of the people they track), their counts, who ran them and when, each opening its result page; retry a failed
 * one, delete one (asking about the contacts it created). Live messages update or add attempts.
 */

import { can, type ImportProgressMessage } from '@harbor/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Loader,
  Modal,
  NativeSelect,
  Pagination,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { QueryOf } from '../../api/call';
import { errorMessage } from '../../api/client';
import { type Attempt, type AttemptList, deleteAttempt, retryAttempt } from '../../api/imports';
import { callQuery, qk } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { subjectOf } from '../../layout/nav';
import { onImportProgress, watchImport } from './watchImport';

type AttemptsQuery = QueryOf<'GET /v1/contacts/import_attempts'>;

const LIMIT = 15;
const TABS = [
  ['all', 'All'],
  ['active', 'In progress'],
  ['completed', 'Completed'],
  ['failed', 'Failed'],
] as const;
const COLOR: Record<string, string> = {
  completed: 'teal',
  failed: 'red',
  cancelled: 'gray',
  processing: 'blue',
  pending: 'yellow',
  undoing: 'grape',
  undone: 'gray',
};
export const STATUS_LABEL: Record<string, string> = {
  pending: 'Waiting',
  processing: 'Importing',
  completed: 'Completed',
  failed: 'Failed',
  cancelled: 'Canceled',
  undoing: 'Undoing',
  undone: 'Undone',
};
const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Applies a progress message to a cached page: the attempt with that id is updated, or added on page one. */
export function applyProgress(
  list: AttemptList | undefined,
  m: ImportProgressMessage,
  firstPage: boolean,
): AttemptList | undefined {
  if (!list) return list;
  const i = list.data.findIndex((a) => a.id === m.id);
  const patch = {
    status: m.status,
    processed: m.processed,
    total: m.total,
    created: m.created,
    updated: m.updated,
    unchanged: m.unchanged ?? 0,
    skipped: m.skipped,
    failed: m.failed,
  };
  if (i >= 0) return { ...list, data: list.data.map((a) => (a.id === m.id ? { ...a, ...patch } : a)) };
  if (!firstPage) return list;
  const added: Attempt = {
    id: m.id,
    kind: 'list',
    contact_type: 'lead',
    file_name: m.file_name,
    file_size: 0,
    user: null,
    owner_id: null,
    error: null,
    result: {},
    created_at: new Date().toISOString(),
    finished_at: null,
    ...patch,
  };
  return { ...list, data: [added, ...list.data].slice(0, list.meta.limit) };
}

export function ImportsPage() {
  const user = useCurrentUser();
  const tracking = can(subjectOf(user), 'imports.track');
  return (
    <Stack maw={1200}>
      <Group justify="space-between">
        <PageHeading title="Imports" />
        <Button component={Link} to="/contacts/imports/new">
          Import a list
        </Button>
      </Group>
      <WorkersLine />
      <Text size="sm" c="dimmed">
        {tracking ? 'Your imports and those of the people you manage.' : 'Your imports.'} Open one to see each row it
        skipped and why, what it changed, and to undo it.
      </Text>
      <AttemptsTable />
    </Stack>
  );
}

function WorkersLine() {
  const q = useQuery({
    ...callQuery('GET /v1/contacts/workers_status'),
    refetchInterval: 10_000,
  });
  if (!q.data) return null;
  return (
    <Text size="sm" c="dimmed" aria-label="Workers status">
      {q.data.processing ? `Imports are being processed (${q.data.running} running)` : 'No import is running'}
      {q.data.waiting ? `, ${q.data.waiting} waiting` : ''}
    </Text>
  );
}

function AttemptsTable() {
  const queryClient = useQueryClient();
  const [tab, setTab] = useState('all');
  const [page, setPage] = useState(1);
  const [filterBy, setFilterBy] = useState('file_name');
  const [filterValue, setFilterValue] = useState('');
  const [toDelete, setToDelete] = useState<Attempt | null>(null);
  const [removeContacts, setRemoveContacts] = useState(false);
  // The tabs and the filter select offer only the values the route takes.
  const params: AttemptsQuery = {
    page,
    limit: LIMIT,
    tab: tab as AttemptsQuery['tab'],
    filter_by: filterValue ? (filterBy as AttemptsQuery['filter_by']) : undefined,
    filter_value: filterValue || undefined,
  };
  const key = qk('GET /v1/contacts/import_attempts', { query: params });
  const q = useQuery({
    ...callQuery('GET /v1/contacts/import_attempts', { query: params }),
    placeholderData: keepPreviousData,
  });

  // The live listener reads the page being shown through a ref, so it subscribes once.
  const shown = useRef({ key, firstPage: page === 1 && tab !== 'failed' });
  shown.current = { key, firstPage: page === 1 && tab !== 'failed' };
  useEffect(
    () =>
      onImportProgress((m) => {
        const { key: k, firstPage } = shown.current;
        queryClient.setQueryData<AttemptList>(k, (old) => applyProgress(old, m, firstPage));
        if (m.status === 'completed' || m.status === 'failed') {
          void queryClient.invalidateQueries({ queryKey: qk('GET /v1/contacts/import_attempts') });
        }
      }),
    [queryClient],
  );

  const retry = useMutation({
    mutationFn: (a: Attempt) => retryAttempt(a.id),
    onSuccess: (a) => {
      watchImport(a);
      void queryClient.invalidateQueries({ queryKey: qk('GET /v1/contacts/import_attempts') });
    },
  });
  const remove = useMutation({
    mutationFn: () => deleteAttempt((toDelete as Attempt).id, removeContacts),
    onSuccess: () => {
      setToDelete(null);
      setRemoveContacts(false);
      void queryClient.invalidateQueries({ queryKey: qk('GET /v1/contacts/import_attempts') });
    },
  });
  const counts = q.data?.meta.counts ?? {};
  const error = q.error ?? retry.error ?? remove.error;

  return (
    <Stack>
      <Tabs
        value={tab}
        onChange={(v) => {
          setTab(v ?? 'all');
          setPage(1);
        }}
      >
        <Tabs.List>
          {TABS.map(([value, label]) => (
            <Tabs.Tab key={value} value={value}>
              {label} ({counts[value] ?? 0})
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group align="flex-end">
        <NativeSelect
          label="Filter by"
          value={filterBy}
          onChange={(e) => setFilterBy(e.currentTarget.value)}
          data={[
            { value: 'file_name', label: 'File name' },
            { value: 'user', label: 'Who ran it' },
            { value: 'status', label: 'Status' },
            { value: 'type', label: 'Contact type' },
          ]}
        />
        <TextInput
          label="Filter value"
          value={filterValue}
          onChange={(e) => {
            setFilterValue(e.currentTarget.value);
            setPage(1);
          }}
        />
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {q.isPending && <Loader aria-label="Loading imports" />}
      {q.data && q.data.data.length === 0 && <Text c="dimmed">No imports here yet.</Text>}
      {q.data && q.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={860}>
          <Table striped aria-label="Import attempts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>File</Table.Th>
                <Table.Th>Who</Table.Th>
                <Table.Th>When</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Created</Table.Th>
                <Table.Th>Updated</Table.Th>
                <Table.Th>Unchanged</Table.Th>
                <Table.Th>Skipped</Table.Th>
                <Table.Th>Invalid</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {q.data.data.map((a) => (
                <Table.Tr key={a.id} aria-label={`Import ${a.file_name}`}>
                  <Table.Td>
                    <Anchor component={Link} to={`/contacts/imports/${a.id}`} size="sm">
                      {a.file_name}
                    </Anchor>
                    {a.error && (
                      <Text size="xs" c="red">
                        {a.error}
                      </Text>
                    )}
                  </Table.Td>
                  <Table.Td>{a.user?.name ?? '—'}</Table.Td>
                  <Table.Td>{when(a.created_at)}</Table.Td>
                  <Table.Td>
                    <Badge color={COLOR[a.status] ?? 'gray'} variant="light">
                      {a.status === 'processing' && a.total
                        ? `${a.processed} / ${a.total}`
                        : (STATUS_LABEL[a.status] ?? a.status)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{a.created}</Table.Td>
                  <Table.Td>{a.updated}</Table.Td>
                  <Table.Td>{a.unchanged}</Table.Td>
                  <Table.Td>{a.skipped}</Table.Td>
                  <Table.Td>{a.failed}</Table.Td>
                  <Table.Td>
                    <Group gap="xs" wrap="nowrap">
                      {a.status === 'failed' && (
                        <Button
                          size="xs"
                          variant="light"
                          onClick={() => retry.mutate(a)}
                          aria-label={`Retry ${a.file_name}`}
                        >
                          Retry
                        </Button>
                      )}
                      {!['pending', 'processing', 'undoing'].includes(a.status) && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color="red"
                          onClick={() => setToDelete(a)}
                          aria-label={`Delete ${a.file_name}`}
                        >
                          Delete
                        </Button>
                      )}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {q.data && q.data.meta.total_pages > 1 && (
        <Pagination total={q.data.meta.total_pages} value={page} onChange={setPage} aria-label="Pages" />
      )}
      <Modal opened={!!toDelete} onClose={() => setToDelete(null)} title="Delete this import?">
        <Stack>
          <Text size="sm">
            {toDelete?.file_name}: the import record goes away. It created {toDelete?.created ?? 0} contacts.
          </Text>
          <Checkbox
            label="Also remove the contacts it created"
            checked={removeContacts}
            onChange={(e) => setRemoveContacts(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setToDelete(null)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
              Delete import
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
