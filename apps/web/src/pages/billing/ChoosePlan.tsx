import { ACCOUNT_PLAN_IDS, type AccountPlanId, formatUsd } from '@harbor/shared';
import { Button, Card, Group, List, Loader, Radio, SimpleGrid, Stack, Text } from '@mantine/core';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { PageHeading } from '../../components/PageHeading';
import { useAccountInfo } from './shared';

/** /billing/plan: the plans side by side; the choice lives in the address (?plan=). */
export function ChoosePlan() {
  const info = useAccountInfo();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const fromUrl = params.get('plan');
  const current = info.data?.chosen_plan ?? null;
  const chosen = (ACCOUNT_PLAN_IDS as readonly string[]).includes(fromUrl ?? '')
    ? (fromUrl as AccountPlanId)
    : (current ?? 'professional');
  const next = () => {
    const hasCard = (info.data?.payment_infos.length ?? 0) > 0;
    navigate(hasCard ? `/billing/review?plan=${chosen}` : `/billing/update?next=review&plan=${chosen}`);
  };
  return (
    <Stack maw={960} gap="md">
      <PageHeading title="Choose a plan" section="Billing" />
      {!info.data ? (
        <Loader aria-label="Loading plans" />
      ) : (
        <Radio.Group
          value={chosen}
          onChange={(v) => setParams({ plan: v }, { replace: true })}
          label="Plans"
          description="Billed monthly by card. Cancel at any time; the plan then runs to the end of the paid month."
        >
          <SimpleGrid cols={{ base: 1, sm: 3 }} mt="sm">
            {info.data.plans.map((p) => (
              <Card key={p.id} withBorder padding="md">
                <Stack gap="xs">
                  <Group justify="space-between" wrap="nowrap">
                    <Radio value={p.id} label={<Text fw={600}>{p.name}</Text>} />
                    {current === p.id && <Text size="xs">Current plan</Text>}
                  </Group>
                  <Text size="xl" fw={700}>
                    {formatUsd(p.price)}
                    <Text span size="sm" fw={400}>
                      {' '}
                      a month
                    </Text>
                  </Text>
                  <List size="sm" spacing={4}>
                    {p.features.map((f) => (
                      <List.Item key={f}>{f}</List.Item>
                    ))}
                  </List>
                </Stack>
              </Card>
            ))}
          </SimpleGrid>
        </Radio.Group>
      )}
      <Group>
        <Button onClick={next} disabled={!info.data || chosen === current}>
          Continue
        </Button>
        <Button variant="default" component={Link} to="/billing">
          Back to billing
        </Button>
      </Group>
    </Stack>
  );
}
