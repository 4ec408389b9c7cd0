/**
 * /calendar: the user's events, or a downline user's for a manager, as a day, week, month or agenda. The view, day,
 * person, types and search live in the address, so Back and a bookmark return to the same calendar. Times are in
 * the user's time zone (their profile), whatever the browser's.
 */

import { addDays, type CalendarEvent, EVENT_TYPE_LABELS, EVENT_TYPES, type IsoDate, isIsoDate } from '@harbor/shared';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  MultiSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronLeft, IconChevronRight, IconHistory, IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { updateEvent } from '../../api/events';
import { callQuery, qkUnder } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { mayPickOwners, OwnerSelect } from '../../components/pickers';
import { CalendarHistoryDrawer } from './CalendarHistory';
import { AgendaView, MonthView, TimeGridView } from './CalendarViews';
import {
  atMinutes,
  CALENDAR_VIEWS,
  type CalendarView,
  daysOf,
  localParts,
  nextQuarterHour,
  rangeTitle,
  stepAnchor,
  todayIn,
  viewRange,
  wireRange,
  zoneOf,
} from './calendarDates';
import { type EventDefaults, EventModal } from './EventModal';

const VIEWS = new Set(CALENDAR_VIEWS.map((v) => v.value));

export function CalendarPage() {
  const user = useCurrentUser();
  const zone = zoneOf(user);
  const today = todayIn(zone);
  const qc = useQueryClient();
  const [params, setParams] = useSearchParams();
  const view = (VIEWS.has(params.get('view') as CalendarView) ? params.get('view') : 'week') as CalendarView;
  const anchor: IsoDate = isIsoDate(params.get('date') ?? '') ? (params.get('date') as IsoDate) : today;
  const downline = Number(params.get('user')) || null;
  const types = (params.get('types') ?? '').split(',').filter(Boolean);
  const q = params.get('q') ?? '';
  const set = (next: Record<string, string | null>) => {
    const p = new URLSearchParams(params);
    for (const [k, v] of Object.entries(next)) {
      if (v) p.set(k, v);
      else p.delete(k);
    }
    setParams(p, { replace: false });
  };

  const range = viewRange(view, anchor);
  const events = useQuery({
    ...callQuery('GET /v1/events', {
      query: {
        ...wireRange(range),
        downline_user_id: downline,
        types_list: types.join(',') || undefined,
        q: q || undefined,
      },
    }),
    placeholderData: keepPreviousData,
  });
  const refresh = () => qc.invalidateQueries(qkUnder('/v1/events'));

  const [editing, setEditing] = useState<CalendarEvent | null>(null);
  const [creating, setCreating] = useState<EventDefaults | null>(null);
  const [history, setHistory] = useState(false);
  const startNew = (day?: IsoDate, minutes?: number) => {
    const start =
      day === undefined
        ? nextQuarterHour()
        : atMinutes(day, minutes ?? (day === today ? localParts(nextQuarterHour(), zone).minutes : 9 * 60), zone);
    setCreating({
      start_at: start,
      end_at: new Date(new Date(start).getTime() + 30 * 60_000).toISOString(),
      user_id: downline ?? undefined,
    });
  };
  const move = useMutation({
    mutationFn: ({ e, day, minutes }: { e: CalendarEvent; day: IsoDate; minutes: number | null }) => {
      const length = new Date(e.end_at).getTime() - new Date(e.start_at).getTime();
      const start = atMinutes(day, minutes ?? localParts(e.start_at, zone).minutes, zone);
      return updateEvent(e.id, { start_at: start, end_at: new Date(new Date(start).getTime() + length).toISOString() });
    },
    onSuccess: () => refresh(),
    onError: (error) => notifications.show({ color: 'red', title: 'Not moved', message: errorMessage(error) }),
  });

  const props = {
    events: events.data?.data ?? [],
    zone,
    today,
    onOpen: setEditing,
    onCreate: startNew,
    onMove: (e: CalendarEvent, day: IsoDate, minutes: number | null) => move.mutate({ e, day, minutes }),
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <PageHeading title="Calendar" />
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconHistory size={16} aria-hidden />}
            onClick={() => setHistory(true)}
          >
            History
          </Button>
          <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => startNew()}>
            New event
          </Button>
        </Group>
      </Group>
      <Group gap="sm" justify="space-between" align="flex-end">
        <Group gap="xs" wrap="nowrap">
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Previous"
            onClick={() => set({ date: stepAnchor(view, anchor, -1) })}
          >
            <IconChevronLeft size={18} aria-hidden />
          </ActionIcon>
          <Button variant="default" onClick={() => set({ date: null })} style={{ flexShrink: 0 }}>
            Today
          </Button>
          <ActionIcon
            variant="default"
            size="lg"
            aria-label="Next"
            onClick={() => set({ date: stepAnchor(view, anchor, 1) })}
          >
            <IconChevronRight size={18} aria-hidden />
          </ActionIcon>
        </Group>
        <Title order={2} size="h4" aria-live="polite" style={{ flex: 1, minWidth: 200 }}>
          {rangeTitle(view, anchor)}
        </Title>
        <SegmentedControl
          aria-label="View"
          value={view}
          onChange={(v) => set({ view: v === 'week' ? null : v })}
          data={CALENDAR_VIEWS}
        />
      </Group>
      <Group gap="sm" align="flex-end">
        <SearchBox value={q} onCommit={(v) => set({ q: v || null })} />
        <MultiSelect
          label="Types"
          placeholder={types.length ? undefined : 'All types'}
          clearable
          data={EVENT_TYPES.map((t) => ({ value: t, label: EVENT_TYPE_LABELS[t] }))}
          value={types}
          onChange={(v) => set({ types: v.join(',') || null })}
          w={{ base: '100%', xs: 260 }}
        />
        {mayPickOwners(user) && (
          <OwnerSelect
            label="Calendar of"
            placeholder="My calendar"
            value={downline}
            onChange={(id) => set({ user: id && id !== user.id ? String(id) : null })}
            w={{ base: '100%', xs: 260 }}
          />
        )}
      </Group>
      {events.isError && (
        <Alert color="red" role="alert">
          {errorMessage(events.error, 'The calendar could not be loaded.')}
        </Alert>
      )}
      {events.isPending ? (
        <Loader aria-label="Loading the calendar" />
      ) : (
        <>
          {events.data?.meta.truncated && (
            <Text size="sm" c="dimmed">
              Showing the first {events.data.meta.count} events; narrow the types or the search to see the rest.
            </Text>
          )}
          {view === 'month' && (
            <MonthView {...props} start={range.start} end={range.end} month={Number(anchor.slice(5, 7))} />
          )}
          {(view === 'week' || view === 'day') && <TimeGridView {...props} days={daysOf(range.start, range.end)} />}
          {view === 'agenda' && <AgendaView {...props} days={daysOf(range.start, addDays(range.end, 0))} />}
        </>
      )}
      <EventModal
        opened={editing !== null || creating !== null}
        event={editing}
        defaults={creating ?? undefined}
        onClose={() => {
          setEditing(null);
          setCreating(null);
        }}
        onSaved={refresh}
      />
      <CalendarHistoryDrawer opened={history} onClose={() => setHistory(false)} downlineUserId={downline} zone={zone} />
    </Stack>
  );
}

/** The search applies when the person presses Enter or leaves the box. */
function SearchBox({ value, onCommit }: { value: string; onCommit: (v: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => draft.trim() !== value && onCommit(draft.trim());
  return (
    <TextInput
      label="Search events"
      placeholder="Title, place, notes or contact"
      leftSection={<IconSearch size={16} aria-hidden />}
      value={draft}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
      w={{ base: '100%', xs: 280 }}
    />
  );
}
