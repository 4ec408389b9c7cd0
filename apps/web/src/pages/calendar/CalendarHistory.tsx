/** What changed on the calendar (GET /v1/events/calendar_history), newest first, in a side panel. */

import { Alert, Button, Drawer, Group, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { dateTimeLabel } from './calendarDates';

const ACTION_LABELS: Record<string, string> = {
  created: 'Created',
  updated: 'Changed',
  moved: 'Moved',
  done: 'Marked done',
  reopened: 'Reopened',
  snoozed: 'Snoozed',
  deleted: 'Deleted',
};

const FIELD_LABELS: Record<string, string> = {
  start_at: 'start',
  end_at: 'end',
  snoozed_until: 'due',
  contact_id: 'contact',
  user_id: 'calendar',
  reminder_minutes: 'reminder',
  soa_exception: 'SOA exception',
};

export function CalendarHistoryDrawer({
  opened,
  onClose,
  downlineUserId,
  zone,
}: {
  opened: boolean;
  onClose: () => void;
  downlineUserId: number | null;
  zone: string;
}) {
  const [page, setPage] = useState(1);
  const history = useQuery({
    ...callQuery('GET /v1/events/calendar_history', { query: { downline_user_id: downlineUserId, page, limit: 25 } }),
    enabled: opened,
  });
  const meta = history.data?.meta;
  return (
    <Drawer opened={opened} onClose={onClose} title="Calendar history" position="right" size="md">
      {history.isPending && <Loader aria-label="Loading the history" />}
      {history.isError && (
        <Alert color="red" role="alert">
          {errorMessage(history.error)}
        </Alert>
      )}
      <Stack gap="sm" component="ol" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {(history.data?.data ?? []).map((h) => (
          <li key={h.id}>
            <Text size="sm" fw={600}>
              {ACTION_LABELS[h.action] ?? h.action}: {h.title}
            </Text>
            <Text size="xs" c="dimmed">
              {dateTimeLabel(h.created_at, zone)}
              {h.actor ? ` · by ${h.actor.name}` : ''}
            </Text>
            {h.action !== 'created' &&
              Object.entries(h.changes)
                .filter(([field]) => field !== 'done')
                .map(([field, c]) => (
                  <Text key={field} size="xs">
                    {FIELD_LABELS[field] ?? field.replace(/_/g, ' ')}: {show(c.from, zone)} → {show(c.to, zone)}
                  </Text>
                ))}
          </li>
        ))}
      </Stack>
      {history.data && history.data.data.length === 0 && <Text c="dimmed">Nothing has changed yet.</Text>}
      {meta && meta.total_pages > 1 && (
        <Group justify="space-between" mt="md">
          <Button variant="default" size="xs" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Newer
          </Button>
          <Text size="xs">
            Page {meta.current_page} of {meta.total_pages}
          </Text>
          <Button variant="default" size="xs" disabled={page >= meta.total_pages} onClick={() => setPage(page + 1)}>
            Older
          </Button>
        </Group>
      )}
    </Drawer>
  );
}

function show(v: unknown, zone: string): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(v)) return dateTimeLabel(v, zone);
  if (Array.isArray(v)) return v.join(', ') || '—';
  return String(v);
}
