/**
 * /soa-requests: the agent's scope-of-appointment requests (and their downline's, for managers), by status. One
 * opens in a side panel with what was signed (products, typed name, drawn signature, time, address, browser), and
 * completes or is rejected there.
 */

import {
  formatPhone,
  SOA_PRODUCT_LABELS,
  SOA_STATUS_LABELS,
  SOA_STATUSES,
  type SoaProduct,
  type SoaRequest,
  type SoaStatus,
} from '@harbor/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  CopyButton,
  Drawer,
  Group,
  Image,
  Loader,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
} from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { completeSoa, rejectSoa } from '../../api/events';
import { callQuery, qk } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { dateTimeLabel, zoneOf } from '../calendar/calendarDates';
import { SendSoaModal } from './SendSoaModal';

const STATUS_COLORS: Record<SoaStatus, string> = {
  sent: 'blue',
  signed: 'green',
  completed: 'teal',
  rejected: 'gray',
  expired: 'orange',
};
const productList = (p: string[]) => p.map((x) => SOA_PRODUCT_LABELS[x as SoaProduct] ?? x).join(', ');

export function SoaRequestsPage() {
  const zone = zoneOf(useCurrentUser());
  const [params, setParams] = useSearchParams();
  const status = (SOA_STATUSES as readonly string[]).includes(params.get('status') ?? '')
    ? (params.get('status') as (typeof SOA_STATUSES)[number])
    : null;
  const page = Number(params.get('page')) || 1;
  const list = useQuery({
    ...callQuery('GET /v1/users/soa_requests', { query: { status: status ?? undefined, page, limit: 25 } }),
  });
  const [open, setOpen] = useState<number | null>(null);
  const [sending, setSending] = useState(false);
  const meta = list.data?.meta;
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <PageHeading title="SOA requests">Scope of appointment requests</PageHeading>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setSending(true)}>
          Send scope of appointment
        </Button>
      </Group>
      <Select
        label="Status"
        placeholder="Every status"
        clearable
        w={{ base: '100%', xs: 240 }}
        data={SOA_STATUSES.map((s) => ({ value: s, label: SOA_STATUS_LABELS[s] }))}
        value={status}
        onChange={(v) => setParams(v ? { status: v } : {})}
      />
      {list.isPending && <Loader aria-label="Loading the requests" />}
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.data && list.data.data.length === 0 && <Text c="dimmed">No scope of appointment requests yet.</Text>}
      {list.data && list.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={820}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Contact</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Sent</Table.Th>
                <Table.Th>Signed</Table.Th>
                <Table.Th>Products</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>
                    <Anchor component="button" type="button" onClick={() => setOpen(s.id)}>
                      {s.contact.name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>
                    <Badge color={STATUS_COLORS[s.status]} variant="light" style={{ overflow: 'visible' }}>
                      {SOA_STATUS_LABELS[s.status]}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    <Text size="sm">{dateTimeLabel(s.created_at, zone)}</Text>
                    <Text size="xs" c="dimmed">
                      {s.channel === 'email'
                        ? `Email to ${s.sent_to}`
                        : s.channel === 'sms'
                          ? `Text to ${formatPhone(s.sent_to ?? '')}`
                          : 'Link'}{' '}
                      · {s.user.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>{s.signed_at ? dateTimeLabel(s.signed_at, zone) : '—'}</Table.Td>
                  <Table.Td>
                    <Text size="sm">{productList(s.products.length ? s.products : s.products_offered) || '—'}</Text>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {meta && meta.total_pages > 1 && (
        <Group gap="xs">
          <Button
            variant="default"
            size="xs"
            disabled={page <= 1}
            onClick={() => setParams({ page: String(page - 1) })}
          >
            Previous
          </Button>
          <Text size="sm">
            Page {meta.current_page} of {meta.total_pages}
          </Text>
          <Button
            variant="default"
            size="xs"
            disabled={page >= meta.total_pages}
            onClick={() => setParams({ page: String(page + 1) })}
          >
            Next
          </Button>
        </Group>
      )}
      <SoaDrawer id={open} onClose={() => setOpen(null)} zone={zone} />
      <SendSoaModal opened={sending} onClose={() => setSending(false)} />
    </Stack>
  );
}

function SoaDrawer({ id, onClose, zone }: { id: number | null; onClose: () => void; zone: string }) {
  const qc = useQueryClient();
  const soa = useQuery({
    ...callQuery('GET /v1/users/soa_requests/{id}', { params: { id: id ?? '' } }),
    enabled: id !== null,
  });
  const [reason, setReason] = useState('');
  const act = useMutation({
    mutationFn: (what: 'complete' | 'reject') => (what === 'complete' ? completeSoa(id!) : rejectSoa(id!, reason)),
    onSuccess: (s: SoaRequest) => {
      qc.setQueryData(qk('GET /v1/users/soa_requests/{id}', { params: { id: id ?? '' } }), s);
      return qc.invalidateQueries({ queryKey: qk('GET /v1/users/soa_requests') });
    },
  });
  const s = soa.data;
  return (
    <Drawer opened={id !== null} onClose={onClose} title="Scope of appointment" position="right" size="md">
      {soa.isPending && <Loader aria-label="Loading the request" />}
      {s && (
        <Stack gap="sm">
          <Group justify="space-between">
            <Anchor component={Link} to={`/contacts/${s.contact.number}`} fw={600}>
              {s.contact.name}
            </Anchor>
            <Badge color={STATUS_COLORS[s.status]} variant="light">
              {SOA_STATUS_LABELS[s.status]}
            </Badge>
          </Group>
          <Text size="sm">Agent: {s.user.name}</Text>
          <Text size="sm">Offered: {productList(s.products_offered) || 'Every product'}</Text>
          {s.link && (
            <Group gap="xs">
              <CopyButton value={s.link}>
                {({ copied, copy }) => (
                  <Button size="xs" variant="light" onClick={copy}>
                    {copied ? 'Copied' : 'Copy signing link'}
                  </Button>
                )}
              </CopyButton>
              <Text size="xs" c="dimmed">
                Open until {dateTimeLabel(s.expires_at, zone)}
              </Text>
            </Group>
          )}
          {s.signed_at && (
            <Stack gap={4} component="section" aria-label="Signature">
              <Text size="sm" fw={600}>
                Signed {dateTimeLabel(s.signed_at, zone)} by {s.signature_name}
              </Text>
              <Text size="sm">To discuss: {productList(s.products)}</Text>
              {s.signature_image && (
                <Image
                  src={s.signature_image}
                  alt={`Drawn signature of ${s.signature_name}`}
                  maw={320}
                  bg="white"
                  style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 4 }}
                />
              )}
              <Text size="xs" c="dimmed">
                From {s.signed_ip}
                {s.beneficiary_address ? ` · ${s.beneficiary_address}` : ''}
                {s.beneficiary_phone ? ` · ${s.beneficiary_phone}` : ''}
              </Text>
              <Text size="xs" c="dimmed" lineClamp={2}>
                {s.signed_user_agent}
              </Text>
            </Stack>
          )}
          {s.reject_reason && <Text size="sm">Rejected: {s.reject_reason}</Text>}
          {act.isError && (
            <Alert color="red" role="alert">
              {errorMessage(act.error)}
            </Alert>
          )}
          {s.status === 'signed' && (
            <Button onClick={() => act.mutate('complete')} loading={act.isPending && act.variables === 'complete'}>
              Mark completed
            </Button>
          )}
          {['sent', 'signed', 'expired'].includes(s.status) && (
            <Stack gap={4}>
              <Textarea label="Reason (optional)" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
              <Button
                color="red"
                variant="light"
                onClick={() => act.mutate('reject')}
                loading={act.isPending && act.variables === 'reject'}
              >
                Reject
              </Button>
            </Stack>
          )}
        </Stack>
      )}
    </Drawer>
  );
}
