/**
 * Subscriptions I see (mine, the ones whose licence I hold, my team's), with search and filters kept in the address.
 * Their buyer (or an admin) turns renewal off and on, and cancels.
 */

import type { PlanProduct, Subscription, SubscriptionList } from '@harbor/shared';
import { Alert, Badge, Button, Checkbox, Group, Pagination, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { invalidatePlans, planKey, plansApi } from '../../api/usage-plans';
import { RecordTable } from '../../components/RecordTable';
import { CancelModal } from './CancelModal';
import { formatUsd, STATUS_COLOR, STATUS_TEXT, SUBSCRIPTION_KIND_LABELS, subscriptionState } from './format';

export function SubscriptionRows({
  product,
  data,
  onCancel,
  actions,
}: {
  product: PlanProduct;
  data: SubscriptionList | undefined;
  onCancel: (s: Subscription) => void;
  actions?: (s: Subscription) => React.ReactNode;
}) {
  const qc = useQueryClient();
  const renew = useMutation({
    mutationFn: (v: { id: number; on: boolean }) => plansApi.setAutoRenew(product, v.id, v.on),
    onSuccess: () => void invalidatePlans(qc, product),
  });
  const live = (s: Subscription) => s.status === 'active' || s.status === 'pending';
  return (
    <>
      {renew.isError && (
        <Alert color="red" role="alert">
          {errorMessage(renew.error)}
        </Alert>
      )}
      <RecordTable
        label="Subscriptions"
        rows={data?.data ?? []}
        rowKey={(s) => s.id}
        minWidth={860}
        columns={[
          { header: 'Plan', cell: (s) => s.plan.name },
          { header: 'For', cell: (s) => SUBSCRIPTION_KIND_LABELS[s.kind] },
          { header: 'Bought by', cell: (s) => s.owner.name },
          { header: 'Seats', cell: (s) => (s.kind === 'self' ? '1' : `${s.assigned} of ${s.seats} handed out`) },
          { header: 'A month', cell: (s) => formatUsd(s.amount) },
          {
            header: 'Status',
            cell: (s) => (
              <Stack gap={2}>
                <Badge color={STATUS_COLOR[s.status]} variant="light">
                  {STATUS_TEXT[s.status]}
                </Badge>
                <Text size="xs" c="dimmed">
                  {subscriptionState(s)}
                </Text>
              </Stack>
            ),
          },
          {
            header: 'Renews',
            cell: (s) =>
              s.can_manage && s.status === 'active' ? (
                <Switch
                  aria-label={`Renew ${s.plan.name} each month`}
                  checked={s.auto_renew}
                  onChange={(e) => renew.mutate({ id: s.id, on: e.currentTarget.checked })}
                />
              ) : s.auto_renew && s.status === 'active' ? (
                'Yes'
              ) : (
                'No'
              ),
          },
          {
            header: 'Actions',
            cell: (s) => (
              <Group gap="xs">
                {actions?.(s)}
                {s.can_manage && live(s) && !(s.status === 'active' && s.cancelled_at) && (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    onClick={() => onCancel(s)}
                    aria-label={`Cancel ${s.plan.name} of ${s.owner.name}`}
                  >
                    Cancel
                  </Button>
                )}
              </Group>
            ),
          },
        ]}
      />
    </>
  );
}

export function SubscriptionsTab({ product }: { product: PlanProduct }) {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const mine = params.get('mine') === 'true';
  const active = params.get('active') === 'true';
  const page = Number(params.get('page') ?? 1) || 1;
  const [text, setText] = useState(q);
  const [cancelling, setCancelling] = useState<Subscription | null>(null);
  const set = (k: string, v: string | null) => {
    const next = new URLSearchParams(params);
    if (v === null || v === '') next.delete(k);
    else next.set(k, v);
    if (k !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const list = useQuery({
    ...callQuery(planKey('GET', product, 'subscriptions'), {
      query: {
        q: q || undefined,
        mine: mine ? 'true' : undefined,
        active: active ? 'true' : undefined,
        page,
        limit: 25,
      },
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
        <Checkbox
          label="Only mine"
          checked={mine}
          onChange={(e) => set('mine', e.currentTarget.checked ? 'true' : null)}
        />
        <Checkbox
          label="Only active"
          checked={active}
          onChange={(e) => set('active', e.currentTarget.checked ? 'true' : null)}
        />
      </Group>
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.data && list.data.data.length === 0 ? (
        <Text c="dimmed">
          {q || mine || active ? 'No subscription matches.' : 'No subscriptions yet. Subscribe on the My plan tab.'}
        </Text>
      ) : (
        <SubscriptionRows product={product} data={list.data} onCancel={setCancelling} />
      )}
      {(list.data?.meta.total_pages ?? 1) > 1 && (
        <Pagination
          total={list.data!.meta.total_pages}
          value={page}
          onChange={(p) => set('page', String(p))}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
      <CancelModal product={product} subscription={cancelling} onClose={() => setCancelling(null)} />
    </Stack>
  );
}
