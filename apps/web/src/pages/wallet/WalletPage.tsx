/**
 * The Wallet page (issue 10): balance, top-up with a card, auto-refill, analytics as charts, transactions with a
 * kind filter, invoices, cost estimates and prices; allocation for managers and admins. Money is USD with two
 * decimals, 'N/A' when missing.
 */

import {
  ANALYTICS_PERIODS,
  cardBrandLabel,
  formatUsd,
  maskedCard,
  type WalletAnalytics,
  type WalletState,
} from '@harbor/shared';
import { Alert, Center, Loader, Paper, SegmentedControl, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';
import { Allocation } from './Allocation';
import { AutoRefill } from './AutoRefill';
import { Estimate, Pricing } from './Estimate';
import { TopUpForm } from './TopUpForm';
import { Invoices, Transactions } from './Transactions';

// The chart is its own chunk: the page shows its numbers first and draws when the chart arrives.
const AnalyticsChart = lazy(async () => ({ default: (await import('./AnalyticsChart')).AnalyticsChart }));

export function Section({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="sm">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

const PERIOD_LABELS: Record<WalletAnalytics['period'], string> = {
  '7d': '7 days',
  '30d': '30 days',
  '90d': '90 days',
  '12m': '12 months',
};

function Analytics() {
  const [period, setPeriod] = useState<WalletAnalytics['period']>('30d');
  const data = useQuery({
    ...callQuery('GET /v1/wallets/analytics', { query: { period } }),
  });
  const loader = (
    <Center h={220}>
      <Loader aria-label="Loading the chart" />
    </Center>
  );
  return (
    <Stack gap="sm">
      <SegmentedControl
        aria-label="Period"
        value={period}
        onChange={(v) => setPeriod(v as WalletAnalytics['period'])}
        data={ANALYTICS_PERIODS.map((p) => ({ value: p, label: PERIOD_LABELS[p] }))}
        style={{ alignSelf: 'flex-start' }}
      />
      {data.isError && (
        <Alert color="red" role="alert">
          {errorMessage(data.error)}
        </Alert>
      )}
      {data.data ? (
        <Suspense fallback={loader}>
          <AnalyticsChart data={data.data} />
        </Suspense>
      ) : (
        !data.isError && loader
      )}
    </Stack>
  );
}

function Summary({ wallet }: { wallet: WalletState }) {
  const refill = wallet.auto_refill_settings;
  return (
    <SimpleGrid cols={{ base: 1, sm: wallet.company_balance !== null ? 3 : 2 }}>
      <Paper withBorder p="md" radius="md">
        <Text size="sm" c="dimmed">
          Balance
        </Text>
        <Text fz={32} fw={700} data-testid="wallet-balance">
          {formatUsd(wallet.balance)}
        </Text>
      </Paper>
      {wallet.company_balance !== null && (
        <Paper withBorder p="md" radius="md">
          <Text size="sm" c="dimmed">
            Company wallet
          </Text>
          <Text fz={32} fw={700} data-testid="company-balance">
            {formatUsd(wallet.company_balance)}
          </Text>
        </Paper>
      )}
      <Paper withBorder p="md" radius="md">
        <Text size="sm" c="dimmed">
          Auto-refill
        </Text>
        <Text fw={600} mt={4}>
          {refill.enabled ? `On: ${formatUsd(refill.amount)} when under ${formatUsd(refill.threshold)}` : 'Off'}
        </Text>
        <Text size="sm" c="dimmed">
          {wallet.card ? `${cardBrandLabel(wallet.card.brand)} ${maskedCard(wallet.card.last4)}` : 'No saved card'}
        </Text>
      </Paper>
    </SimpleGrid>
  );
}

export function WalletPage() {
  const wallet = useQuery(callQuery('GET /v1/wallets'));
  return (
    <Stack gap="md">
      <PageHeading title="Wallet" />
      {wallet.isError && (
        <Alert color="red" role="alert">
          {errorMessage(wallet.error)}
        </Alert>
      )}
      {wallet.isLoading && (
        <Center py="xl">
          <Loader aria-label="Loading your wallet" />
        </Center>
      )}
      {wallet.data && (
        <>
          <Summary wallet={wallet.data} />
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section title="Top up" id="wallet-top-up">
              <TopUpForm wallet={wallet.data} />
            </Section>
            <Stack gap="md">
              <Section title="Auto-refill" id="wallet-auto-refill">
                {/* Keyed by the saved card: a card saved by a top-up starts the form afresh. Not by the settings, whose
                    own save would otherwise remount the form and lose its "Auto-refill is on." confirmation. */}
                <AutoRefill key={wallet.data.card?.last4 ?? 'no card'} wallet={wallet.data} />
              </Section>
              <Section title="Estimate a cost" id="wallet-estimate">
                <Estimate />
              </Section>
            </Stack>
          </SimpleGrid>
          {wallet.data.can_allocate && (
            <Section title="Allocate to your team" id="wallet-allocate">
              <Allocation wallet={wallet.data} />
            </Section>
          )}
          <Section title="Analytics" id="wallet-analytics">
            <Analytics />
          </Section>
          <Section title="Transactions" id="wallet-transactions">
            <Transactions />
          </Section>
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            <Section title="Invoices" id="wallet-invoices">
              <Invoices />
            </Section>
            <Section title="Prices" id="wallet-prices">
              <Pricing />
            </Section>
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}
