/**
 * /admin/orders: the order management (filters in the address, CSV export named with "order"), the fulfilment
 * status, and refunds of part or all through the card processor (never more than is left).
 */

import {
  CHARGE_STATUS_LABELS,
  CHARGE_STATUSES,
  formatUsd,
  ORDER_ADMIN_STATUS_LABELS,
  ORDER_ADMIN_STATUSES,
  type OrderAdminStatus,
  parseUsd,
  type StoreOrder,
} from '@harbor/shared';
import { Alert, Button, Group, Loader, Modal, Pagination, Select, Stack, Text, TextInput } from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { adminOrders, refundOrder, setOrderStatus } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { qk, qkUnder } from '../../api/queries';
import { newIdempotencyKey } from '../../api/wallet';
import { PageHeading } from '../../components/PageHeading';
import { RecordTable } from '../../components/RecordTable';

const FILTERS = ['q', 'admin_status', 'payment_status'] as const;

export function AdminOrdersPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters = Object.fromEntries(FILTERS.map((k) => [k, params.get(k) || undefined]));
  const list = useQuery({
    // The filters come from the address; the server checks them against StoreOrderListQuery.
    queryKey: qk('GET /v1/admin/order_management', { query: { ...filters, page, limit: 20 } as never }),
    queryFn: ({ signal }) => adminOrders({ ...filters, page, limit: 20 } as never, signal),
    placeholderData: keepPreviousData,
  });
  const set = (k: string, v: string | null) => {
    const n = new URLSearchParams(params);
    if (v) n.set(k, v);
    else n.delete(k);
    if (k !== 'page') n.delete('page');
    setParams(n, { replace: k === 'q' });
  };
  const [refunding, setRefunding] = useState<StoreOrder | null>(null);
  const queryClient = useQueryClient();
  const status = useMutation({
    mutationFn: (v: { id: number; s: OrderAdminStatus }) => setOrderStatus(v.id, v.s),
    onSuccess: () => queryClient.invalidateQueries(qkUnder('/v1/admin/order_management')),
  });
  const exportUrl = `/v1/admin/order_management/export.csv?${new URLSearchParams(
    Object.entries(filters).filter(([, v]) => v) as [string, string][],
  ).toString()}`;
  return (
    <Stack gap="md">
      <PageHeading title="Orders" section="Admin" />
      <Group align="end" wrap="wrap">
        <TextInput
          label="Search"
          placeholder="Item, agent or order number"
          defaultValue={filters.q ?? ''}
          onBlur={(e) => set('q', e.currentTarget.value.trim() || null)}
          onKeyDown={(e) => e.key === 'Enter' && set('q', e.currentTarget.value.trim() || null)}
        />
        <Select
          label="Status"
          clearable
          value={filters.admin_status ?? null}
          onChange={(v) => set('admin_status', v)}
          data={ORDER_ADMIN_STATUSES.map((s) => ({ value: s, label: ORDER_ADMIN_STATUS_LABELS[s] }))}
        />
        <Select
          label="Payment"
          clearable
          value={filters.payment_status ?? null}
          onChange={(v) => set('payment_status', v)}
          data={CHARGE_STATUSES.map((s) => ({ value: s, label: CHARGE_STATUS_LABELS[s] }))}
        />
        <Button component="a" href={exportUrl} variant="default" download>
          Export CSV
        </Button>
      </Group>
      {list.isLoading && <Loader aria-label="Loading orders" />}
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      {list.data && list.data.data.length === 0 && (
        <Text c="dimmed">
          {Object.values(filters).some(Boolean) ? 'No order matches these filters.' : 'No orders yet.'}
        </Text>
      )}
      {list.data && list.data.data.length > 0 && (
        <RecordTable
          label="Orders"
          minWidth={980}
          rows={list.data.data}
          rowKey={(o) => o.id}
          columns={[
            { header: 'Order', cell: (o) => o.number },
            { header: 'Date', cell: (o) => new Date(o.created_at).toLocaleDateString('en-US') },
            { header: 'Agent', cell: (o) => o.agent.name },
            {
              header: 'Item',
              cell: (o) =>
                `${o.item.name}${o.contacts_count ? ` (${o.contacts_count} contacts)` : o.quantity > 1 ? ` x ${o.quantity}` : ''}`,
            },
            { header: 'Amount', cell: (o) => formatUsd(o.amount) },
            {
              header: 'Payment',
              cell: (o) =>
                `${CHARGE_STATUS_LABELS[o.payment_status]}${o.refunded_amount ? ` (${formatUsd(o.refunded_amount)} refunded)` : ''}`,
            },
            {
              header: 'Status',
              cell: (o) => (
                <Select
                  aria-label={`Status of ${o.number}`}
                  size="xs"
                  w={140}
                  value={o.admin_status}
                  allowDeselect={false}
                  onChange={(v) => v && status.mutate({ id: o.id, s: v as OrderAdminStatus })}
                  data={ORDER_ADMIN_STATUSES.map((s) => ({ value: s, label: ORDER_ADMIN_STATUS_LABELS[s] }))}
                />
              ),
            },
            {
              header: 'Refund',
              cell: (o) =>
                ['succeeded', 'partially_refunded'].includes(o.payment_status) ? (
                  <Button size="xs" variant="default" onClick={() => setRefunding(o)} aria-label={`Refund ${o.number}`}>
                    Refund
                  </Button>
                ) : null,
            },
          ]}
        />
      )}
      {status.isError && <Alert color="red">{errorMessage(status.error)}</Alert>}
      {list.data && list.data.meta.total_pages > 1 && (
        <Pagination
          total={list.data.meta.total_pages}
          value={page}
          onChange={(p) => set('page', String(p))}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
      {refunding && <RefundModal order={refunding} onClose={() => setRefunding(null)} />}
    </Stack>
  );
}

function RefundModal({ order, onClose }: { order: StoreOrder; onClose: () => void }) {
  const left = order.amount - order.refunded_amount;
  const [text, setText] = useState((left / 100).toFixed(2));
  const key = useRef(newIdempotencyKey());
  const queryClient = useQueryClient();
  const cents = parseUsd(text);
  const bad = cents === null || cents <= 0 || cents > left;
  const refund = useMutation({
    mutationFn: () => refundOrder(order.id, cents!, key.current),
    onSuccess: async () => {
      await queryClient.invalidateQueries(qkUnder('/v1/admin/order_management'));
      onClose();
    },
  });
  return (
    <Modal opened onClose={onClose} title={`Refund ${order.number}`}>
      <Stack gap="sm">
        <Text size="sm">
          {order.agent.name} paid {formatUsd(order.amount)} for {order.item.name}
          {order.card_last4 ? ` with the card ending in ${order.card_last4}` : ''}. Left to refund: {formatUsd(left)}.
        </Text>
        <TextInput
          label="Amount to refund ($)"
          value={text}
          onChange={(e) => {
            key.current = newIdempotencyKey();
            setText(e.currentTarget.value);
          }}
          error={text && bad ? `Enter an amount up to ${formatUsd(left)}, in dollars and cents.` : undefined}
        />
        {refund.isError && <Alert color="red">{errorMessage(refund.error)}</Alert>}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" disabled={bad} loading={refund.isPending} onClick={() => refund.mutate()}>
            Refund {cents && !bad ? formatUsd(cents) : ''}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
