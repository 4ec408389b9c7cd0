/**
 * Every subscription of the company for a product: filters in the address, activate a prepared one, add seats,
 * cancel (now by default, with the credit shown first), and prepare a new one for a person, a manager's team or
 * the company (settled by invoice or from the company wallet when activated).
 */

import {
  formatUsd,
  type PlanProduct,
  SUBSCRIPTION_KINDS,
  SUBSCRIPTION_STATUSES,
  type Subscription,
  type SubscriptionKind,
} from '@harbor/shared';
import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Pagination,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
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
import { OwnerSelect } from '../../../components/pickers';
import { CancelModal } from '../../plans/CancelModal';
import { STATUS_TEXT, SUBSCRIPTION_KIND_LABELS } from '../../plans/format';
import { SubscriptionRows } from '../../plans/SubscriptionsTab';

type Pay = 'invoice' | 'company_wallet';
const PAY = [
  { value: 'invoice', label: 'Invoice' },
  { value: 'company_wallet', label: 'Company wallet' },
];

function PrepareForm({ product, onDone }: { product: PlanProduct; onDone: () => void }) {
  const plans = useQuery({
    ...callQuery(planAdminKey('GET', product, '{p}_plans'), { query: { all: 'true' } }),
  });
  const onSale = (plans.data?.data ?? []).filter((p) => p.active);
  const [planId, setPlanId] = useState<string>('');
  const [kind, setKind] = useState<SubscriptionKind>('manager');
  const [person, setPerson] = useState<number | null>(null);
  const [seats, setSeats] = useState(5);
  const [pay, setPay] = useState<Pay>('invoice');
  const key = useRef<string | null>(null);
  const qc = useQueryClient();
  const plan = onSale.find((p) => String(p.id) === planId) ?? onSale[0];
  const save = useMutation({
    mutationFn: () => {
      key.current ??= newIdempotencyKey();
      return plansAdminApi.prepare(
        product,
        {
          plan_id: plan!.id,
          kind,
          user_id: kind === 'company' ? undefined : (person ?? undefined),
          seats: kind === 'self' ? 1 : seats,
          payment_method: pay,
        },
        key.current,
      );
    },
    onSuccess: () => {
      void invalidatePlansAdmin(qc, product);
      notifications.show({ color: 'green', message: 'Prepared. Activate it when it is settled.' });
      onDone();
    },
  });
  const n = kind === 'self' ? 1 : seats;
  return (
    <Stack gap="sm">
      <NativeSelect
        label="Plan"
        value={plan ? String(plan.id) : ''}
        data={onSale.map((p) => ({ value: String(p.id), label: `${p.name} (${formatUsd(p.price)} a seat)` }))}
        onChange={(e) => {
          setPlanId(e.currentTarget.value);
          key.current = null;
        }}
      />
      <div>
        <Text size="sm" fw={500} id="prepare-for">
          For
        </Text>
        <SegmentedControl
          aria-labelledby="prepare-for"
          value={kind}
          onChange={(v) => {
            setKind(v as SubscriptionKind);
            key.current = null;
          }}
          data={SUBSCRIPTION_KINDS.map((k) => ({
            value: k,
            label: k === 'self' ? 'One person' : k === 'manager' ? "A manager's team" : 'The company',
          }))}
        />
      </div>
      {kind !== 'company' && (
        <OwnerSelect label={kind === 'manager' ? 'Manager' : 'Person'} value={person} onChange={setPerson} />
      )}
      {kind !== 'self' && (
        <NumberInput
          label="Seats"
          min={1}
          max={1000}
          value={seats}
          onChange={(v) => setSeats(Math.max(1, Math.floor(Number(v) || 1)))}
        />
      )}
      <div>
        <Text size="sm" fw={500} id="prepare-pay">
          Settled by
        </Text>
        <SegmentedControl aria-labelledby="prepare-pay" value={pay} onChange={(v) => setPay(v as Pay)} data={PAY} />
      </div>
      {plan && (
        <Text size="sm">
          {formatUsd(plan.price * n)} a month. Nothing is charged until you activate it
          {pay === 'company_wallet' ? '; then the company wallet pays.' : '; an invoice is settled outside Harbor.'}
        </Text>
      )}
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending} disabled={!plan}>
          Prepare subscription
        </Button>
      </Group>
    </Stack>
  );
}

function AddSeats({
  product,
  subscription,
  onDone,
}: {
  product: PlanProduct;
  subscription: Subscription;
  onDone: () => void;
}) {
  const [quantity, setQuantity] = useState(1);
  const [pay, setPay] = useState<Pay>('invoice');
  const key = useRef<string | null>(null);
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: () => {
      key.current ??= newIdempotencyKey();
      return plansAdminApi.addSeats(
        product,
        { subscription_id: subscription.id, quantity, payment_method: pay },
        key.current,
      );
    },
    onSuccess: (res) => {
      void invalidatePlansAdmin(qc, product);
      notifications.show({ color: 'green', message: `${quantity} seats added for ${formatUsd(res.data.amount)}.` });
      onDone();
    },
  });
  return (
    <Stack gap="sm">
      <NumberInput
        label="Seats to add"
        min={1}
        max={500}
        value={quantity}
        onChange={(v) => setQuantity(Math.max(1, Math.floor(Number(v) || 1)))}
      />
      <SegmentedControl aria-label="Settled by" value={pay} onChange={(v) => setPay(v as Pay)} data={PAY} />
      <Text size="sm">Charged for what is left of this month, then with the subscription each month.</Text>
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          Add seats
        </Button>
      </Group>
    </Stack>
  );
}

export function AdminSubscriptions({ product }: { product: PlanProduct }) {
  const [params, setParams] = useSearchParams();
  const status = params.get('status') ?? '';
  const kind = params.get('kind') ?? '';
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? 1) || 1;
  const [text, setText] = useState(q);
  const [cancelling, setCancelling] = useState<Subscription | null>(null);
  const [adding, setAdding] = useState<Subscription | null>(null);
  const [preparing, setPreparing] = useState(false);
  const qc = useQueryClient();
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    if (k !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const list = useQuery({
    ...callQuery(planAdminKey('GET', product, 'subscriptions'), {
      query: {
        status: (status || undefined) as Subscription['status'] | undefined,
        kind: (kind || undefined) as SubscriptionKind | undefined,
        q: q || undefined,
        page,
        limit: 25,
      },
    }),
  });
  const activate = useMutation({
    mutationFn: (id: number) => plansAdminApi.activate(product, id, newIdempotencyKey()),
    onSuccess: (res) => {
      void invalidatePlansAdmin(qc, product);
      void invalidatePlans(qc, product);
      notifications.show({ color: 'green', message: `${res.data.plan.name} of ${res.data.owner.name} is active.` });
    },
  });
  return (
    <Stack gap="sm">
      <Group align="end" wrap="wrap" justify="space-between">
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
            data={[
              { value: '', label: 'Any' },
              ...SUBSCRIPTION_STATUSES.map((s) => ({ value: s, label: STATUS_TEXT[s] })),
            ]}
          />
          <NativeSelect
            label="For"
            value={kind}
            onChange={(e) => set('kind', e.currentTarget.value)}
            data={[
              { value: '', label: 'Anyone' },
              ...SUBSCRIPTION_KINDS.map((k) => ({ value: k, label: SUBSCRIPTION_KIND_LABELS[k] })),
            ]}
          />
        </Group>
        <Button onClick={() => setPreparing(true)}>Prepare a subscription</Button>
      </Group>
      {(list.isError || activate.isError) && (
        <Alert color="red" role="alert">
          {errorMessage(list.error ?? activate.error)}
        </Alert>
      )}
      {list.data && list.data.data.length === 0 ? (
        <Text c="dimmed">{q || status || kind ? 'No subscription matches.' : 'Nobody has subscribed yet.'}</Text>
      ) : (
        <SubscriptionRows
          product={product}
          data={list.data}
          onCancel={setCancelling}
          actions={(s) => (
            <>
              {s.status === 'pending' && (
                <Button
                  size="compact-sm"
                  variant="light"
                  onClick={() => activate.mutate(s.id)}
                  loading={activate.isPending}
                  aria-label={`Activate ${s.plan.name} of ${s.owner.name}`}
                >
                  Activate
                </Button>
              )}
              {s.status === 'active' && s.kind !== 'self' && (
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => setAdding(s)}
                  aria-label={`Add seats to ${s.plan.name} of ${s.owner.name}`}
                >
                  Add seats
                </Button>
              )}
            </>
          )}
        />
      )}
      {(list.data?.meta.total_pages ?? 1) > 1 && (
        <Pagination
          total={list.data!.meta.total_pages}
          value={page}
          onChange={(p) => set('page', String(p))}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
      <CancelModal product={product} subscription={cancelling} admin onClose={() => setCancelling(null)} />
      <Modal opened={preparing} onClose={() => setPreparing(false)} title="Prepare a subscription" size="lg">
        {preparing && <PrepareForm product={product} onDone={() => setPreparing(false)} />}
      </Modal>
      <Modal
        opened={adding !== null}
        onClose={() => setAdding(null)}
        title={adding ? `Add seats to ${adding.plan.name}` : ''}
      >
        {adding && <AddSeats product={product} subscription={adding} onDone={() => setAdding(null)} />}
      </Modal>
    </Stack>
  );
}
