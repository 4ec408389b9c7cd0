/**
 * The calendar's four views over one list of events: month (whole weeks), week and day (an hour grid), agenda (a
 * list by day). Every event is a button that opens it; an empty day or hour is a button that starts a new event
 * there. Events can be dragged to another day (month) or another quarter hour (week, day); the edit dialog does the
 * same from the keyboard.
 */
import { type CalendarEvent, EVENT_TYPE_LABELS, type IsoDate } from '@harbor/shared';
import { Box, Group, Paper, Stack, Text, UnstyledButton } from '@mantine/core';
import { type DragEvent, type ReactNode, useEffect, useRef } from 'react';
import classes from './calendar.module.css';
import { dayLabel, daysOf, localParts, timeLabel } from './calendarDates';

export const TYPE_COLORS: Record<string, string> = {
  appointment: 'blue',
  follow_up: 'teal',
  call_back: 'orange',
  birthday: 'pink',
  task: 'grape',
  meeting: 'indigo',
  reminder: 'yellow',
  other: 'gray',
};

export interface ViewProps {
  events: CalendarEvent[];
  zone: string;
  today: IsoDate;
  onOpen: (e: CalendarEvent) => void;
  /** A new event at this day (and minutes after midnight, in the hour grids). */
  onCreate: (day: IsoDate, minutes?: number) => void;
  /** Dropped on another day / time. */
  onMove: (e: CalendarEvent, day: IsoDate, minutes: number | null) => void;
}

const DRAG_TYPE = 'application/x-harbor-event';

function EventChip({
  e,
  zone,
  onOpen,
  compact,
}: {
  e: CalendarEvent;
  zone: string;
  onOpen: ViewProps['onOpen'];
  compact?: boolean;
}) {
  const color = TYPE_COLORS[e.type] ?? 'gray';
  const label = `${e.all_day ? 'All day' : timeLabel(e.start_at, zone)} ${e.title}`;
  return (
    <UnstyledButton
      className={classes.chip}
      data-done={e.done || undefined}
      data-compact={compact || undefined}
      style={
        {
          '--chip-color': `var(--mantine-color-${color}-light)`,
          '--chip-bar': `var(--mantine-color-${color}-filled)`,
        } as React.CSSProperties
      }
      onClick={(ev) => {
        ev.stopPropagation();
        onOpen(e);
      }}
      draggable
      onDragStart={(ev: DragEvent) => ev.dataTransfer.setData(DRAG_TYPE, String(e.id))}
      aria-label={`${label}, ${EVENT_TYPE_LABELS[e.type]}${e.contact ? ` with ${e.contact.name}` : ''}${e.done ? ', done' : ''}`}
    >
      <Text span size="xs" fw={600} className={classes.time}>
        {e.all_day ? '' : timeLabel(e.start_at, zone)}
      </Text>{' '}
      {compact ? (
        <Text span size="xs">
          {e.title}
        </Text>
      ) : (
        <Text span size="xs" lineClamp={2}>
          {e.title}
        </Text>
      )}
    </UnstyledButton>
  );
}

function droppedEvent(ev: DragEvent, events: CalendarEvent[]) {
  const id = Number(ev.dataTransfer.getData(DRAG_TYPE));
  return events.find((e) => e.id === id) ?? null;
}

const byDay = (events: CalendarEvent[], zone: string) => {
  const map = new Map<IsoDate, CalendarEvent[]>();
  for (const e of events) {
    const d = localParts(e.start_at, zone).date;
    map.set(d, [...(map.get(d) ?? []), e]);
  }
  return map;
};

export function MonthView({
  events,
  zone,
  today,
  onOpen,
  onCreate,
  onMove,
  start,
  end,
  month,
}: ViewProps & { start: IsoDate; end: IsoDate; month: number }) {
  const days = daysOf(start, end);
  const map = byDay(events, zone);
  return (
    <Box className={classes.month}>
      <table aria-label="Month">
        <thead>
          <tr>
            {days.slice(0, 7).map((d) => (
              <th key={d} scope="col">
                {dayLabel(d, { weekday: 'short' })}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {Array.from({ length: days.length / 7 }, (_, w) => (
            <tr key={days[w * 7]}>
              {days.slice(w * 7, w * 7 + 7).map((d) => {
                const list = map.get(d) ?? [];
                const other = Number(d.slice(5, 7)) !== month;
                return (
                  <td
                    key={d}
                    className={classes.cell}
                    data-other={other || undefined}
                    data-today={d === today || undefined}
                    aria-current={d === today ? 'date' : undefined}
                    {...dropTarget((e) => onMove(e, d, null), events)}
                  >
                    <UnstyledButton
                      className={classes.dayNumber}
                      onClick={() => onCreate(d)}
                      aria-label={`New event on ${dayLabel(d, { weekday: 'long', month: 'long', day: 'numeric' })}`}
                    >
                      {Number(d.slice(8))}
                    </UnstyledButton>
                    <Stack gap={2}>
                      {list.slice(0, 3).map((e) => (
                        <EventChip key={e.id} e={e} zone={zone} onOpen={onOpen} compact />
                      ))}
                      {list.length > 3 && (
                        <Text size="xs" c="dimmed">
                          +{list.length - 3} more
                        </Text>
                      )}
                    </Stack>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </Box>
  );
}

/**
 * Mouse drag-and-drop onto a day or an hour column. Keyboard and touch users move an event through its edit dialog
 * (the same change), so these handlers sit on layout elements rather than on controls of their own.
 */
function dropTarget(drop: (e: CalendarEvent, ev: DragEvent<HTMLElement>) => void, events: CalendarEvent[]) {
  return {
    onDragOver: (ev: DragEvent<HTMLElement>) => ev.preventDefault(),
    onDrop: (ev: DragEvent<HTMLElement>) => {
      const e = droppedEvent(ev, events);
      if (e) drop(e, ev);
    },
  };
}

const HOUR_PX = 48;

/**
 * Where each event of one day sits in its column: top and height by its times, and side by side with the events it
 * overlaps (each group of overlapping events shares the column's width).
 */
function layoutDay(list: CalendarEvent[], day: IsoDate, zone: string) {
  const placed = list
    .map((e) => {
      const s = localParts(e.start_at, zone);
      const en = localParts(e.end_at, zone);
      const start = e.all_day || s.date < day ? 0 : s.minutes;
      const end = e.all_day ? 30 : en.date > day ? 24 * 60 : Math.max(en.minutes, start + 15);
      return { e, start, end: Math.max(end, start + 30), col: 0, cols: 1 };
    })
    .sort((a, b) => a.start - b.start || b.end - a.end);
  let group: typeof placed = [];
  let groupEnd = -1;
  const close = () => {
    const cols = Math.max(1, ...group.map((p) => p.col + 1));
    for (const p of group) p.cols = cols;
    group = [];
  };
  for (const p of placed) {
    if (p.start >= groupEnd) {
      close();
      groupEnd = -1;
    }
    const taken = new Set(group.filter((q) => q.end > p.start).map((q) => q.col));
    while (taken.has(p.col)) p.col++;
    group.push(p);
    groupEnd = Math.max(groupEnd, p.end);
  }
  close();
  return placed.map((p) => ({
    e: p.e,
    top: (p.start / 60) * HOUR_PX,
    height: Math.max(22, ((p.end - p.start) / 60) * HOUR_PX - 2),
    left: (100 * p.col) / p.cols,
    width: 100 / p.cols,
  }));
}

export function TimeGridView({ events, zone, today, onOpen, onCreate, onMove, days }: ViewProps & { days: IsoDate[] }) {
  const map = byDay(events, zone);
  const hours = Array.from({ length: 24 }, (_, h) => h);
  const hourLabel = (h: number) =>
    new Intl.DateTimeFormat('en-US', { hour: 'numeric', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, 0, 1, h)));
  // Open on the working day (7 AM), or earlier when something is planned before it.
  const box = useRef<HTMLDivElement>(null);
  const earliest = Math.min(7 * 60, ...events.map((e) => (e.all_day ? 7 * 60 : localParts(e.start_at, zone).minutes)));
  const first = days[0];
  useEffect(() => {
    if (box.current && first) box.current.scrollTop = Math.max(0, (earliest / 60 - 0.5) * HOUR_PX);
  }, [first, earliest]);
  return (
    <Box className={classes.gridScroll} ref={box}>
      <div
        className={classes.gridHead}
        style={{ gridTemplateColumns: `56px repeat(${days.length}, minmax(96px, 1fr))` }}
      >
        <span />
        {days.map((d) => (
          <Text key={d} size="sm" fw={d === today ? 700 : 500} ta="center" c={d === today ? undefined : 'dimmed'}>
            {dayLabel(d)}
          </Text>
        ))}
      </div>
      <div className={classes.grid} style={{ gridTemplateColumns: `56px repeat(${days.length}, minmax(96px, 1fr))` }}>
        <div>
          {hours.map((h) => (
            <div key={h} className={classes.hourLabel} style={{ height: HOUR_PX }}>
              <Text size="xs" c="dimmed">
                {hourLabel(h)}
              </Text>
            </div>
          ))}
        </div>
        {days.map((d) => (
          <div
            key={d}
            className={classes.dayColumn}
            style={{ height: HOUR_PX * 24 }}
            {...dropTarget((e, ev) => {
              const rect = ev.currentTarget.getBoundingClientRect();
              const quarters = Math.round(((ev.clientY - rect.top) / HOUR_PX) * 4);
              onMove(e, d, Math.max(0, Math.min(24 * 60 - 15, quarters * 15)));
            }, events)}
          >
            {hours.map((h) => (
              <UnstyledButton
                key={h}
                className={classes.slot}
                style={{ top: h * HOUR_PX, height: HOUR_PX }}
                onClick={() => onCreate(d, h * 60)}
                aria-label={`New event on ${dayLabel(d, { weekday: 'long', month: 'long', day: 'numeric' })} at ${hourLabel(h)}`}
              />
            ))}
            {layoutDay(map.get(d) ?? [], d, zone).map(({ e, top, height, left, width }) => (
              <div
                key={e.id}
                className={classes.placed}
                style={{ top, height, left: `calc(${left}% + 2px)`, width: `calc(${width}% - 4px)` }}
              >
                <EventChip e={e} zone={zone} onOpen={onOpen} compact={height < 40} />
              </div>
            ))}
          </div>
        ))}
      </div>
    </Box>
  );
}

export function AgendaView({ events, zone, today, onOpen, onCreate, days }: ViewProps & { days: IsoDate[] }) {
  const map = byDay(events, zone);
  const withEvents = days.filter((d) => map.has(d));
  if (!withEvents.length) {
    return (
      <Paper withBorder p="lg">
        <Text c="dimmed">Nothing planned in these two weeks.</Text>
      </Paper>
    );
  }
  return (
    <Stack gap="sm">
      {withEvents.map((d) => (
        <Paper
          key={d}
          withBorder
          p="sm"
          component="section"
          aria-label={dayLabel(d, { weekday: 'long', month: 'long', day: 'numeric' })}
        >
          <Group justify="space-between" mb={4}>
            <Text fw={600} size="sm">
              {d === today ? 'Today · ' : ''}
              {dayLabel(d, { weekday: 'long', month: 'long', day: 'numeric' })}
            </Text>
            <UnstyledButton onClick={() => onCreate(d)} className={classes.link}>
              <Text size="xs">Add</Text>
            </UnstyledButton>
          </Group>
          <Stack gap={4}>
            {(map.get(d) ?? []).map((e) => (
              <AgendaRow key={e.id} e={e} zone={zone} onOpen={onOpen} />
            ))}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

function AgendaRow({ e, zone, onOpen }: { e: CalendarEvent; zone: string; onOpen: ViewProps['onOpen'] }): ReactNode {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <Box style={{ flex: 1, minWidth: 0 }}>
        <EventChip e={e} zone={zone} onOpen={onOpen} />
        {e.contact && (
          <Text size="xs" c="dimmed">
            {EVENT_TYPE_LABELS[e.type]} · {e.contact.name}
          </Text>
        )}
      </Box>
    </Group>
  );
}
