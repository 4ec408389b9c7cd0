/** What usage costs: the price list, and an estimate for a usage type and quantity against the balance. */

import { type CostEstimate, formatUsd, USAGE_PRICES, USAGE_TYPES, type UsageType, WALLET_LIMITS } from '@harbor/shared';
import { Alert, Button, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { estimateCost } from '../../api/wallet';

export function Estimate() {
  const [usageType, setUsageType] = useState<UsageType>('sms');
  const [quantity, setQuantity] = useState('100');
  const [bad, setBad] = useState(false);
  const estimate = useMutation({ mutationFn: () => estimateCost(usageType, Number(quantity)) });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const q = Number(quantity);
    const wrong = !/^\d+$/.test(quantity.trim()) || q < 1 || q > WALLET_LIMITS.quantityMax;
    setBad(wrong);
    if (!wrong) estimate.mutate();
  };
  const r: CostEstimate | undefined = estimate.data;
  return (
    <form onSubmit={submit} aria-label="Estimate a cost" noValidate>
      <Stack gap="sm">
        <Group align="flex-start" grow wrap="wrap">
          <NativeSelect
            label="Usage"
            value={usageType}
            onChange={(e) => setUsageType(e.currentTarget.value as UsageType)}
            data={USAGE_TYPES.map((t) => ({ value: t, label: USAGE_PRICES[t].label }))}
          />
          <TextInput
            label={`Quantity (${USAGE_PRICES[usageType].unit}s)`}
            inputMode="numeric"
            value={quantity}
            onChange={(e) => setQuantity(e.currentTarget.value)}
            error={
              bad ? `Enter a whole number from 1 to ${WALLET_LIMITS.quantityMax.toLocaleString('en-US')}.` : undefined
            }
          />
        </Group>
        <Group justify="space-between">
          <Text size="sm" role="status">
            {r
              ? `${r.quantity.toLocaleString('en-US')} × ${formatUsd(r.unit_price)} = ${formatUsd(r.amount)}${r.affordable ? ', covered by your balance.' : `, more than your balance of ${formatUsd(r.balance)}.`}`
              : ''}
          </Text>
          <Button type="submit" variant="light" loading={estimate.isPending}>
            Estimate
          </Button>
        </Group>
        {estimate.isError && (
          <Alert color="red" role="alert">
            {errorMessage(estimate.error)}
          </Alert>
        )}
      </Stack>
    </form>
  );
}

export function Pricing() {
  const prices = useQuery(callQuery('GET /v1/wallets/usage_pricing'));
  return (
    <Table aria-label="Usage prices" withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {(prices.data?.prices ?? []).map((p) => (
          <Table.Tr key={p.usage_type}>
            <Table.Td>{p.label}</Table.Td>
            <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
              {formatUsd(p.unit_price)} / {p.unit}
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}
