/**
 * The dashboard's Medicare dates: the contacts turning 65 soonest (within 90 days) and those in Medigap open
 * enrollment now, five each, from the contacts list filtered by the date engine; each list links to the full one.
 */

import { type ContactListRow, medicareProfile } from '@harbor/shared';
import { Anchor, Card, Group, List, SimpleGrid, Text, Title } from '@mantine/core';
import { IconStethoscope } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { callQuery } from '../../api/queries';
import { dayLabel } from './calendarDates';

const LISTS = [
  {
    key: 'turning65',
    title: 'Turning 65 in the next 90 days',
    search: [{ field: 'turning_65_within', value: '90' }],
    to: '/contacts?turning_65_within=90&sort=date_of_birth',
    order: { order_field: 'date_of_birth', order: 'ASC' },
    empty: 'Nobody turns 65 in the next 90 days.',
  },
  {
    key: 'medigap',
    title: 'In Medigap open enrollment',
    search: [{ field: 'medigap_oe', value: 'true' }],
    to: '/contacts?medigap_oe=true',
    order: { order_field: 'last_name', order: 'ASC' },
    empty: 'Nobody is in Medigap open enrollment now.',
  },
] as const;

function when(key: string, c: ContactListRow): string {
  const p = c.date_of_birth ? medicareProfile({ dateOfBirth: c.date_of_birth }) : null;
  if (!p) return '';
  return key === 'turning65' ? `turns 65 ${dayLabel(p.turning65, { month: 'short', day: 'numeric' })}` : '';
}

function MedicareList({ list }: { list: (typeof LISTS)[number] }) {
  const q = useQuery({
    ...callQuery('PATCH /v1/contacts', { body: { search: [...list.search], limit: 5, ...list.order } }),
  });
  const rows = q.data?.data ?? [];
  return (
    <div>
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={600}>
          {list.title}
        </Text>
        <Anchor component={Link} to={list.to} size="xs">
          See all
        </Anchor>
      </Group>
      {q.isSuccess && rows.length === 0 && (
        <Text size="sm" c="dimmed">
          {list.empty}
        </Text>
      )}
      {q.isError && (
        <Text size="sm" c="dimmed">
          Could not load this list.
        </Text>
      )}
      <List size="sm" spacing={4}>
        {rows.map((c) => (
          <List.Item key={c.id}>
            <Anchor component={Link} to={`/contacts/${c.number}`}>
              {`${c.first_name} ${c.last_name}`.trim() || `Contact #${c.number}`}
            </Anchor>{' '}
            <Text span size="sm" c="dimmed">
              {when(list.key, c)}
            </Text>
          </List.Item>
        ))}
      </List>
    </div>
  );
}

export function MedicareDatesCard() {
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="medicare-dates">
      <Group gap="xs" mb="xs">
        <IconStethoscope size={18} aria-hidden />
        <Title order={2} size="h5" id="medicare-dates">
          Medicare dates
        </Title>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {LISTS.map((l) => (
          <MedicareList key={l.key} list={l} />
        ))}
      </SimpleGrid>
    </Card>
  );
}
