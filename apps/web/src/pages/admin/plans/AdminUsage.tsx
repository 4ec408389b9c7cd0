/** The company's month for a product, person by person (most first), with what covers each now. */

import type { PlanProduct } from '@harbor/shared';
import { Alert, Group, NativeSelect, Pagination, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../../api/client';
import { callQuery } from '../../../api/queries';
import { planAdminKey } from '../../../api/usage-plans';
import { RecordTable } from '../../../components/RecordTable';
import { SUBSCRIPTION_KIND_LABELS, unitsLabel } from '../../plans/format';

/** The last twelve months, newest first, as YYYY-MM with a readable label. */
function recentMonths(now = new Date()) {
  return Array.from({ length: 12 }, (_, i) => {
    const d = new Date(now.getFullYear(), now.getMonth() - i, 1);
    const value = `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
    return { value, label: d.toLocaleDateString('en-US', { month: 'long', year: 'numeric' }) };
  });
}

export function AdminUsage({ product }: { product: PlanProduct }) {
  const months = recentMonths();
  const [params, setParams] = useSearchParams();
  const month = params.get('month') ?? months[0].value;
  const q = params.get('q') ?? '';
  const page = Number(params.get('page') ?? 1) || 1;
  const [text, setText] = useState(q);
  const set = (k: string, v: string) => {
    const next = new URLSearchParams(params);
    if (v) next.set(k, v);
    else next.delete(k);
    if (k !== 'page') next.delete('page');
    setParams(next, { replace: true });
  };
  const usage = useQuery({
    ...callQuery(planAdminKey('GET', product, 'usage'), { query: { month, q: q || undefined, page, limit: 25 } }),
  });
  const total = usage.data?.totals;
  return (
    <Stack gap="sm">
      <Group align="end" wrap="wrap">
        <NativeSelect label="Month" value={month} data={months} onChange={(e) => set('month', e.currentTarget.value)} />
        <form
          onSubmit={(e) => {
            e.preventDefault();
            set('q', text.trim());
          }}
        >
          <TextInput
            label="Search"
            placeholder="Name or email"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            onBlur={() => text.trim() !== q && set('q', text.trim())}
          />
        </form>
      </Group>
      {total && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Paper withBorder p="sm" radius="md">
            <Text size="sm" c="dimmed">
              Used in {months.find((m) => m.value === month)?.label ?? month}
            </Text>
            <Text fw={700} size="xl" data-testid="usage-total">
              {unitsLabel(product, total.used)}
            </Text>
          </Paper>
          <Paper withBorder p="sm" radius="md">
            <Text size="sm" c="dimmed">
              People who used any
            </Text>
            <Text fw={700} size="xl">
              {total.people}
            </Text>
          </Paper>
        </SimpleGrid>
      )}
      {usage.isError && (
        <Alert color="red" role="alert">
          {errorMessage(usage.error)}
        </Alert>
      )}
      <RecordTable
        label="Usage by person"
        rows={usage.data?.data ?? []}
        rowKey={(r) => r.user.id}
        minWidth={640}
        columns={[
          { header: 'Person', cell: (r) => `${r.user.name} (${r.user.email})` },
          { header: 'Used', cell: (r) => unitsLabel(product, r.used) },
          {
            header: 'Allocation',
            cell: (r) =>
              r.allocation === null ? (r.coverage_kind ? 'No cap' : '—') : unitsLabel(product, r.allocation),
          },
          {
            header: 'Covered by',
            cell: (r) =>
              r.coverage_kind ? `${r.plan_name} (${SUBSCRIPTION_KIND_LABELS[r.coverage_kind]})` : 'No plan',
          },
        ]}
      />
      {(usage.data?.meta.total_pages ?? 1) > 1 && (
        <Pagination
          total={usage.data!.meta.total_pages}
          value={page}
          onChange={(p) => set('page', String(p))}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
    </Stack>
  );
}
