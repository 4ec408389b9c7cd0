/**
 * Every order of the company for a product. An admin cancels one: a pending order simply ends; a paid one is
 * refunded the way it was paid and what it bought is taken back; the question says which before it happens.
 */

import { ORDER_STATUSES, type Order, type PlanProduct } from '@harbor/shared';
import { Alert, Button, Group, NativeSelect, Pagination, Popover, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { callQuery } from '../../../api/queries';
import {
  invalidatePlans,
  invalidatePlansAdmin,
  newIdempotencyKey,
  planAdminKey,
  plansAdminApi,
} from '../../../api/usage-plans';
import { formatUsd, STATUS_TEXT } from '../../plans/format';
import { OrderRows } from '../../plans/OrdersTab';

function whatCancelDoes(o: Order) {
  if (o.status === 'pending') return 'It has not been paid: it ends, and what it would have bought with it.';
  const back =
    o.payment_method === 'card'
      ? `${formatUsd(o.amount)} goes back to the card`
      : o.payment_method === 'invoice'
        ? `A refund of ${formatUsd(o.amount)} is recorded (settle it outside Harbor)`
        : `${formatUsd(o.amount)} goes back to the wallet that paid`;
  const taken = o.kind === 'licences' ? `its ${o.quantity} licences are removed` : 'its subscription ends now';
  return `${back}, and ${taken}.`;
}

function CancelOrder({ product, order }: { product: PlanProduct; order: Order }) {
  const [open, setOpen] = useState(false);
  const qc = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => plansAdminApi.cancelOrder(product, order.id, newIdempotencyKey()),
    onSuccess: (res) => {
      void invalidatePlansAdmin(qc, product);
      void invalidatePlans(qc, product);
      notifications.show({
        color: 'green',
        message: `Order ${order.id} ${STATUS_TEXT[res.data.status].toLowerCase()}.`,
      });
    },
    onError: (err) => notifications.show({ color: 'red', message: errorMessage(err) }),
  });
  if (order.status !== 'pending' && order.status !== 'paid') return null;
  const verb = order.status === 'paid' ? 'Refund' : 'Cancel';
  return (
    <Popover opened={open} onChange={setOpen} position="bottom-end" withArrow shadow="md" trapFocus>
      <Popover.Target>
        <Button
          size="compact-sm"
          variant="subtle"
          color="red"
          onClick={() => setOpen((o) => !o)}
          aria-label={`${verb} order ${order.id}`}
        >
          {verb}
        </Button>
      </Popover.Target>
      <Popover.Dropdown maw={320}>
        <Text size="sm" mb="xs">
          {verb} order {order.id}? {whatCancelDoes(order)}
        </Text>
        <Group gap="xs" justify="flex-end">
          <Button size="compact-sm" variant="default" onClick={() => setOpen(false)}>
            Keep it
          </Button>
          <Button
            size="compact-sm"
            color="red"
            loading={cancel.isPending}
            onClick={() => {
              setOpen(false);
              cancel.mutate();
            }}
          >
            {verb}
          </Button>
        </Group>
      </Popover.Dropdown>
    </Popover>
  );
}

export function AdminOrders({ product }: { product: PlanProduct }) {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? 1) || 1;
  const [text, setText] = useState(q);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    if (k !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const list = useQuery({
    ...callQuery(planAdminKey('GET', product, 'orders'), {
      query: { status: (status || undefined) as Order['status'] | undefined, q: q || undefined, page, limit: 25 },
    }),
  });
  return (
    <Stack gap="sm">
      <Group align="end" wrap="wrap">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            set('q', text.trim());
          }}
        >
          <TextInput
            label="Search"
            placeholder="Plan or person"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onBlur={() => text.trim() !== q && set('q', text.trim())}
          />
        </form>
        <NativeSelect
          label="Status"
          value={status}
          onChange={(e) => set('status', e.currentTarget.value)}
          data={[{ value: '', label: 'Any' }, ...ORDER_STATUSES.map((s) => ({ value: s, label: STATUS_TEXT[s] }))]}
        />
      </Group>
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.data && list.data.data.length === 0 ? (
        <Text c="dimmed">{q || status ? 'No order matches.' : 'No orders yet.'}</Text>
      ) : (
        <OrderRows data={list.data} actions={(o) => <CancelOrder product={product} order={o} />} />
      )}
      {(list.data?.meta.total_pages ?? 1) > 1 && (
        <Pagination
          total={list.data!.meta.total_pages}
          value={page}
          onChange={(p) => set('page', String(p))}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
    </Stack>
  );
}
