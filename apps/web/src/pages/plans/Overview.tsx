/**
 * "My plan": what covers me this month and how much of it I used (for the dialer, whether I can call and what to
 * fix if not), the company's subscription waiting for activation, and the plans on sale.
 */

import { featureGateRefusal, type Plan, type PlanProduct, type UsageSummary } from '@harbor/shared';
import {
  Alert,
  Badge,
  Button,
  Card,
  Center,
  Group,
  List,
  Loader,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { isSubscription, planKey } from '../../api/usage-plans';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';
import {
  PLAN_PRODUCT_LABELS,
  perSeat,
  SUBSCRIPTION_KIND_LABELS,
  subscriptionState,
  unitPrice,
  unitsLabel,
} from './format';
import { SubscribeModal } from './SubscribeModal';

function MyMonth({ product, usage }: { product: PlanProduct; usage: UsageSummary }) {
  const label = PLAN_PRODUCT_LABELS[product].toLowerCase();
  const c = usage.coverage;
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-month">
      <Title order={2} size="h4" id="my-month" mb="xs">
        This month
      </Title>
      {c ? (
        <Stack gap={6}>
          <Group gap="xs">
            <Text fw={600}>{c.plan_name}</Text>
            <Badge variant="light">{SUBSCRIPTION_KIND_LABELS[c.kind]}</Badge>
            {!c.paid && (
              <Badge color="red" variant="light">
                Licence not paid
              </Badge>
            )}
          </Group>
          {usage.allocation !== null ? (
            <>
              <Progress
                value={usage.allocation ? Math.min(100, (usage.used / usage.allocation) * 100) : 100}
                color={usage.remaining === 0 ? 'red' : 'blue'}
                aria-label={`${unitsLabel(product, usage.used)} used of ${unitsLabel(product, usage.allocation)}`}
              />
              <Text size="sm" data-testid="usage-line">
                {unitsLabel(product, usage.used)} used of {unitsLabel(product, usage.allocation)} ·{' '}
                {unitsLabel(product, usage.remaining ?? 0)} left
              </Text>
            </>
          ) : (
            <Text size="sm" data-testid="usage-line">
              {unitsLabel(product, usage.used)} used · no monthly cap; each {product === 'sms' ? 'message' : 'minute'}{' '}
              is paid from your wallet at {unitPrice(product, c.unit_price)}.
            </Text>
          )}
        </Stack>
      ) : (
        <Text size="sm">
          You have no {label} plan. Subscribe below, or ask your manager for a licence. (
          {unitsLabel(product, usage.used)} used this month.)
        </Text>
      )}
      {usage.team.length > 0 && (
        <Text size="sm" mt="xs">
          Your team: {usage.team.length} {usage.team.length === 1 ? 'person holds' : 'people hold'} licences you manage
          (
          {unitsLabel(
            product,
            usage.team.reduce((n, m) => n + m.used, 0),
          )}{' '}
          used this month). Hand them out on the Licences tab; hold one yourself to{' '}
          {product === 'sms' ? 'text' : 'call'} from it.
        </Text>
      )}
      {usage.enablement && (
        <Alert
          mt="sm"
          color={usage.enablement.enabled ? 'green' : 'yellow'}
          title={usage.enablement.enabled ? 'You can place calls' : 'Calls are off until:'}
        >
          {usage.enablement.enabled ? (
            'Your dialer is ready.'
          ) : (
            <List size="sm">
              {usage.enablement.reasons.map((r) => (
                <List.Item key={r}>{r}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
    </Paper>
  );
}

function PlanCard({ product, plan, onBuy }: { product: PlanProduct; plan: Plan; onBuy: (p: Plan) => void }) {
  return (
    <Card withBorder radius="md" padding="md" component="article" aria-labelledby={`plan-${plan.id}`}>
      <Stack gap={6} h="100%">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={3} size="h5" id={`plan-${plan.id}`}>
            {plan.name}
          </Title>
          <Badge variant="light" color={plan.tier === 'premium' ? 'grape' : plan.enterprise ? 'teal' : 'blue'}>
            {plan.enterprise
              ? 'Teams'
              : plan.tier === 'premium'
                ? 'Premium'
                : plan.tier === 'standard'
                  ? 'Standard'
                  : 'Custom'}
          </Badge>
        </Group>
        <Text fw={700} size="lg">
          {perSeat(plan.price)}
        </Text>
        <Text size="sm">
          {unitsLabel(product, plan.units)} a month{plan.enterprise ? ' a seat' : ''} ·{' '}
          {unitPrice(product, plan.unit_price)}
          {plan.min_seats > 1 ? ` · at least ${plan.min_seats} seats` : ''}
        </Text>
        {plan.description && (
          <Text size="sm" c="dimmed">
            {plan.description}
          </Text>
        )}
        <Button mt="auto" onClick={() => onBuy(plan)} aria-label={`Subscribe to ${plan.name}`}>
          Subscribe
        </Button>
      </Stack>
    </Card>
  );
}

export function Overview({ product }: { product: PlanProduct }) {
  const user = useCurrentUser();
  const [buying, setBuying] = useState<Plan | null>(null);
  const usage = useQuery({
    ...callQuery(planKey('GET', product, 'subscriptions_usage')),
  });
  const pending = useQuery({
    ...callQuery(planKey('GET', product, 'subscriptions/pending_company_subscription')),
  });
  const plans = useQuery({
    ...callQuery(planKey('GET', product, 'plans'), { query: { all: 'true' } }),
  });
  const teams = user.permissions.includes('plans.allocate');
  const enterprise = useQuery({
    ...callQuery(planKey('GET', product, 'plans/enterprise'), { query: { all: 'true' } }),
    enabled: teams,
  });
  const error = usage.error ?? plans.error ?? pending.error;
  if (usage.isLoading || plans.isLoading) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your plan" />
      </Center>
    );
  }
  const pendingSub = pending.data && isSubscription(pending.data.data) ? pending.data.data : null;
  // Texting itself has a gate of its own (spec §6: wallet on, Max Plus Premium): say so before anyone buys a plan.
  const textingClosed = product === 'sms' ? featureGateRefusal(subjectOf(user), 'sms_feature') : null;
  return (
    <Stack gap="md">
      {textingClosed && (
        <Alert color="yellow" title="You cannot send texts yet">
          {textingClosed} A texting plan or licence covers your messages once texting is open to you.
        </Alert>
      )}
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {usage.data && <MyMonth product={product} usage={usage.data} />}
      {pendingSub && (
        <Alert color="yellow" title="A company subscription is on its way">
          {pendingSub.plan.name} for {pendingSub.seats} seats: {subscriptionState(pendingSub).toLowerCase()}.
        </Alert>
      )}
      <section aria-labelledby="plans-on-sale">
        <Title order={2} size="h4" id="plans-on-sale" mb="sm">
          Plans
        </Title>
        {plans.data?.data.length ? (
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {plans.data.data.map((p) => (
              <PlanCard key={p.id} product={product} plan={p} onBuy={setBuying} />
            ))}
          </SimpleGrid>
        ) : (
          <Text c="dimmed">No plans are on sale yet. Your administrator adds them.</Text>
        )}
      </section>
      {teams && (enterprise.data?.data.length ?? 0) > 0 && (
        <section aria-labelledby="plans-for-teams">
          <Title order={2} size="h4" id="plans-for-teams" mb="sm">
            For teams and the company
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
            {enterprise.data!.data.map((p) => (
              <PlanCard key={p.id} product={product} plan={p} onBuy={setBuying} />
            ))}
          </SimpleGrid>
        </section>
      )}
      <SubscribeModal product={product} plan={buying} onClose={() => setBuying(null)} />
    </Stack>
  );
}
