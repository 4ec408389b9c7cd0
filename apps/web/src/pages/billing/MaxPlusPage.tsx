/**
 * /max-plus: one's own Max Plus (subscribe on the card on file, cancel), and for managers their team's (bulk
 * subscribe by name, cancel for one). The current user is refreshed after each change (spec 2 §4).
 */

import { can, formatUsd, MAX_PLUS_PLAN_INFO, MAX_PLUS_PLANS, type MaxPlusPlan } from '@harbor/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Checkbox,
  Group,
  List,
  Loader,
  Modal,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { maxPlusBulk, maxPlusCancel, maxPlusCancelFor, maxPlusSubscribe } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { newIdempotencyKey } from '../../api/wallet';
import { useCurrentUser } from '../../auth/session';
import { ME_KEY } from '../../auth/userCache';
import { PageHeading } from '../../components/PageHeading';
import { RecordTable } from '../../components/RecordTable';
import { subjectOf } from '../../layout/nav';
import { useAccountInfo } from './shared';

export function MaxPlusPage() {
  const user = useCurrentUser();
  const queryClient = useQueryClient();
  const info = useAccountInfo();
  const mine = user.max_plus_subscription;
  const [waiting, setWaiting] = useState(false);
  const key = useRef(newIdempotencyKey());
  const refreshMe = () => queryClient.invalidateQueries({ queryKey: ME_KEY });
  // Subscribing waits for the processor: the current user is read again until it shows the subscription.
  useEffect(() => {
    if (!waiting) return;
    if (mine.active) return setWaiting(false);
    const timer = setInterval(() => void refreshMe(), 800);
    return () => clearInterval(timer);
  });
  const subscribe = useMutation({
    mutationFn: (plan: MaxPlusPlan) => maxPlusSubscribe(plan, key.current),
    onSuccess: () => {
      key.current = newIdempotencyKey();
      setWaiting(true);
    },
  });
  const [confirm, setConfirm] = useState(false);
  const cancel = useMutation({
    mutationFn: maxPlusCancel,
    onSuccess: async () => {
      setConfirm(false);
      await refreshMe();
    },
  });
  const hasCard = (info.data?.payment_infos.length ?? 0) > 0;
  return (
    <Stack maw={960} gap="md">
      <PageHeading title="Max Plus" />
      {mine.active ? (
        <Card withBorder padding="md">
          <Group justify="space-between">
            <Group gap="xs">
              <Text fw={600}>{MAX_PLUS_PLAN_INFO[mine.plan as MaxPlusPlan]?.label ?? mine.plan}</Text>
              <Badge color="green">Active</Badge>
            </Group>
            <Button variant="default" onClick={() => setConfirm(true)}>
              Cancel Max Plus
            </Button>
          </Group>
        </Card>
      ) : (
        <>
          {!hasCard && info.data && (
            <Alert color="blue">
              Max Plus is paid by credit card.{' '}
              <Anchor component={Link} to="/billing/update">
                Add a card
              </Anchor>{' '}
              first.
            </Alert>
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {MAX_PLUS_PLANS.map((p) => (
              <Card key={p} withBorder padding="md">
                <Stack gap="xs">
                  <Text fw={600}>{MAX_PLUS_PLAN_INFO[p].label}</Text>
                  <Text size="lg" fw={700}>
                    {formatUsd(MAX_PLUS_PLAN_INFO[p].price)} a month
                  </Text>
                  <List size="sm" spacing={4}>
                    {MAX_PLUS_PLAN_INFO[p].features.map((f) => (
                      <List.Item key={f}>{f}</List.Item>
                    ))}
                  </List>
                  <Button
                    onClick={() => subscribe.mutate(p)}
                    disabled={!hasCard || waiting}
                    loading={
                      (subscribe.isPending && subscribe.variables === p) || (waiting && subscribe.variables === p)
                    }
                    // The visible text first (WCAG label in name), then which plan it buys.
                    aria-label={`Subscribe for ${formatUsd(MAX_PLUS_PLAN_INFO[p].price)} to ${MAX_PLUS_PLAN_INFO[p].label}`}
                  >
                    Subscribe for {formatUsd(MAX_PLUS_PLAN_INFO[p].price)}
                  </Button>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </>
      )}
      {subscribe.isError && <Alert color="red">{errorMessage(subscribe.error)}</Alert>}
      {can(subjectOf(user), 'max_plus.manage') && <TeamMaxPlus onChange={refreshMe} />}
      <Modal opened={confirm} onClose={() => setConfirm(false)} title="Cancel Max Plus?">
        <Stack gap="sm">
          <Text size="sm">Max Plus ends now and is not charged again. This month is not refunded.</Text>
          {cancel.isError && <Alert color="red">{errorMessage(cancel.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(false)}>
              Keep Max Plus
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel Max Plus
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}

function TeamMaxPlus({ onChange }: { onChange: () => void }) {
  const team = useQuery({
    ...callQuery('GET /v1/max_plus_subscriptions/manageable_users'),
    // A bulk subscription is active only once the processor's webhook lands, which may be after the first refetch.
    refetchInterval: (q) =>
      q.state.data?.data.some((r) => r.max_plus_subscription.status === 'pending') ? 1000 : false,
  });
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [plan, setPlan] = useState<MaxPlusPlan>('standard');
  const key = useRef(newIdempotencyKey());
  const refetch = () => {
    void team.refetch();
    onChange();
  };
  const bulk = useMutation({
    mutationFn: () => maxPlusBulk([...chosen], plan, key.current),
    onSuccess: () => {
      key.current = newIdempotencyKey();
      setChosen(new Set());
      setTimeout(refetch, 1200);
    },
  });
  const cancelFor = useMutation({ mutationFn: maxPlusCancelFor, onSuccess: refetch });
  const toggle = (id: number) =>
    setChosen((s) => {
      const n = new Set(s);
      if (n.has(id)) n.delete(id);
      else n.add(id);
      return n;
    });
  const rows = team.data?.data ?? [];
  return (
    <Stack gap="sm">
      <Title order={2} size="h4">
        Your team
      </Title>
      {team.isLoading && <Loader aria-label="Loading your team" />}
      {team.data && rows.length === 0 && <Text c="dimmed">Nobody reports to you yet.</Text>}
      {rows.length > 0 && (
        <>
          <RecordTable
            label="Team Max Plus"
            minWidth={620}
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              {
                header: 'Choose',
                cell: (r) => (
                  <Checkbox
                    aria-label={`Choose ${r.name}`}
                    checked={chosen.has(r.id)}
                    disabled={r.max_plus_subscription.active}
                    onChange={() => toggle(r.id)}
                  />
                ),
              },
              { header: 'Name', cell: (r) => r.name },
              {
                header: 'Max Plus',
                cell: (r) =>
                  r.max_plus_subscription.active
                    ? MAX_PLUS_PLAN_INFO[r.max_plus_subscription.plan as MaxPlusPlan]?.label
                    : r.max_plus_subscription.status === 'pending'
                      ? 'Payment in progress'
                      : 'None',
              },
              {
                header: 'Action',
                cell: (r) =>
                  r.max_plus_subscription.active ? (
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() => cancelFor.mutate(r.id)}
                      aria-label={`Cancel Max Plus for ${r.name}`}
                    >
                      Cancel
                    </Button>
                  ) : null,
              },
            ]}
          />
          <Group align="end" wrap="wrap">
            <SegmentedControl
              aria-label="Plan for the people chosen"
              value={plan}
              onChange={(v) => setPlan(v as MaxPlusPlan)}
              data={MAX_PLUS_PLANS.map((p) => ({ value: p, label: MAX_PLUS_PLAN_INFO[p].label }))}
            />
            <Button disabled={chosen.size === 0} loading={bulk.isPending} onClick={() => bulk.mutate()}>
              {chosen.size === 0
                ? 'Choose people to subscribe'
                : `Subscribe ${chosen.size} for ${formatUsd(MAX_PLUS_PLAN_INFO[plan].price * chosen.size)} on your card`}
            </Button>
          </Group>
        </>
      )}
      {bulk.isError && <Alert color="red">{errorMessage(bulk.error)}</Alert>}
      {cancelFor.isError && <Alert color="red">{errorMessage(cancelFor.error)}</Alert>}
    </Stack>
  );
}
