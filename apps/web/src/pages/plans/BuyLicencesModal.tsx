/** More seats on a team or company subscription, charged for what is left of the month (shown before paying). */

import { formatUsd, type PlanProduct, type Subscription } from '@harbor/shared';
import { Alert, Button, Group, Modal, NumberInput, SegmentedControl, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { qkUnder } from '../../api/queries';
import { invalidatePlans, newIdempotencyKey, plansApi } from '../../api/usage-plans';
import { useCurrentUser } from '../../auth/session';
import { type CardErrors, CardFields, cardId, checkCard, emptyCard } from './CardFields';
import { day } from './format';

type Method = 'wallet' | 'company_wallet' | 'card';

/** What more seats cost for the rest of the period (the server charges the same, rounded up to the cent). */
export function restOfMonth(s: Subscription, quantity: number, now = Date.now()) {
  if (!s.current_period_start || !s.current_period_end) return s.price * quantity;
  const start = new Date(s.current_period_start).getTime();
  const end = new Date(s.current_period_end).getTime();
  if (end <= start) return 0;
  return Math.ceil((s.price * quantity * Math.max(0, end - now)) / (end - start));
}

export function BuyLicencesModal({
  product,
  subscription,
  onClose,
}: {
  product: PlanProduct;
  subscription: Subscription | null;
  onClose: () => void;
}) {
  const user = useCurrentUser();
  const admin = user.permissions.includes('plans.admin');
  const methods: Array<{ value: Method; label: string }> = [
    ...(user.wallet_feature_enabled ? [{ value: 'wallet' as const, label: 'My wallet' }] : []),
    ...(admin ? [{ value: 'company_wallet' as const, label: 'Company wallet' }] : []),
    { value: 'card', label: 'Card' },
  ];
  const [quantity, setQuantity] = useState(1);
  const [method, setMethod] = useState<Method>(methods[0].value);
  const [card, setCard] = useState(emptyCard());
  const [cardErrors, setCardErrors] = useState<CardErrors>({});
  const key = useRef<string | null>(null);
  const qc = useQueryClient();
  const buy = useMutation({
    mutationFn: async () => {
      const payment_method_id = method === 'card' ? await cardId(card) : undefined;
      key.current ??= newIdempotencyKey();
      return plansApi.orderLicences(
        product,
        { subscription_id: subscription!.id, quantity, payment_method: method, payment_method_id },
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
          res.data.status === 'pending'
            ? 'Your card payment is being confirmed; the new licences cover people once it is.'
            : `${quantity} more ${quantity === 1 ? 'licence' : 'licences'} added.`,
      });
      onClose();
    },
  });
  const s = subscription;
  const cost = s ? restOfMonth(s, quantity) : 0;
  return (
    <Modal opened={s !== null} onClose={onClose} title="Buy more licences">
      {s && (
        <Stack gap="sm">
          <NumberInput
            label="How many"
            min={1}
            max={500}
            value={quantity}
            onChange={(v) => {
              setQuantity(Math.max(1, Math.floor(Number(v) || 1)));
              key.current = null;
            }}
          />
          <div>
            <Text size="sm" fw={500} id="licences-pay">
              Pay with
            </Text>
            <SegmentedControl
              aria-labelledby="licences-pay"
              value={method}
              onChange={(v) => {
                setMethod(v as Method);
                key.current = null;
              }}
              data={methods}
            />
          </div>
          {method === 'card' && <CardFields value={card} onChange={setCard} errors={cardErrors} />}
          <Text fw={600}>
            {formatUsd(cost)} now for the rest of this month (to {day(s.current_period_end)}), then{' '}
            {formatUsd(s.price * quantity)} more each month.
          </Text>
          {buy.isError && (
            <Alert color="red" role="alert">
              {errorMessage(buy.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button
              loading={buy.isPending}
              onClick={() => {
                if (method === 'card') {
                  const found = checkCard(card);
                  setCardErrors(found);
                  if (Object.keys(found).length) return;
                }
                buy.mutate();
              }}
            >
              Pay {formatUsd(cost)}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
