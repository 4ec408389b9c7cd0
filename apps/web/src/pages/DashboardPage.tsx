import { type BirthdayEntry, featureGateOpen, roleLabel } from '@harbor/shared';
import { Anchor, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconCake } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../auth/session';
import { PageHeading } from '../components/PageHeading';
import { subjectOf } from '../layout/nav';
import { MedicareDatesCard } from './calendar/MedicareDatesCard';
import { TodayQueue } from './calendar/TodayQueue';

/** "today", "tomorrow" or "in N days": when the birthday comes. */
export function whenLabel(daysUntil: number): string {
  if (daysUntil === 0) return 'today';
  if (daysUntil === 1) return 'tomorrow';
  return `in ${daysUntil} days`;
}

function BirthdayList({ title, entries, empty }: { title: string; entries: BirthdayEntry[]; empty: string }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Group gap="xs" mb="xs">
        <IconCake size={18} />
        <Title order={3} size="h5">
          {title}
        </Title>
      </Group>
      {entries.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <List size="sm" spacing={4}>
          {entries.map((e) => (
            <List.Item key={e.id}>
              <Anchor component={Link} to={`/contacts/${e.number}`}>
                {`${e.first_name} ${e.last_name}`.trim() || `Contact #${e.number}`}
              </Anchor>{' '}
              <Text span size="sm" c="dimmed">
                turns {e.turns} {whenLabel(e.days_until)}
              </Text>
            </List.Item>
          ))}
        </List>
      )}
    </Card>
  );
}

export function DashboardPage() {
  const user = useCurrentUser();
  const { clients, prospects } = user.dashboard_info.birthdays;
  return (
    <Stack gap="lg">
      <div>
        <PageHeading title="Dashboard">Welcome, {user.profile.first_name || user.username}</PageHeading>
        <Text c="dimmed">
          {user.company.name} · {roleLabel(user.profile.account_type, user.company.variant)}
        </Text>
      </div>
      {featureGateOpen(subjectOf(user), 'follow_ups') && <TodayQueue />}
      {featureGateOpen(subjectOf(user), 'medicare_center') && <MedicareDatesCard />}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <BirthdayList title="Client birthdays" entries={clients} empty="No client birthdays coming up." />
        <BirthdayList title="Prospect birthdays" entries={prospects} empty="No prospect birthdays coming up." />
      </SimpleGrid>
    </Stack>
  );
}
