/**
 * Buying a plan: for myself, for my team (managers: seats to hand out) or for the company (admins), paid from my
 * wallet, the company wallet (admins) or a card. It says what will be charged before anything is; one
 * Idempotency-Key per purchase the person means to make, so a second click buys once.
 */

import { can, formatUsd, type Plan, type PlanProduct, type SubscriptionKind, unitsLabel } from '@harbor/shared';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { qkUnder } from '../../api/queries';
import { invalidatePlans, newIdempotencyKey, plansApi } from '../../api/usage-plans';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';
import { type CardErrors, CardFields, cardId, checkCard, emptyCard } from './CardFields';

type Method = 'wallet' | 'company_wallet' | 'card';

export function SubscribeModal({
  product,
  plan,
  onClose,
}: {
  product: PlanProduct;
  plan: Plan | null;
  onClose: () => void;
}) {
  return (
    <Modal opened={plan !== null} onClose={onClose} title={plan ? `Subscribe to ${plan.name}` : ''} size="lg">
      {plan && <SubscribeForm key={plan.id} product={product} plan={plan} onDone={onClose} />}
    </Modal>
  );
}

function SubscribeForm({ product, plan, onDone }: { product: PlanProduct; plan: Plan; onDone: () => void }) {
  const user = useCurrentUser();
  const subject = subjectOf(user);
  const admin = user.permissions.includes('plans.admin');
  const kinds: Array<{ value: SubscriptionKind; label: string }> = [
    ...(plan.enterprise ? [] : [{ value: 'self' as const, label: 'Myself' }]),
    ...(can(subject, 'plans.allocate') ? [{ value: 'manager' as const, label: 'My team' }] : []),
    ...(admin ? [{ value: 'company' as const, label: 'The company' }] : []),
  ];
  const methods: Array<{ value: Method; label: string }> = [
    ...(user.wallet_feature_enabled ? [{ value: 'wallet' as const, label: 'My wallet' }] : []),
    ...(admin ? [{ value: 'company_wallet' as const, label: 'Company wallet' }] : []),
    { value: 'card', label: 'Card' },
  ];
  const [kind, setKind] = useState<SubscriptionKind>(kinds[0]?.value ?? 'self');
  const [seats, setSeats] = useState<number>(Math.max(plan.min_seats, kind === 'self' ? 1 : plan.min_seats));
  const [method, setMethod] = useState<Method>(methods[0].value);
  const [card, setCard] = useState(emptyCard());
  const [cardErrors, setCardErrors] = useState<CardErrors>({});
  const key = useRef<string | null>(null);
  const qc = useQueryClient();
  const n = kind === 'self' ? 1 : seats;
  const total = plan.price * n;

  const buy = useMutation({
    mutationFn: async () => {
      const payment_method_id = method === 'card' ? await cardId(card) : undefined;
      key.current ??= newIdempotencyKey();
      return plansApi.subscribe(
        product,
        { plan_id: plan.id, kind, seats: n, payment_method: method, payment_method_id },
        key.current,
      );
    },
    onSuccess: (res) => {
      key.current = null;
      void invalidatePlans(qc, product);
      void qc.invalidateQueries(qkUnder('/v1/wallets'));
      notifications.show({
        color: 'green',
        message:
          res.order?.status === 'pending'
            ? `Your card payment for ${plan.name} is being confirmed; the subscription starts when it is.`
            : `Subscribed to ${plan.name}.`,
      });
      onDone();
    },
  });
  if (!kinds.length) {
    return <Alert color="yellow">This plan is sold to teams and companies: ask your manager for a licence.</Alert>;
  }
  const fieldErrors = buy.error instanceof ApiError ? buy.error.errors : {};
  const submit = () => {
    if (method === 'card') {
      const found = checkCard(card);
      setCardErrors(found);
      if (Object.keys(found).length) return;
    }
    buy.mutate();
  };
  return (
    <Stack gap="sm">
      <Text size="sm">
        {formatUsd(plan.price)} a seat a month. Each seat brings {unitsLabel(product, plan.units)} a month.
      </Text>
      {kinds.length > 1 && (
        <div>
          <Text size="sm" fw={500} id="subscribe-for">
            For
          </Text>
          <SegmentedControl
            aria-labelledby="subscribe-for"
            value={kind}
            onChange={(v) => {
              setKind(v as SubscriptionKind);
              key.current = null;
            }}
            data={kinds}
          />
        </div>
      )}
      {kind !== 'self' && (
        <NumberInput
          label="Seats"
          description={`Licences to hand out, at least ${plan.min_seats}`}
          min={plan.min_seats}
          max={1000}
          value={seats}
          onChange={(v) => {
            setSeats(Math.max(plan.min_seats, Number(v) || plan.min_seats));
            key.current = null;
          }}
          error={fieldErrors.seats?.[0]}
        />
      )}
      <div>
        <Text size="sm" fw={500} id="subscribe-pay">
          Pay with
        </Text>
        <SegmentedControl
          aria-labelledby="subscribe-pay"
          value={method}
          onChange={(v) => {
            setMethod(v as Method);
            key.current = null;
          }}
          data={methods}
        />
      </div>
      {method === 'card' && <CardFields value={card} onChange={setCard} errors={cardErrors} />}
      <Text fw={600} data-testid="subscribe-total">
        {formatUsd(total)} now, then {formatUsd(total)} each month until you cancel.
      </Text>
      {buy.isError && (
        <Alert color="red" role="alert">
          {errorMessage(buy.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={submit} loading={buy.isPending}>
          Pay {formatUsd(total)} and subscribe
        </Button>
      </Group>
    </Stack>
  );
}
