/** Orders: every purchase I placed or that my subscriptions made (new, more licences, renewals), newest first. */

import type { Order, OrderList, PlanProduct } from '@harbor/shared';
import { PAYMENT_METHOD_LABELS } from '@harbor/shared';
import { Alert, Badge, Pagination, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { planKey } from '../../api/usage-plans';
import { RecordTable } from '../../components/RecordTable';
import { day, formatUsd, ORDER_KIND_LABELS, STATUS_COLOR, STATUS_TEXT } from './format';

export function OrderRows({ data, actions }: { data: OrderList | undefined; actions?: (o: Order) => ReactNode }) {
  return (
    <RecordTable
      label="Orders"
      rows={data?.data ?? []}
      rowKey={(o) => o.id}
      minWidth={820}
      columns={[
        { header: 'Date', cell: (o) => day(o.created_at) },
        { header: 'Order', cell: (o) => `${ORDER_KIND_LABELS[o.kind]} · ${o.plan_name}` },
        { header: 'Seats', cell: (o) => String(o.quantity) },
        {
          header: 'Amount',
          cell: (o) =>
            o.refunded_amount ? `${formatUsd(o.amount)} (${formatUsd(o.refunded_amount)} back)` : formatUsd(o.amount),
        },
        {
          header: 'Paid with',
          cell: (o) =>
            o.card_last4
              ? `${o.card_brand ?? 'Card'} ending in ${o.card_last4}`
              : PAYMENT_METHOD_LABELS[o.payment_method],
        },
        { header: 'Placed by', cell: (o) => o.placed_by.name },
        {
          header: 'Status',
          cell: (o) => (
            <Stack gap={2}>
              <Badge color={STATUS_COLOR[o.status]} variant="light">
                {STATUS_TEXT[o.status]}
              </Badge>
              {o.failure_message && (
                <Text size="xs" c="red">
                  {o.failure_message}
                </Text>
              )}
            </Stack>
          ),
        },
        !!actions && { header: 'Actions', cell: (o) => actions(o) },
      ]}
    />
  );
}

export function OrdersTab({ product }: { product: PlanProduct }) {
  const [params, setParams] = useSearchParams();
  const page = Number(params.get('page') ?? 1) || 1;
  const list = useQuery({
    ...callQuery(planKey('GET', product, 'orders'), { query: { page, limit: 25 } }),
  });
  return (
    <Stack gap="sm">
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.data && list.data.data.length === 0 ? (
        <Text c="dimmed">No orders yet.</Text>
      ) : (
        <OrderRows data={list.data} />
      )}
      {(list.data?.meta.total_pages ?? 1) > 1 && (
        <Pagination
          total={list.data!.meta.total_pages}
          value={page}
          onChange={(p) => {
            const next = new URLSearchParams(params);
            next.set('page', String(p));
            setParams(next, { replace: true });
          }}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
    </Stack>
  );
}
