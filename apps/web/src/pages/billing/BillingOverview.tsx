import { CHARGE_STATUS_LABELS, formatUsd } from '@harbor/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  Modal,
  Pagination,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconCreditCard, IconInfoCircle } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { cancelAccountPlan } from '../../api/billing';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { RecordTable } from '../../components/RecordTable';
import { ACCOUNT_KEY, cardLine, longDate, useAccountInfo } from './shared';

const STATUS_TEXT: Record<string, string> = {
  pending: 'Payment in progress',
  active: 'Active',
  cancelled: 'Cancelled',
  failed: 'Payment failed',
  ended: 'Ended',
};

export function BillingOverview() {
  const user = useCurrentUser();
  const info = useAccountInfo();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const history = useQuery({
    ...callQuery('GET /v1/accounts/history', { query: { page, limit: 10 } }),
    placeholderData: keepPreviousData,
  });
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const cancel = useMutation({
    mutationFn: cancelAccountPlan,
    onSuccess: (data) => {
      queryClient.setQueryData(ACCOUNT_KEY, data);
      setConfirming(false);
    },
  });
  const data = info.data;
  const sub = data?.info.subscription;
  const live = sub && ['pending', 'active', 'cancelled'].includes(sub.status) ? sub : null;
  const card = data?.payment_infos[0];
  const paid = data ? data.info.paid : user['paid_user?'];

  return (
    <Stack maw={880} gap="md">
      <PageHeading title="Billing" />
      {!paid && (
        <Alert color="yellow" icon={<IconInfoCircle />} title="Your account is not active">
          Choose a plan and pay by card to use Harbor at {user.company.name}. Your company admin can also activate your
          account.
        </Alert>
      )}
      {info.isError && <Alert color="red">{errorMessage(info.error)}</Alert>}
      {!data ? (
        <Loader aria-label="Loading billing" />
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Card withBorder padding="md">
            <Stack gap="xs">
              <Title order={2} size="h4">
                Plan
              </Title>
              {live ? (
                <>
                  <Group gap="xs">
                    <Text fw={600}>{live.plan_name}</Text>
                    <Badge color={live.status === 'active' ? 'green' : 'gray'}>{STATUS_TEXT[live.status]}</Badge>
                  </Group>
                  <Text size="sm">{formatUsd(live.price)} a month</Text>
                  {live.current_period_end && (
                    <Text size="sm">
                      {live.status === 'cancelled' ? 'Ends on' : 'Renews on'} {longDate(live.current_period_end)}
                    </Text>
                  )}
                </>
              ) : (
                <Text size="sm">
                  {sub?.status === 'failed'
                    ? `Your last payment failed: ${sub.failure_message}`
                    : 'You have no plan yet.'}
                </Text>
              )}
              <Group gap="xs" mt="xs">
                <Button component={Link} to="/billing/plan" size="sm">
                  {live ? 'Change plan' : 'Choose a plan'}
                </Button>
                {live?.status === 'active' && (
                  <Button variant="default" size="sm" onClick={() => setConfirming(true)}>
                    Cancel plan
                  </Button>
                )}
              </Group>
            </Stack>
          </Card>
          <Card withBorder padding="md">
            <Stack gap="xs">
              <Title order={2} size="h4">
                Card on file
              </Title>
              <Group gap="xs" wrap="nowrap">
                <IconCreditCard aria-hidden size={20} />
                <Text size="sm">{card ? cardLine(card) : 'No card yet.'}</Text>
              </Group>
              <Anchor component={Link} to="/billing/update" size="sm">
                {card ? 'Update card' : 'Add a card'}
              </Anchor>
            </Stack>
          </Card>
        </SimpleGrid>
      )}
      <Title order={2} size="h4">
        Billing history
      </Title>
      {history.data && history.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No charges yet. Plan, Max Plus and store payments appear here.
        </Text>
      ) : (
        history.data && (
          <RecordTable
            label="Billing history"
            minWidth={640}
            rows={history.data.data}
            rowKey={(r) => r.id}
            columns={[
              { header: 'Date', cell: (r) => longDate(r.created_at) },
              { header: 'Description', cell: (r) => r.description },
              { header: 'Card', cell: (r) => (r.card_last4 ? `•••• ${r.card_last4}` : 'N/A') },
              { header: 'Amount', cell: (r) => formatUsd(r.amount) },
              {
                header: 'Status',
                cell: (r) =>
                  r.refunded_amount > 0
                    ? `${CHARGE_STATUS_LABELS[r.status]} (${formatUsd(r.refunded_amount)} back)`
                    : CHARGE_STATUS_LABELS[r.status],
              },
            ]}
          />
        )
      )}
      {history.data && history.data.meta.total_pages > 1 && (
        <Pagination
          total={history.data.meta.total_pages}
          value={page}
          onChange={(p) => setParams({ page: String(p) })}
          getControlProps={(c) => ({ 'aria-label': `${c} page` })}
        />
      )}
      <Text size="sm">
        Add-ons:{' '}
        <Anchor component={Link} to="/max-plus">
          Max Plus
        </Anchor>
        ,{' '}
        <Anchor component={Link} to="/store">
          the store
        </Anchor>
        . You can also update your account in your{' '}
        <Anchor component={Link} to="/account/profile">
          profile
        </Anchor>
        .
      </Text>
      <Modal opened={confirming} onClose={() => setConfirming(false)} title="Cancel your plan?">
        <Stack gap="sm">
          <Text size="sm">
            Your plan stays active until {longDate(live?.current_period_end ?? null)} and is not charged again. After
            that your account is paused until you choose a plan again.
          </Text>
          {cancel.isError && <Alert color="red">{errorMessage(cancel.error)}</Alert>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Keep my plan
            </Button>
            <Button color="red" loading={cancel.isPending} onClick={() => cancel.mutate()}>
              Cancel plan
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
