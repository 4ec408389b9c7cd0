/**
 * The admin's plans of a product: a list (with an empty state that says what to do), a form to create or change a
 * plan (a new texting plan starts at the spec's price for its tier: standard $5, premium $7), and delete, refused
 * while a live subscription uses the plan (switch it off instead).
 */

import {
  formatUsd,
  PLAN_TIER_LABELS,
  PLAN_TIERS,
  type Plan,
  type PlanBodyInput,
  type PlanProduct,
  type PlanTier,
  parseUsd,
  smsPlanPrice,
} from '@harbor/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client';
import { callQuery } from '../../../api/queries';
import { invalidatePlans, invalidatePlansAdmin, planAdminKey, plansAdminApi } from '../../../api/usage-plans';
import { ConfirmDeleteButton } from '../../../components/ConfirmDeleteButton';
import { RecordTable } from '../../../components/RecordTable';
import { PLAN_PRODUCT_LABELS, perSeat, unitPrice, unitsLabel } from '../../plans/format';

type Draft = {
  name: string;
  description: string;
  tier: PlanTier;
  enterprise: boolean;
  price: string;
  units: number;
  unit_price: number;
  min_seats: number;
  active: boolean;
};

const dollars = (cents: number) => (cents / 100).toFixed(2);

function draftOf(product: PlanProduct, plan: Plan | null): Draft {
  if (plan) {
    return { ...plan, price: dollars(plan.price) };
  }
  return {
    name: '',
    description: '',
    tier: 'standard',
    enterprise: false,
    price: dollars(product === 'sms' ? smsPlanPrice('standard') : 2500),
    units: 1000,
    unit_price: product === 'sms' ? 2 : 3,
    min_seats: 1,
    active: true,
  };
}

function PlanForm({ product, plan, onDone }: { product: PlanProduct; plan: Plan | null; onDone: () => void }) {
  const [d, setD] = useState<Draft>(draftOf(product, plan));
  const [priceError, setPriceError] = useState<string | undefined>();
  const qc = useQueryClient();
  const save = useMutation({
    mutationFn: (body: PlanBodyInput) =>
      plan ? plansAdminApi.updatePlan(product, plan.id, body) : plansAdminApi.createPlan(product, body),
    onSuccess: () => {
      void invalidatePlansAdmin(qc, product);
      void invalidatePlans(qc, product);
      onDone();
    },
  });
  const f = save.error instanceof ApiError ? save.error.errors : {};
  const submit = () => {
    const price = parseUsd(d.price);
    if (price === null) {
      setPriceError('Enter a price in dollars and cents.');
      return;
    }
    setPriceError(undefined);
    save.mutate({
      name: d.name,
      description: d.description,
      tier: d.tier,
      enterprise: d.enterprise,
      price,
      units: d.units,
      unit_price: d.unit_price,
      min_seats: d.min_seats,
      active: d.active,
    });
  };
  const units = product === 'sms' ? 'Messages' : 'Minutes';
  return (
    <Stack gap="sm">
      <TextInput
        label="Name"
        value={d.name}
        onChange={(e) => setD({ ...d, name: e.currentTarget.value })}
        error={f.name?.[0]}
        required
      />
      <Textarea
        label="Description"
        rows={2}
        value={d.description}
        onChange={(e) => setD({ ...d, description: e.currentTarget.value })}
        error={f.description?.[0]}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <NativeSelect
          label="Tier"
          value={d.tier}
          data={PLAN_TIERS.map((t) => ({ value: t, label: PLAN_TIER_LABELS[t] }))}
          onChange={(e) => {
            const tier = e.currentTarget.value as PlanTier;
            // A new texting plan takes the tier's price (spec §9); a custom one keeps what was typed.
            const price = !plan && product === 'sms' && tier !== 'custom' ? dollars(smsPlanPrice(tier)) : d.price;
            setD({ ...d, tier, price });
          }}
        />
        <TextInput
          label="Price a seat a month (USD)"
          leftSection="$"
          inputMode="decimal"
          value={d.price}
          onChange={(e) => setD({ ...d, price: e.currentTarget.value })}
          error={priceError ?? f.price?.[0]}
          required
        />
        <NumberInput
          label={`${units} a seat a month`}
          min={0}
          thousandSeparator=","
          value={d.units}
          onChange={(v) => setD({ ...d, units: Math.max(0, Math.floor(Number(v) || 0)) })}
          error={f.units?.[0]}
        />
        <NumberInput
          label={`Price of each ${product === 'sms' ? 'message' : 'minute'} (cents)`}
          min={1}
          max={1000}
          value={d.unit_price}
          onChange={(v) => setD({ ...d, unit_price: Math.max(1, Math.floor(Number(v) || 1)) })}
          error={f.unit_price?.[0]}
        />
      </SimpleGrid>
      <Switch
        label="Enterprise: sold to teams and the company only"
        checked={d.enterprise}
        onChange={(e) => setD({ ...d, enterprise: e.currentTarget.checked })}
      />
      {d.enterprise && (
        <NumberInput
          label="Fewest seats"
          min={1}
          max={1000}
          value={d.min_seats}
          onChange={(v) => setD({ ...d, min_seats: Math.max(1, Math.floor(Number(v) || 1)) })}
          error={f.min_seats?.[0]}
        />
      )}
      <Switch label="On sale" checked={d.active} onChange={(e) => setD({ ...d, active: e.currentTarget.checked })} />
      {save.isError && !f.name && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button onClick={submit} loading={save.isPending}>
          {plan ? 'Save plan' : 'Create plan'}
        </Button>
      </Group>
    </Stack>
  );
}

export function PlanCatalog({ product }: { product: PlanProduct }) {
  const qc = useQueryClient();
  const [editing, setEditing] = useState<Plan | 'new' | null>(null);
  const list = useQuery({
    ...callQuery(planAdminKey('GET', product, '{p}_plans'), { query: { all: 'true' } }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => plansAdminApi.deletePlan(product, id),
    onSuccess: () => void invalidatePlansAdmin(qc, product),
  });
  const label = PLAN_PRODUCT_LABELS[product].toLowerCase();
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          What people may buy. A change of price applies to new subscriptions; existing ones keep what they bought.
        </Text>
        <Button onClick={() => setEditing('new')}>New plan</Button>
      </Group>
      {(list.isError || remove.isError) && (
        <Alert color="red" role="alert">
          {errorMessage(list.error ?? remove.error)}
        </Alert>
      )}
      {list.data && list.data.data.length === 0 ? (
        <Paper withBorder p="lg" radius="md" ta="center">
          <Text fw={600}>No {label} plans yet</Text>
          <Text size="sm" c="dimmed" mb="sm">
            Agents can subscribe only to a plan on sale. Create the first one: a standard texting seat is{' '}
            {formatUsd(smsPlanPrice('standard'))} a month.
          </Text>
          <Button onClick={() => setEditing('new')}>Create the first plan</Button>
        </Paper>
      ) : (
        <RecordTable
          label={`${PLAN_PRODUCT_LABELS[product]} plans`}
          rows={list.data?.data ?? []}
          rowKey={(p) => p.id}
          minWidth={820}
          columns={[
            {
              header: 'Plan',
              cell: (p) => (
                <Group gap="xs">
                  <Text size="sm" fw={600}>
                    {p.name}
                  </Text>
                  {p.enterprise && (
                    <Badge size="sm" variant="light" color="teal">
                      Teams
                    </Badge>
                  )}
                </Group>
              ),
            },
            { header: 'Tier', cell: (p) => PLAN_TIER_LABELS[p.tier] },
            { header: 'Price', cell: (p) => perSeat(p.price) },
            { header: 'Includes', cell: (p) => `${unitsLabel(product, p.units)} a seat` },
            { header: 'Usage', cell: (p) => unitPrice(product, p.unit_price) },
            {
              header: 'On sale',
              cell: (p) => (
                <Badge color={p.active ? 'green' : 'gray'} variant="light">
                  {p.active ? 'Yes' : 'No'}
                </Badge>
              ),
            },
            {
              header: 'Actions',
              cell: (p) => (
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    onClick={() => setEditing(p)}
                    aria-label={`Edit ${p.name}`}
                  >
                    Edit
                  </Button>
                  <ConfirmDeleteButton
                    label={`Delete plan ${p.name}`}
                    onConfirm={() => remove.mutate(p.id)}
                    loading={remove.isPending}
                  />
                </Group>
              ),
            },
          ]}
        />
      )}
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? `New ${label} plan` : editing ? `Edit ${editing.name}` : ''}
        size="lg"
      >
        {editing !== null && (
          <PlanForm
            key={editing === 'new' ? 'new' : editing.id}
            product={product}
            plan={editing === 'new' ? null : editing}
            onDone={() => setEditing(null)}
          />
        )}
      </Modal>
    </Stack>
  );
}
