import { ACCOUNT_PLAN_IDS, type AccountPlanId, formatUsd } from '@harbor/shared';
import { Alert, Anchor, Button, Card, Group, Loader, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { updatePlan } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { newIdempotencyKey } from '../../api/wallet';
import { ME_KEY } from '../../auth/userCache';
import { PageHeading } from '../../components/PageHeading';
import { ACCOUNT_KEY, cardLine, useAccountInfo } from './shared';

/** /billing/review?plan=: what will be charged to which card; paying waits for the processor, then lets them in. */
export function ReviewPlan() {
  const [params] = useSearchParams();
  const plan = params.get('plan');
  const info = useAccountInfo();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // One key per payment the person means to make: a second click or a retry is the same payment.
  const key = useRef(newIdempotencyKey());
  const pay = useMutation({
    mutationFn: () => updatePlan(plan as AccountPlanId, key.current),
    onSuccess: (data) => queryClient.setQueryData(ACCOUNT_KEY, data),
  });
  const status = info.data?.info.subscription?.status;
  const settled = pay.isSuccess && status !== 'pending';
  useEffect(() => {
    if (!settled || !info.data?.info.paid) return;
    // The current user now reads paid: refresh it, then into the app.
    void queryClient.invalidateQueries({ queryKey: ME_KEY }).then(() => navigate('/', { replace: true }));
  }, [settled, info.data?.info.paid, navigate, queryClient]);

  if (!plan || !(ACCOUNT_PLAN_IDS as readonly string[]).includes(plan)) return <Navigate to="/billing/plan" replace />;
  const chosen = info.data?.plans.find((p) => p.id === plan);
  const card = info.data?.payment_infos[0];
  const live = info.data?.info.subscription;
  const changing = live && ['active', 'cancelled'].includes(live.status);
  return (
    <Stack maw={560} gap="md">
      <PageHeading title="Review and pay" section="Billing" />
      {!info.data || !chosen ? (
        <Loader aria-label="Loading" />
      ) : (
        <Card withBorder padding="md">
          <Stack gap="xs">
            <Group justify="space-between">
              <Text fw={600}>{chosen.name} plan</Text>
              <Text fw={600}>{formatUsd(chosen.price)} a month</Text>
            </Group>
            <Text size="sm">
              {changing
                ? 'Your plan changes now and the new price applies from your next renewal. Nothing is charged today.'
                : `Charged today: ${formatUsd(chosen.price)}, then monthly until you cancel.`}
            </Text>
            <Text size="sm">
              Card: {card ? cardLine(card) : 'none yet'}{' '}
              <Anchor component={Link} to={`/billing/update?next=review&plan=${plan}`} size="sm">
                {card ? 'Use another card' : 'Add a card'}
              </Anchor>
            </Text>
          </Stack>
        </Card>
      )}
      {pay.isError && <Alert color="red">{errorMessage(pay.error)}</Alert>}
      {pay.isSuccess && status === 'pending' && (
        <Alert color="blue" icon={<Loader size="xs" />}>
          Waiting for the card processor to confirm the payment…
        </Alert>
      )}
      {settled && status === 'failed' && (
        <Alert color="red">{info.data?.info.subscription?.failure_message ?? 'The payment failed.'}</Alert>
      )}
      {settled && changing && <Alert color="green">Your plan is now {chosen?.name}.</Alert>}
      <Group>
        <Button
          onClick={() => pay.mutate()}
          loading={pay.isPending || (pay.isSuccess && status === 'pending')}
          disabled={!card || !chosen || (pay.isSuccess && status !== 'failed')}
        >
          {changing ? `Switch to ${chosen?.name ?? 'this plan'}` : `Pay ${formatUsd(chosen?.price)}`}
        </Button>
        <Button variant="default" component={Link} to={`/billing/plan?plan=${plan}`}>
          Back
        </Button>
      </Group>
    </Stack>
  );
}
