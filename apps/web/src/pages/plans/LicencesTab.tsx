/**
 * Licences. A holder sees theirs (allocation and the month's use). The buyer of a team or company subscription (or
 * an admin) hands each seat to someone by name and sets how many messages or minutes a month it allows, within the
 * subscription's pool; each save can be undone from its notice. More seats can be bought here.
 */

import type { Licence, PlanProduct, Subscription } from '@harbor/shared';
import { Alert, Badge, Button, Group, NumberInput, Paper, Progress, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { invalidatePlans, planKey, plansApi } from '../../api/usage-plans';
import { useCurrentUser } from '../../auth/session';
import { OwnerSelect } from '../../components/pickers';
import { RecordTable } from '../../components/RecordTable';
import { BuyLicencesModal } from './BuyLicencesModal';
import { SUBSCRIPTION_KIND_LABELS, unitsLabel } from './format';

function HolderCell({ product, licence }: { product: PlanProduct; licence: Licence }) {
  const qc = useQueryClient();
  const [holder, setHolder] = useState<number | null>(licence.user?.id ?? null);
  const [allocation, setAllocation] = useState<number>(licence.allocation);
  const save = useMutation({
    mutationFn: (body: { user_id?: number | null; allocation?: number }) =>
      plansApi.updateLicence(product, licence.id, body),
    onSuccess: (saved) => {
      void invalidatePlans(qc, product);
      const before = { user_id: licence.user?.id ?? null, allocation: licence.allocation };
      const id = `licence-${licence.id}-${Date.now()}`;
      notifications.show({
        id,
        color: 'green',
        message: (
          <Group gap="xs" justify="space-between">
            <Text size="sm">
              Saved:{' '}
              {saved.user ? `${saved.user.name}, ${unitsLabel(product, saved.allocation)} a month` : 'seat taken back'}
              {licence.user
                ? ` (was ${licence.user.name}, ${unitsLabel(product, licence.allocation)})`
                : ' (was a free seat)'}
              .
            </Text>
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => {
                notifications.hide(id);
                void plansApi.updateLicence(product, licence.id, before).then(() => invalidatePlans(qc, product));
              }}
            >
              Undo
            </Button>
          </Group>
        ),
      });
    },
  });
  const changed = holder !== (licence.user?.id ?? null) || allocation !== licence.allocation;
  const label = licence.user ? licence.user.name : `free seat ${licence.id}`;
  return (
    <Stack gap={4}>
      <Group gap="xs" align="end" wrap="wrap">
        <OwnerSelect
          placeholder="Pick a person"
          aria-label={`Holder of ${label}`}
          value={holder}
          onChange={setHolder}
          current={licence.user}
          w={280}
        />
        <NumberInput
          aria-label={`Allocation of ${label}`}
          min={0}
          max={1_000_000}
          step={50}
          thousandSeparator=","
          value={allocation}
          onChange={(v) => setAllocation(Math.max(0, Math.floor(Number(v) || 0)))}
          w={160}
        />
        <Button
          disabled={!changed}
          loading={save.isPending}
          onClick={() =>
            save.mutate({
              ...(holder !== (licence.user?.id ?? null) ? { user_id: holder } : {}),
              ...(allocation !== licence.allocation ? { allocation } : {}),
            })
          }
          aria-label={`Save ${label}`}
        >
          Save
        </Button>
      </Group>
      {save.isError && (
        <Text size="sm" c="red" role="alert">
          {errorMessage(save.error)}
        </Text>
      )}
    </Stack>
  );
}

function TeamSubscription({ product, subscription }: { product: PlanProduct; subscription: Subscription }) {
  const [buying, setBuying] = useState(false);
  const list = useQuery({
    ...callQuery(planKey('GET', product, 'licenses'), { query: { subscription_id: subscription.id, limit: 100 } }),
  });
  const pool = list.data?.pool;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={`team-${subscription.id}`}>
      <Group justify="space-between" wrap="wrap" mb="xs">
        <div>
          <Title order={2} size="h4" id={`team-${subscription.id}`}>
            {subscription.plan.name} · {SUBSCRIPTION_KIND_LABELS[subscription.kind]}
          </Title>
          <Text size="sm" c="dimmed">
            {subscription.owner.name} · {subscription.seats} seats, {subscription.assigned} handed out
          </Text>
        </div>
        {subscription.status === 'active' && (
          <Button variant="light" onClick={() => setBuying(true)}>
            Buy more licences
          </Button>
        )}
      </Group>
      {pool && (
        <Stack gap={4} mb="sm">
          <Progress
            value={pool.size ? Math.min(100, (pool.allocated / pool.size) * 100) : 0}
            aria-label="Allocated of the pool"
          />
          <Text size="sm" data-testid={`pool-${subscription.id}`}>
            {unitsLabel(product, pool.allocated)} allocated of {unitsLabel(product, pool.size)} ·{' '}
            {unitsLabel(product, Math.max(0, pool.size - pool.allocated))} left to allocate
          </Text>
        </Stack>
      )}
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      <RecordTable
        label={`Licences of ${subscription.plan.name}`}
        rows={list.data?.data ?? []}
        rowKey={(l) => `${l.id}-${l.user?.id}-${l.allocation}`}
        minWidth={720}
        columns={[
          {
            header: `Holder and ${product === 'sms' ? 'messages' : 'minutes'} a month`,
            cell: (l) => <HolderCell product={product} licence={l} />,
          },
          {
            header: 'Used this month',
            cell: (l) => (l.user ? `${unitsLabel(product, l.used)} of ${l.allocation.toLocaleString('en-US')}` : '—'),
          },
          {
            header: 'Paid',
            cell: (l) => (
              <Badge color={l.paid ? 'green' : 'red'} variant="light">
                {l.paid ? 'Paid' : 'Not paid'}
              </Badge>
            ),
          },
        ]}
      />
      <BuyLicencesModal
        product={product}
        subscription={buying ? subscription : null}
        onClose={() => setBuying(false)}
      />
    </Paper>
  );
}

export function LicencesTab({ product }: { product: PlanProduct }) {
  const user = useCurrentUser();
  const allocates = user.permissions.includes('plans.allocate');
  const own = useQuery({
    ...callQuery(planKey('GET', product, 'licenses'), { query: { limit: 100 } }),
  });
  const subs = useQuery({
    ...callQuery(planKey('GET', product, 'subscriptions'), { query: { limit: 100, order_field: 'created_at' } }),
    enabled: allocates,
  });
  const mine = (own.data?.data ?? []).filter((l) => l.user?.id === user.id);
  const managed = (subs.data?.data ?? []).filter(
    (s) => s.can_manage && s.kind !== 'self' && (s.status === 'active' || s.status === 'pending'),
  );
  return (
    <Stack gap="md">
      {(own.error ?? subs.error) && (
        <Alert color="red" role="alert">
          {errorMessage(own.error ?? subs.error)}
        </Alert>
      )}
      {mine.map((l) => (
        <Paper key={l.id} withBorder p="md" radius="md">
          <Text fw={600}>Your licence: {l.plan_name}</Text>
          <Text size="sm">
            {unitsLabel(product, l.allocation)} a month · {unitsLabel(product, l.used)} used this month
            {l.paid ? '' : ' · not paid yet'}
          </Text>
        </Paper>
      ))}
      {managed.map((s) => (
        <TeamSubscription key={s.id} product={product} subscription={s} />
      ))}
      {own.isSuccess && mine.length === 0 && managed.length === 0 && (
        <Text c="dimmed">
          {allocates
            ? 'No team licences yet. Buy seats for your team on the My plan tab, then hand them out here.'
            : 'You hold no licence. Your manager hands licences out.'}
        </Text>
      )}
    </Stack>
  );
}
