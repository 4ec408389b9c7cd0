/** /contacts/transfers: transfer attempts (15 a page), one attempt's progress and logs (50 a page), and revert. */

import type { TransferAttempt } from '@harbor/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Pagination,
  Progress,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { revertTransfer } from '../../api/contacts-list';
import { callQuery, qk, qkUnder } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';
import { onTransferUpdate } from '../../live/transfers';

const when = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' }) : '—';
const target = (a: TransferAttempt) => a.to_user?.name ?? (a.to_pool ? `Pool: ${a.to_pool.name}` : '—');

export function statusLabel(a: TransferAttempt): { label: string; color: string } {
  if (a.reverting) return { label: 'reverting', color: 'orange' };
  if (a.reverted) return { label: 'reverted', color: 'gray' };
  if (a.status === 'complete') return { label: 'complete', color: 'green' };
  if (a.status === 'failed') return { label: 'failed', color: 'red' };
  return { label: a.status, color: 'blue' };
}

/** What happened to each contact of the attempt: a reverted transfer's rows went back, they were not "moved". */
export function rowState(a: TransferAttempt): string {
  if (a.reverted) return 'Moved back';
  if (a.reverting) return 'Moving back';
  return 'Moved';
}

/**
 * A transfer's live message (on the person's own notifications stream) refreshes what the page shows at once;
 * polling stays as the fallback while an attempt runs.
 */
function AttemptDetail({ id }: { id: number }) {
  const qc = useQueryClient();
  const [page, setPage] = useState(1);
  const attempt = useQuery({
    ...callQuery('GET /v1/contacts/transfer_attempts/{id}', { params: { id } }),
    // Poll while it moves (or moves back); stop once it settles.
    refetchInterval: (q) =>
      q.state.data && (q.state.data.reverting || ['pending', 'processing'].includes(q.state.data.status))
        ? 1000
        : false,
  });
  const logs = useQuery(callQuery('GET /v1/contacts/transfer_attempts/{id}/logs', { params: { id }, query: { page } }));
  const [confirming, setConfirming] = useState(false);
  const revert = useMutation({
    mutationFn: () => revertTransfer(id),
    onSuccess: () => {
      void qc.invalidateQueries(qkUnder('/v1/contacts/transfer_attempts'));
    },
  });
  const a = attempt.data;
  if (!a)
    return attempt.isError ? (
      <Alert color="red">{errorMessage(attempt.error)}</Alert>
    ) : (
      <Loader aria-label="Loading the transfer" />
    );
  const s = statusLabel(a);
  const canRevert = !a.reverted && !a.reverting && ['complete', 'failed'].includes(a.status);
  return (
    <Card withBorder component="section" aria-label={`Transfer ${a.id}`}>
      <Stack>
        <Group justify="space-between">
          <Title order={3} size="h4">
            Transfer #{a.id} to {target(a)}
          </Title>
          <Badge color={s.color} role="status" aria-label={`Status ${s.label}`}>
            {s.label}
          </Badge>
        </Group>
        <Progress value={a.total ? (100 * a.processed) / a.total : 0} aria-label="Transfer progress" />
        <Text size="sm">
          {a.reverted
            ? `${a.total.toLocaleString('en-US')} contacts moved back to their previous owners`
            : a.reverting
              ? `Moving ${a.total.toLocaleString('en-US')} contacts back to their previous owners`
              : `${a.processed.toLocaleString('en-US')} of ${a.total.toLocaleString('en-US')} contacts moved`}{' '}
          · started {when(a.created_at)} by {a.created_by?.name ?? '—'}
          {a.completed_at ? ` · completed ${when(a.completed_at)}` : ''}
        </Text>
        {a.error && (
          <Alert color="red" role="alert">
            {a.error}
          </Alert>
        )}
        {revert.isError && (
          <Alert color="red" role="alert">
            {errorMessage(revert.error)}
          </Alert>
        )}
        {canRevert && (
          <Group>
            <Button color="orange" variant="light" onClick={() => setConfirming(true)} loading={revert.isPending}>
              Revert transfer
            </Button>
          </Group>
        )}
        <Modal opened={confirming} onClose={() => setConfirming(false)} title="Revert transfer">
          <Stack>
            <Text size="sm">
              Move the {a.total.toLocaleString('en-US')} contacts of transfer #{a.id} back to the owners and pools they
              had before? Contacts changed since the transfer are moved back too.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)}>
                Cancel
              </Button>
              <Button
                color="orange"
                onClick={() => {
                  setConfirming(false);
                  revert.mutate();
                }}
              >
                Revert transfer
              </Button>
            </Group>
          </Stack>
        </Modal>
        <Table.ScrollContainer minWidth={520}>
          <Table aria-label="Transferred contacts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Contact</Table.Th>
                <Table.Th>From</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {(logs.data?.data ?? []).map((l) => (
                <Table.Tr key={l.id}>
                  <Table.Td>
                    {l.contact ? (
                      <Anchor component={Link} to={`/contacts/${l.contact.number}`}>
                        {l.contact.name}
                      </Anchor>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>{l.from_user?.name ?? '—'}</Table.Td>
                  <Table.Td>{l.to_user?.name ?? target(a)}</Table.Td>
                  <Table.Td>{rowState(a)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
        {logs.data && logs.data.meta.total_pages > 1 && (
          <Pagination total={logs.data.meta.total_pages} value={page} onChange={setPage} aria-label="Log pages" />
        )}
      </Stack>
    </Card>
  );
}

export function TransfersPage() {
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const selected = Number(params.get('attempt')) || null;
  const list = useQuery(callQuery('GET /v1/contacts/transfer_attempts', { query: { page } }));
  const qc = useQueryClient();
  // A live update (finished, failed, reverted) refreshes that attempt, its logs and the list.
  useEffect(
    () =>
      onTransferUpdate((m) => {
        void qc.invalidateQueries(qkUnder('/v1/contacts/transfer_attempts/{id}', { params: { id: m.id } }));
        void qc.invalidateQueries({ queryKey: qk('GET /v1/contacts/transfer_attempts') });
      }),
    [qc],
  );
  return (
    <Stack>
      <Group justify="space-between">
        <PageHeading title="Transfers" section="Contacts" />
        <Anchor component={Link} to="/contacts">
          Back to contacts
        </Anchor>
      </Group>
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.isPending && <Loader aria-label="Loading transfers" />}
      {list.data && list.data.data.length === 0 && <Text c="dimmed">No transfers yet.</Text>}
      {list.data && list.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={560}>
          <Table highlightOnHover aria-label="Transfer attempts">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>#</Table.Th>
                <Table.Th>To</Table.Th>
                <Table.Th>Contacts</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Started</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((a) => {
                const s = statusLabel(a);
                return (
                  <Table.Tr
                    key={a.id}
                    style={{ cursor: 'pointer' }}
                    onClick={() => setParams({ attempt: String(a.id) })}
                  >
                    <Table.Td>
                      <Anchor component="button" onClick={() => setParams({ attempt: String(a.id) })}>
                        {`Transfer ${a.id}`}
                      </Anchor>
                    </Table.Td>
                    <Table.Td>{target(a)}</Table.Td>
                    <Table.Td>{a.total.toLocaleString('en-US')}</Table.Td>
                    <Table.Td>
                      <Badge color={s.color}>{s.label}</Badge>
                    </Table.Td>
                    <Table.Td>{when(a.created_at)}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.meta.total_pages > 1 && (
        <Pagination total={list.data.meta.total_pages} value={page} onChange={setPage} aria-label="Transfer pages" />
      )}
      {selected && <AttemptDetail key={selected} id={selected} />}
    </Stack>
  );
}
