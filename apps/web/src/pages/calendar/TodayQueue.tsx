/**
 * The dashboard's follow-up queue (GET /v1/events with today_events): today's open items, overdue ones first, each
 * done or snoozed in one click. Only for people who have follow-ups (not basic users, not with the flag off).
 */

import { addDays, type CalendarEvent, EVENT_TYPE_LABELS, toUsDate } from '@harbor/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Loader,
  Menu,
  Stack,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconAlarmSnooze, IconCalendarEvent, IconCheck } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { updateEvent } from '../../api/events';
import { callQuery, qkUnder } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { atMinutes, dateTimeLabel, timeLabel, todayIn, zoneOf } from './calendarDates';

export function TodayQueue() {
  const zone = zoneOf(useCurrentUser());
  const today = todayIn(zone);
  const qc = useQueryClient();
  const queue = useQuery({
    ...callQuery('GET /v1/events', {
      query: { start_date: toUsDate(today), end_date: toUsDate(today), today_events: true },
    }),
  });
  const change = useMutation({
    mutationFn: ({ e, body }: { e: CalendarEvent; body: { done?: boolean; snoozed_until?: string } }) =>
      updateEvent(e.id, body),
    onSuccess: (e, { body }) => {
      notifications.show({
        color: 'green',
        message: body.done ? `Done: ${e.title}` : `Snoozed until ${dateTimeLabel(e.due_at, zone)}: ${e.title}`,
      });
      return qc.invalidateQueries(qkUnder('/v1/events'));
    },
    onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
  });
  const snoozes = [
    { label: '1 hour', at: () => new Date(Date.now() + 3_600_000).toISOString() },
    { label: '3 hours', at: () => new Date(Date.now() + 3 * 3_600_000).toISOString() },
    { label: 'Tomorrow 9 AM', at: () => atMinutes(addDays(today, 1), 9 * 60, zone) },
  ];
  const items = queue.data?.data ?? [];
  return (
    <Card withBorder padding="md" component="section" aria-labelledby="today-queue">
      <Group justify="space-between" mb="xs">
        <Group gap="xs">
          <IconCalendarEvent size={18} aria-hidden />
          <Title order={2} size="h5" id="today-queue">
            Today&apos;s follow-ups
          </Title>
        </Group>
        <Anchor component={Link} to="/calendar?view=agenda" size="sm">
          Open calendar
        </Anchor>
      </Group>
      {queue.isPending && <Loader size="sm" aria-label="Loading today's follow-ups" />}
      {queue.isError && (
        <Alert color="red" role="alert">
          {errorMessage(queue.error)}
        </Alert>
      )}
      {queue.isSuccess && items.length === 0 && (
        <Text size="sm" c="dimmed">
          Nothing due today. Well done.
        </Text>
      )}
      <Stack gap={6} component="ul" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {items.map((e) => (
          <Group key={e.id} component="li" justify="space-between" wrap="nowrap" gap="xs">
            <div style={{ minWidth: 0 }}>
              <Group gap={6} wrap="nowrap">
                {e.overdue && (
                  <Badge color="red" variant="light" size="sm">
                    Overdue
                  </Badge>
                )}
                <Text size="sm" fw={500} truncate>
                  {e.title}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {e.overdue ? dateTimeLabel(e.due_at, zone) : timeLabel(e.due_at, zone)} · {EVENT_TYPE_LABELS[e.type]}
                {e.contact && (
                  <>
                    {' · '}
                    <Anchor component={Link} to={`/contacts/${e.contact.number}`} size="xs">
                      {e.contact.name}
                    </Anchor>
                  </>
                )}
              </Text>
            </div>
            <Group gap={4} wrap="nowrap">
              <Tooltip label="Mark done">
                <ActionIcon
                  variant="light"
                  color="green"
                  aria-label={`Mark ${e.title} done`}
                  onClick={() => change.mutate({ e, body: { done: true } })}
                >
                  <IconCheck size={16} aria-hidden />
                </ActionIcon>
              </Tooltip>
              <Menu position="bottom-end">
                <Menu.Target>
                  <ActionIcon variant="light" aria-label={`Snooze ${e.title}`}>
                    <IconAlarmSnooze size={16} aria-hidden />
                  </ActionIcon>
                </Menu.Target>
                <Menu.Dropdown>
                  <Menu.Label>Snooze for</Menu.Label>
                  {snoozes.map((s) => (
                    <Menu.Item key={s.label} onClick={() => change.mutate({ e, body: { snoozed_until: s.at() } })}>
                      {s.label}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
