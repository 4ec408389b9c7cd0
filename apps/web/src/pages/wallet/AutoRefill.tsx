/** Auto-refill: on or off, the threshold and the amount (defaults off, $10, $50), charged to the saved card. */

import { cardBrandLabel, formatUsd, maskedCard, parseUsd, WALLET_LIMITS, type WalletState } from '@harbor/shared';
import { Alert, Button, Group, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { qk } from '../../api/queries';
import { newIdempotencyKey, updateSettings } from '../../api/wallet';

const dollars = (cents: number) => (cents / 100).toFixed(2);

export function AutoRefill({ wallet }: { wallet: WalletState }) {
  const qc = useQueryClient();
  const s = wallet.auto_refill_settings;
  const [enabled, setEnabled] = useState(s.enabled);
  const [threshold, setThreshold] = useState(dollars(s.threshold));
  const [amount, setAmount] = useState(dollars(s.amount));
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const save = useMutation({
    mutationFn: () =>
      updateSettings({ enabled, threshold: parseUsd(threshold)!, amount: parseUsd(amount)! }, newIdempotencyKey()),
    onSuccess: (next) => {
      qc.setQueryData(qk('GET /v1/wallets'), next);
      // Show what was saved, as the server has it ("40" becomes "40.00").
      setThreshold(dollars(next.auto_refill_settings.threshold));
      setAmount(dollars(next.auto_refill_settings.amount));
      setErrors({});
    },
    onError: (err) => {
      if (err instanceof ApiError) {
        setErrors({
          enabled: err.errors.enabled?.[0],
          threshold: err.errors.threshold?.[0],
          amount: err.errors.amount?.[0],
        });
      }
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const t = parseUsd(threshold);
    const a = parseUsd(amount);
    const found = {
      threshold:
        t === null || t < WALLET_LIMITS.thresholdMin || t > WALLET_LIMITS.thresholdMax
          ? `Enter ${formatUsd(WALLET_LIMITS.thresholdMin)} to ${formatUsd(WALLET_LIMITS.thresholdMax)}.`
          : undefined,
      amount:
        a === null || a < WALLET_LIMITS.refillMin || a > WALLET_LIMITS.refillMax
          ? `Enter ${formatUsd(WALLET_LIMITS.refillMin)} to ${formatUsd(WALLET_LIMITS.refillMax)}.`
          : undefined,
    };
    setErrors(found);
    if (!found.threshold && !found.amount) save.mutate();
  };
  const saved = save.isSuccess && !save.isPending;
  return (
    <form onSubmit={submit} aria-label="Auto-refill settings" noValidate>
      <Stack gap="sm">
        <Switch
          label="Refill my wallet automatically"
          checked={enabled}
          onChange={(e) => setEnabled(e.currentTarget.checked)}
          error={errors.enabled}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label="When the balance falls below (USD)"
            leftSection="$"
            inputMode="decimal"
            value={threshold}
            onChange={(e) => setThreshold(e.currentTarget.value)}
            error={errors.threshold}
          />
          <TextInput
            label="Add this amount (USD)"
            leftSection="$"
            inputMode="decimal"
            value={amount}
            onChange={(e) => setAmount(e.currentTarget.value)}
            error={errors.amount}
          />
        </SimpleGrid>
        <Text size="sm" c="dimmed">
          {wallet.card
            ? `Charged to the saved card ${cardBrandLabel(wallet.card.brand)} ${maskedCard(wallet.card.last4)}, once each time the balance drops below the threshold.`
            : 'No card is saved yet: top up once with "Save this card for auto-refill" ticked.'}
        </Text>
        {save.isError && !(save.error instanceof ApiError) && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group justify="flex-end" gap="sm">
          {saved && (
            <Text size="sm" role="status">
              Auto-refill {wallet.auto_refill_settings.enabled ? 'is on' : 'is off'}.
            </Text>
          )}
          <Button type="submit" variant="light" loading={save.isPending}>
            Save auto-refill
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
