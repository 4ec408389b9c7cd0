/**
 * The dashboard's birthday lists: visible clients and prospects whose birthday falls today, within the week or within
 * the month, in the user's own time zone. The month-day of birth is a generated, indexed column (contacts_birthdays),
 * so this stays an index lookup for a million-contact company, on every /me.
 */
import { type BirthdayEntry, type DashboardPreferences, TIME_ZONE_IANA, type TimeZone } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { TtlCache } from '../../platform/ttl-cache.js';
import { visibleContactsSql } from '../contacts/visibility.js';

const RANGE_DAYS: Record<DashboardPreferences['birthday_range'], number> = { today: 0, week: 6, month: 30 };
const PER_LIST = 50;
const DAY = 86_400_000;

/** Today's calendar date in a time zone, as UTC midnight (date arithmetic only, no clock time). */
export function todayIn(zone: TimeZone, now = new Date()): Date {
  return new Date(`${dayFormat(zone).format(now)}T00:00:00Z`);
}

/** Building a formatter costs far more than using one, and every boot call asks: one per zone, kept. */
const formats = new Map<TimeZone, Intl.DateTimeFormat>();
function dayFormat(zone: TimeZone) {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE_IANA[zone] });
    formats.set(zone, f);
  }
  return f;
}

const mmdd = (d: Date) => (d.getUTCMonth() + 1) * 100 + d.getUTCDate();
const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Month-days from today through `days` later; Feb 29 counts on Feb 28 in a common year. */
export function monthDaysAhead(today: Date, days: number): number[] {
  const out: number[] = [];
  for (let i = 0; i <= days; i++) {
    const d = new Date(today.getTime() + i * DAY);
    out.push(mmdd(d));
    if (mmdd(d) === 228 && !isLeap(d.getUTCFullYear())) out.push(229);
  }
  return out;
}

/** The next birthday on or after today, and the age turned then. */
export function nextBirthday(dob: string, today: Date): { date: Date; turns: number } {
  const [y, m, d] = dob.split('-').map(Number);
  for (const year of [today.getUTCFullYear(), today.getUTCFullYear() + 1]) {
    // A Feb 29 birthday is kept on Feb 28 in common years.
    const day = m === 2 && d === 29 && !isLeap(year) ? 28 : d;
    const date = new Date(Date.UTC(year, m - 1, day));
    if (date >= today) return { date, turns: year - y };
  }
  throw new Error('unreachable');
}

export interface BirthdayLists {
  clients: BirthdayEntry[];
  prospects: BirthdayEntry[];
}
export type BirthdaysSource = (db: Db, auth: AuthContext, prefs: DashboardPreferences) => Promise<BirthdayLists>;

/**
 * The lists as the boot call (GET /v1/users/me) serves them: reused for `ttlMs` per person, reach, day and
 * preferences. A manager's lists span a downline's whole book; computing them on every page load of a whole office
 * would cost more than everything else the call does. A birthday edited in the meantime shows at most `ttlMs` late.
 */
export function cachedBirthdays(ttlMs: number): BirthdaysSource {
  const cache = new TtlCache<BirthdayLists>(ttlMs, 10_000);
  return (db, auth, prefs) => {
    const { user } = auth;
    const day = todayIn(user.timezone as TimeZone)
      .toISOString()
      .slice(0, 10);
    const key = [user.id, user.roles.join('+'), user.businessUnitId, day, prefs.birthday_range, prefs.show_clients]
      .concat(prefs.show_prospects)
      .join(':');
    return cache.getOrLoad(key, () => birthdaysFor(db, auth, prefs));
  };
}

export async function birthdaysFor(db: Db, auth: AuthContext, prefs: DashboardPreferences): Promise<BirthdayLists> {
  const types = [prefs.show_clients && 'client', prefs.show_prospects && 'lead'].filter(Boolean) as string[];
  if (types.length === 0) return { clients: [], prospects: [] };
  const today = todayIn(auth.user.timezone as TimeZone);
  const days = monthDaysAhead(today, RANGE_DAYS[prefs.birthday_range]);
  // Soonest first: a day's position in `days` is its distance from today.
  const order = sql`array[${sql.join(
    days.map((d) => sql`${d}`),
    sql`, `,
  )}]::int[]`;
  const res = await db.execute(sql`
    select id, number, first_name, last_name, type, dob
    from (
      select contacts.id, contacts.number, contacts.first_name, contacts.last_name, contacts.type,
        to_char(contacts.date_of_birth, 'YYYY-MM-DD') as dob,
        row_number() over (
          partition by contacts.type
          order by array_position(${order}, contacts.birth_mmdd::int), contacts.last_name, contacts.first_name, contacts.id
        ) as n
      from contacts
      where ${visibleContactsSql(auth)} and contacts.deleted_at is null
        and contacts.birth_mmdd in ${days} and contacts.type in ${types}
    ) soon
    where n <= ${PER_LIST}`);
  const rows = res.rows;
  const entries = rows.map((r) => {
    const next = nextBirthday(String(r.dob), today);
    return {
      type: String(r.type),
      entry: {
        id: Number(r.id),
        number: Number(r.number),
        first_name: String(r.first_name ?? ''),
        last_name: String(r.last_name ?? ''),
        date_of_birth: String(r.dob),
        turns: next.turns,
        days_until: Math.round((next.date.getTime() - today.getTime()) / DAY),
      },
    };
  });
  const pick = (type: string) =>
    entries
      .filter((e) => e.type === type)
      .map((e) => e.entry)
      .sort((a, b) => a.days_until - b.days_until || a.last_name.localeCompare(b.last_name))
      .slice(0, PER_LIST);
  return { clients: pick('client'), prospects: pick('lead') };
}
