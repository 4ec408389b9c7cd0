/**
 * Calendar dates without a time of day or a time zone ("YYYY-MM-DD", the form PostgreSQL `date` columns take), and
 * the MM/DD/YYYY form the events routes use on the wire (crm-core §3). Arithmetic runs on UTC midnights so no
 * daylight-saving change can move a date.
 */

/** A calendar date as YYYY-MM-DD. */
export type IsoDate = string;

const ISO = /^(\d{4})-(\d{2})-(\d{2})$/;
const US = /^(\d{2})\/(\d{2})\/(\d{4})$/;

const utc = (y: number, m: number, d: number) => new Date(Date.UTC(y, m - 1, d));

function valid(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  return d <= daysInMonth(y, m);
}

export function isLeapYear(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

export function daysInMonth(y: number, m: number): number {
  return [31, isLeapYear(y) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

/** Year, month (1-12) and day of a YYYY-MM-DD date; throws on anything that is not a real date. */
export function parts(date: IsoDate): { y: number; m: number; d: number } {
  const match = ISO.exec(date);
  if (!match) throw new RangeError(`not a date (YYYY-MM-DD): ${date}`);
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!valid(y, m, d)) throw new RangeError(`no such day: ${date}`);
  return { y, m, d };
}

export function isIsoDate(s: string): boolean {
  const match = ISO.exec(s);
  return Boolean(match && valid(Number(match[1]), Number(match[2]), Number(match[3])));
}

export function isoOf(y: number, m: number, d: number): IsoDate {
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

const fromUtc = (t: Date): IsoDate => isoOf(t.getUTCFullYear(), t.getUTCMonth() + 1, t.getUTCDate());

export function addDays(date: IsoDate, n: number): IsoDate {
  const { y, m, d } = parts(date);
  return fromUtc(utc(y, m, d + n));
}

/** Months added; a day the target month lacks becomes its last day (Jan 31 + 1 month = Feb 28 or 29). */
export function addMonths(date: IsoDate, n: number): IsoDate {
  const { y, m, d } = parts(date);
  const index = y * 12 + (m - 1) + n;
  const ty = Math.floor(index / 12);
  const tm = (index % 12) + 1;
  return isoOf(ty, tm, Math.min(d, daysInMonth(ty, tm)));
}

/** Years added, Feb 29 becoming Feb 28 in a common year (as PostgreSQL's `date + interval 'n years'` does). */
export function addYears(date: IsoDate, n: number): IsoDate {
  return addMonths(date, n * 12);
}

export function firstOfMonth(date: IsoDate): IsoDate {
  const { y, m } = parts(date);
  return isoOf(y, m, 1);
}

export function lastOfMonth(date: IsoDate): IsoDate {
  const { y, m } = parts(date);
  return isoOf(y, m, daysInMonth(y, m));
}

/** Whole days from `a` to `b` (negative when b is before a). */
export function daysBetween(a: IsoDate, b: IsoDate): number {
  const pa = parts(a);
  const pb = parts(b);
  return Math.round((utc(pb.y, pb.m, pb.d).getTime() - utc(pa.y, pa.m, pa.d).getTime()) / 86_400_000);
}

/** YYYY-MM-DD strings order as dates. */
export const compareDates = (a: IsoDate, b: IsoDate) => (a < b ? -1 : a > b ? 1 : 0);
export const maxDate = (a: IsoDate, b: IsoDate) => (a >= b ? a : b);

export interface DateRange {
  start: IsoDate;
  /** Inclusive: the period's last day. */
  end: IsoDate;
}

export const inRange = (date: IsoDate, r: DateRange) => date >= r.start && date <= r.end;

/** MM/DD/YYYY (the events routes' wire format) to YYYY-MM-DD; null when it is not a real date in that form. */
export function fromUsDate(s: string): IsoDate | null {
  const match = US.exec(s.trim());
  if (!match) return null;
  const [m, d, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return valid(y, m, d) ? isoOf(y, m, d) : null;
}

export function toUsDate(date: IsoDate): string {
  const { y, m, d } = parts(date);
  return `${String(m).padStart(2, '0')}/${String(d).padStart(2, '0')}/${String(y).padStart(4, '0')}`;
}

/**
 * One formatter per zone and kind: building an Intl.DateTimeFormat costs far more than using one, and a calendar
 * reply converts every event's times (the month view's profile spent more in building formatters than in its SQL).
 * Zones are a handful of IANA names, so the cache stays small.
 */
const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(kind: 'date' | 'parts', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f =
      kind === 'date'
        ? new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        : new Intl.DateTimeFormat('en-US', {
            timeZone,
            hourCycle: 'h23',
            year: 'numeric',
            month: '2-digit',
            day: '2-digit',
            hour: '2-digit',
            minute: '2-digit',
            second: '2-digit',
          });
    formatters.set(key, f);
  }
  return f;
}

/** The calendar date an instant falls on in an IANA time zone. */
export function dateInZone(instant: Date, timeZone: string): IsoDate {
  return formatter('date', timeZone).format(instant);
}

/**
 * The instant a wall-clock time in `timeZone` stands for (the start of a day in the user's zone, for ranges). Two
 * passes settle the offset, including on the days the clocks change.
 */
export function zonedTimeToUtc(date: IsoDate, time: string, timeZone: string): Date {
  const { y, m, d } = parts(date);
  const [hh, mm] = time.split(':').map(Number);
  const wall = Date.UTC(y, m - 1, d, hh, mm);
  let guess = wall;
  for (let i = 0; i < 2; i++) guess = wall - offsetMs(new Date(guess), timeZone);
  return new Date(guess);
}

/** How far the zone's wall clock is ahead of UTC at `instant` (negative in the Americas). */
export function offsetMs(instant: Date, timeZone: string): number {
  const f = formatter('parts', timeZone);
  const p = Object.fromEntries(f.formatToParts(instant).map((x) => [x.type, x.value]));
  const asUtc = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second);
  return asUtc - Math.floor(instant.getTime() / 1000) * 1000;
}
