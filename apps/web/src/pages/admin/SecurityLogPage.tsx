/** Admin > Security log: the company's audit events (sign-ins, failures, password and two-factor changes). */

import { Alert, Badge, Button, Group, Loader, NativeSelect, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { type AuditEvent, listAuditEvents } from '../../api/admin';
import { errorMessage } from '../../api/client';
import { qk } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';

const EVENTS = [
  'sign_in',
  'sign_in_failed',
  'sign_in_locked',
  'sign_out',
  'otp_failed',
  'password_changed',
  'password_reset_requested',
  'password_reset',
  'two_factor_enabled',
  'two_factor_disabled',
  'two_factor_method_changed',
  'impersonation_started',
  'impersonation_ended',
  'user_created',
  'user_updated',
  'user_roles_changed',
  'user_deleted',
  'paid_membership_changed',
  'feature_flags_changed',
  'sso_connection_changed',
  'sso_connection_removed',
  'api_key_created',
  'api_key_refreshed',
  'api_key_revoked',
];

const label = (e: string) => e.replace(/_/g, ' ');
const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', hour12: true });

export function SecurityLogPage() {
  const [event, setEvent] = useState('');
  const query = useInfiniteQuery({
    queryKey: qk('GET /v1/admin/audit_events', { query: { event: event || undefined } }),
    queryFn: ({ pageParam, signal }) => listAuditEvents({ event: event || undefined, before_id: pageParam }, signal),
    initialPageParam: undefined as number | undefined,
    getNextPageParam: (last) => last.meta.next_before_id ?? undefined,
  });
  const rows: AuditEvent[] = query.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <Stack>
      <PageHeading title="Security log" section="Admin" />
      <Group>
        <NativeSelect
          label="Event"
          value={event}
          onChange={(e) => setEvent(e.currentTarget.value)}
          data={[{ value: '', label: 'All events' }, ...EVENTS.map((e) => ({ value: e, label: label(e) }))]}
        />
      </Group>
      {query.isPending && <Loader aria-label="Loading the security log" />}
      {query.isError && (
        <Alert color="red" role="alert">
          {errorMessage(query.error)}
        </Alert>
      )}
      {query.isSuccess && rows.length === 0 && <Text c="dimmed">No events yet.</Text>}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={600}>
          <Table striped aria-label="Security events">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>When</Table.Th>
                <Table.Th>Event</Table.Th>
                <Table.Th>User</Table.Th>
                <Table.Th>Address</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((r) => (
                <Table.Tr key={r.id}>
                  <Table.Td>{when(r.created_at)}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={/failed|locked/.test(r.event) ? 'red' : 'gray'}>
                      {label(r.event)}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{r.user_email ?? (typeof r.data.email === 'string' ? r.data.email : '—')}</Table.Td>
                  <Table.Td>{r.ip ?? '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {query.hasNextPage && (
        <Button variant="default" onClick={() => query.fetchNextPage()} loading={query.isFetchingNextPage}>
          Load older events
        </Button>
      )}
    </Stack>
  );
}
