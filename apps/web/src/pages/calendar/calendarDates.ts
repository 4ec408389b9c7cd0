/**
 * Dates of the calendar screens, always in the user's time zone (their profile's est, cst, ...), never the
 * browser's: the days a view spans, where an event sits in a day, and the datetime-local form of an instant.
 */
import {
  addDays,
  addMonths,
  type CurrentUser,
  DEFAULT_TIME_ZONE,
  dateInZone,
  firstOfMonth,
  type IsoDate,
  lastOfMonth,
  offsetMs,
  parts,
  TIME_ZONE_IANA,
  type TimeZone,
  toUsDate,
  zonedTimeToUtc,
} from '@harbor/shared';

export type CalendarView = 'day' | 'week' | 'month' | 'agenda';
export const CALENDAR_VIEWS: Array<{ value: CalendarView; label: string }> = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
  { value: 'agenda', label: 'Agenda' },
];
/** Days the agenda lists from its first day. */
export const AGENDA_DAYS = 14;

export const zoneOf = (user: Pick<CurrentUser, 'timezone'>) =>
  TIME_ZONE_IANA[(user.timezone as TimeZone) ?? DEFAULT_TIME_ZONE] ?? TIME_ZONE_IANA.est;

export const todayIn = (zone: string) => dateInZone(new Date(), zone);

/** 0 = Sunday. */
export const weekday = (d: IsoDate) => {
  const { y, m, d: day } = parts(d);
  return new Date(Date.UTC(y, m - 1, day)).getUTCDay();
};
export const startOfWeek = (d: IsoDate) => addDays(d, -weekday(d));

/** The days a view shows around `anchor` (a month shows whole weeks). */
export function viewRange(view: CalendarView, anchor: IsoDate): { start: IsoDate; end: IsoDate } {
  switch (view) {
    case 'day':
      return { start: anchor, end: anchor };
    case 'week':
      return { start: startOfWeek(anchor), end: addDays(startOfWeek(anchor), 6) };
    case 'agenda':
      return { start: anchor, end: addDays(anchor, AGENDA_DAYS - 1) };
    case 'month': {
      const last = lastOfMonth(anchor);
      return { start: startOfWeek(firstOfMonth(anchor)), end: addDays(last, 6 - weekday(last)) };
    }
  }
}

/** The anchor one step back or forward. */
export function stepAnchor(view: CalendarView, anchor: IsoDate, dir: 1 | -1): IsoDate {
  if (view === 'month') return addMonths(firstOfMonth(anchor), dir);
  if (view === 'week') return addDays(anchor, 7 * dir);
  if (view === 'agenda') return addDays(anchor, AGENDA_DAYS * dir);
  return addDays(anchor, dir);
}

export function daysOf(start: IsoDate, end: IsoDate): IsoDate[] {
  const out: IsoDate[] = [];
  for (let d = start; d <= end; d = addDays(d, 1)) out.push(d);
  return out;
}

export const wireRange = (r: { start: IsoDate; end: IsoDate }) => ({
  start_date: toUsDate(r.start),
  end_date: toUsDate(r.end),
});

const fmt = (zone: string, o: Intl.DateTimeFormatOptions) => new Intl.DateTimeFormat('en-US', { timeZone: zone, ...o });
const utcDay = (d: IsoDate) => {
  const { y, m, d: day } = parts(d);
  return new Date(Date.UTC(y, m - 1, day, 12));
};

export const timeLabel = (iso: string, zone: string) =>
  fmt(zone, { hour: 'numeric', minute: '2-digit' }).format(new Date(iso));
export const dayLabel = (
  d: IsoDate,
  o: Intl.DateTimeFormatOptions = { weekday: 'short', month: 'short', day: 'numeric' },
) => fmt('UTC', o).format(utcDay(d));
export const dateTimeLabel = (iso: string, zone: string) =>
  fmt(zone, { weekday: 'short', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(
    new Date(iso),
  );

/** What the heading says for the view: "March 2030", "Mar 10 - 16, 2030", "Tuesday, March 12, 2030". */
export function rangeTitle(view: CalendarView, anchor: IsoDate): string {
  const r = viewRange(view, anchor);
  if (view === 'month') return dayLabel(anchor, { month: 'long', year: 'numeric' });
  if (view === 'day') return dayLabel(anchor, { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' });
  const a = dayLabel(r.start, { month: 'short', day: 'numeric' });
  const b = dayLabel(r.end, { month: 'short', day: 'numeric', year: 'numeric' });
  return `${a} – ${b}`;
}

/** The calendar day an instant falls on, and its minutes after that day's midnight, in the zone. */
export function localParts(iso: string, zone: string): { date: IsoDate; minutes: number } {
  const t = new Date(iso);
  const local = new Date(t.getTime() + offsetMs(t, zone));
  return { date: local.toISOString().slice(0, 10), minutes: local.getUTCHours() * 60 + local.getUTCMinutes() };
}

/** "2030-03-12T09:30" for a datetime-local input. */
export function toLocalInput(iso: string, zone: string): string {
  const t = new Date(iso);
  return new Date(t.getTime() + offsetMs(t, zone)).toISOString().slice(0, 16);
}

/** The instant a datetime-local value stands for in the zone; null when incomplete. */
export function fromLocalInput(value: string, zone: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})$/.exec(value);
  return m ? zonedTimeToUtc(m[1], m[2], zone).toISOString() : null;
}

/** An instant at a given day and minutes after midnight, in the zone. */
export function atMinutes(date: IsoDate, minutes: number, zone: string): string {
  const hh = String(Math.floor(minutes / 60)).padStart(2, '0');
  const mm = String(minutes % 60).padStart(2, '0');
  return zonedTimeToUtc(date, `${hh}:${mm}`, zone).toISOString();
}

/** The next quarter hour from now, for a new event's default start. */
export function nextQuarterHour(now = Date.now()): string {
  const q = 15 * 60_000;
  return new Date(Math.ceil((now + 60_000) / q) * q).toISOString();
}
