/**
 * Cancelling a subscription says what happens before it does: at the end of the paid month (it works until then
 * and does not renew) or now (it stops now and the unused part of the month goes back to the wallet that paid).
 */

import type { CancelType, PlanProduct, Subscription } from '@harbor/shared';
import { Alert, Button, Group, Modal, Radio, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { errorMessage } from '../../api/client';
import { qkUnder } from '../../api/queries';
import {
  invalidatePlans,
  invalidatePlansAdmin,
  newIdempotencyKey,
  plansAdminApi,
  plansApi,
} from '../../api/usage-plans';
import { day, formatUsd } from './format';

/** What an immediate cancellation would credit now (the server computes the same at the moment it cancels). */
export function unusedShare(s: Subscription, now = Date.now()) {
  if (s.status !== 'active' || !s.current_period_start || !s.current_period_end || s.payment_method === 'invoice')
    return 0;
  const start = new Date(s.current_period_start).getTime();
  const end = new Date(s.current_period_end).getTime();
  if (end <= start || now >= end) return 0;
  return Math.floor((s.amount * (end - now)) / (end - start));
}

export function CancelModal({
  product,
  subscription,
  admin = false,
  onClose,
}: {
  product: PlanProduct;
  subscription: Subscription | null;
  admin?: boolean;
  onClose: () => void;
}) {
  const s = subscription;
  const [type, setType] = useState<CancelType>(admin ? 'immediate' : 'period_end');
  const key = useRef<string | null>(null);
  const qc = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => {
      key.current ??= newIdempotencyKey();
      const t = s!.status === 'pending' ? 'immediate' : type;
      return admin
        ? plansAdminApi.cancel(product, { id: s!.id, type: t }, key.current)
        : plansApi.cancel(product, s!.id, { type: t }, key.current);
    },
    onSuccess: (res) => {
      key.current = null;
      void invalidatePlans(qc, product);
      void invalidatePlansAdmin(qc, product);
      void qc.invalidateQueries(qkUnder('/v1/wallets'));
      notifications.show({
        color: 'green',
        message: res.credited
          ? `Canceled. ${formatUsd(res.credited)} went back to the wallet.`
          : res.data.status === 'active'
            ? `Canceled: it works until ${day(res.data.current_period_end)}.`
            : 'Canceled.',
      });
      onClose();
    },
  });
  const credit = s ? unusedShare(s) : 0;
  return (
    <Modal opened={s !== null} onClose={onClose} title={s ? `Cancel ${s.plan.name}?` : ''}>
      {s && (
        <Stack gap="sm">
          <Text size="sm">
            {s.owner.name} · {s.seats} {s.seats === 1 ? 'seat' : 'seats'} · {formatUsd(s.amount)} a month
          </Text>
          {s.status === 'pending' ? (
            <Text size="sm">It has not started: nothing was charged, and nothing will be.</Text>
          ) : (
            <Radio.Group value={type} onChange={(v) => setType(v as CancelType)} label="When">
              <Stack gap="xs" mt={4}>
                <Radio
                  value="period_end"
                  label={`At the end of the paid month (${day(s.current_period_end)})`}
                  description="It keeps working until then and does not renew. Nothing is credited."
                />
                <Radio
                  value="immediate"
                  label="Now"
                  description={
                    s.payment_method === 'invoice'
                      ? 'It stops now. It was paid by invoice: any credit is settled outside Harbor.'
                      : `It stops now, for everyone it covers. About ${formatUsd(credit)} (the unused part of the month) goes back to the wallet that paid.`
                  }
                />
              </Stack>
            </Radio.Group>
          )}
          {cancel.isError && (
            <Alert color="red" role="alert">
              {errorMessage(cancel.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Keep it
            </Button>
            <Button color="red" onClick={() => cancel.mutate()} loading={cancel.isPending}>
              Cancel subscription
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
