/** Transactions (20 a page, filtered by kind; 'All' is no filter) and the invoices of card payments. */

import {
  cardBrandLabel,
  formatUsd,
  maskedCard,
  WALLET_TRANSACTION_KINDS,
  WALLET_TRANSACTION_LABELS,
  type WalletTransactionKind,
} from '@harbor/shared';
import { Alert, Anchor, Badge, Group, NativeSelect, Pagination, Stack, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { RecordTable } from '../../components/RecordTable';

const POSITIVE = 'light-dark(var(--mantine-color-teal-9), var(--mantine-color-teal-4))';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short', hour12: true });

export function Transactions() {
  const [filter, setFilter] = useState<'all' | WalletTransactionKind>('all');
  const [page, setPage] = useState(1);
  const list = useQuery({
    ...callQuery('GET /v1/wallets/transaction_history', { query: { page, filter } }),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.transactions ?? [];
  return (
    <Stack gap="sm">
      <NativeSelect
        label="Show"
        w={220}
        value={filter}
        onChange={(e) => {
          setFilter(e.currentTarget.value as typeof filter);
          setPage(1);
        }}
        data={[
          { value: 'all', label: 'All transactions' },
          ...WALLET_TRANSACTION_KINDS.map((k) => ({ value: k, label: WALLET_TRANSACTION_LABELS[k] })),
        ]}
      />
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {/* Cards at phone width: a sideways-scrolling table hid the amounts off screen. */}
      <RecordTable
        label="Wallet transactions"
        minWidth={560}
        striped
        rows={rows}
        rowKey={(t) => t.id}
        columns={[
          { header: 'Date', cell: (t) => <span style={{ whiteSpace: 'nowrap' }}>{when(t.created_at)}</span> },
          {
            header: 'What',
            cell: (t) => (
              <Group gap="xs" wrap="nowrap" align="flex-start">
                <Badge variant="light" size="sm" color={t.amount > 0 ? 'teal' : 'gray'} style={{ flexShrink: 0 }}>
                  {WALLET_TRANSACTION_LABELS[t.kind]}
                </Badge>
                <Text size="sm">{t.description}</Text>
              </Group>
            ),
          },
          {
            header: 'Amount',
            align: 'right',
            // teal.8 on the striped rows was 3.7:1; teal.9 (light) and teal.4 (dark) pass AA in both themes.
            cell: (t) => (
              <span style={{ whiteSpace: 'nowrap', color: t.amount > 0 ? POSITIVE : undefined }}>
                {t.amount > 0 ? '+' : ''}
                {formatUsd(t.amount)}
              </span>
            ),
          },
          { header: 'Balance', align: 'right', cell: (t) => formatUsd(t.balance_after) },
        ]}
      />
      {list.isSuccess && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No transactions {filter === 'all' ? 'yet' : 'of this kind'}.
        </Text>
      )}
      {(list.data?.pagination.total_pages ?? 1) > 1 && (
        <Pagination
          total={list.data!.pagination.total_pages}
          value={page}
          onChange={setPage}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
          getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
        />
      )}
    </Stack>
  );
}

export function Invoices() {
  const list = useQuery(callQuery('GET /v1/wallets/invoice_history', { query: { page: 1 } }));
  const rows = list.data?.invoices ?? [];
  return (
    <Stack gap="xs">
      {list.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.error)}
        </Alert>
      )}
      {list.isSuccess && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          No invoices yet: each card payment makes one.
        </Text>
      )}
      {rows.map((inv) => (
        <Group key={inv.id} justify="space-between" wrap="nowrap">
          <div>
            <Text size="sm" fw={500}>
              {inv.number} · {formatUsd(inv.amount)}
            </Text>
            <Text size="xs" c="dimmed">
              {new Date(inv.paid_at).toLocaleDateString('en-US', { dateStyle: 'medium' })} ·{' '}
              {cardBrandLabel(inv.card_brand)} {maskedCard(inv.card_last4)}
            </Text>
          </div>
          <Anchor href={inv.download_url} download size="sm" aria-label={`PDF of invoice ${inv.number}`}>
            PDF
          </Anchor>
        </Group>
      ))}
    </Stack>
  );
}
