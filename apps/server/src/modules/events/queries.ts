/**
 * Reading calendar events: whose calendar a caller may open (the reach rule), the range view, the today queue and
 * a contact's events, each one statement that also names the user and the contact, then one presenter.
 */
import {
  addDays,
  type CalendarEvent,
  DEFAULT_TIME_ZONE,
  EVENT_LIST_MAX,
  EVENT_MAX_DAYS,
  EVENT_RANGE_MAX_DAYS,
  type EventsQuery,
  type EventType,
  type IsoDate,
  type SoaException,
  TIME_ZONE_IANA,
  type TimeZone,
  zonedTimeToUtc,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { executeNamed } from '../../platform/db/named.js';
import { isoOf, isoOfSet } from '../../platform/db/timestamps.js';
import { forbidden, invalid, notFound } from '../../platform/http/errors.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';
import { likeEscape, rowsOf } from '../contacts/list-scope.js';

export type Raw = Record<string, unknown>;

/** The caller's time zone as an IANA name: range days and the queue's "today" are the caller's days. */
export const zoneOf = (auth: AuthContext) =>
  TIME_ZONE_IANA[
    (auth.user.timezone as TimeZone) in TIME_ZONE_IANA ? (auth.user.timezone as TimeZone) : DEFAULT_TIME_ZONE
  ];

/**
 * The calendar a request opens: the caller's own, or `downlineUserId`'s when the caller reaches them (managers and
 * admins, platform/reach.ts). Someone who reaches nobody else is refused outright (403); a user outside the caller's
 * reach, or of another company, does not exist for them (404).
 */
export async function calendarOwner(db: Db, auth: AuthContext, downlineUserId: number | undefined): Promise<number> {
  const me = auth.user.id;
  if (!downlineUserId || downlineUserId === me) return me;
  if (reachOf(auth) === 'own') throw forbidden('You can only see your own calendar.');
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`select u.id from users u where u.id = ${downlineUserId} and u.company_id = ${auth.company.id}
        and u.deleted_at is null and ${reachesUserSql(auth, sql`u.id`)}`,
  );
  if (!row) throw notFound('downline_user');
  return downlineUserId;
}

/** A range of whole days in `zone` as instants [from, to); 422 when it ends before it starts or spans over a year. */
export function rangeOf(start: IsoDate, end: IsoDate, zone: string) {
  if (end < start) throw invalid('end_date', 'must not be before start_date');
  if (addDays(start, EVENT_RANGE_MAX_DAYS - 1) < end) {
    throw invalid('end_date', `the range may span at most ${EVENT_RANGE_MAX_DAYS} days`);
  }
  return { from: zonedTimeToUtc(start, '00:00', zone), to: zonedTimeToUtc(addDays(end, 1), '00:00', zone) };
}

const eventSelect = sql`select e.*, trim(u.first_name || ' ' || u.last_name) as user_name,
    c.number as contact_number, trim(c.first_name || ' ' || c.last_name) as contact_name
  from calendar_events e join users u on u.id = e.user_id left join contacts c on c.id = e.contact_id`;

/**
 * The range views' select: the columns `present` reads, all carried by calendar_events_user_start (schema.ts), so the
 * scan is index-only and touches no heap page of a visible event. Only a row with a description reads it, by id.
 */
const rangeSelect = sql`select e.id, e.user_id, e.contact_id, e.type, e.title, e.location, e.starts_at, e.ends_at,
    e.all_day, e.due_at, e.snoozed_until, e.done_at, e.products, e.soa_request_id, e.soa_exception,
    e.reminder_minutes, e.reminder_email, e.created_at, e.updated_at,
    case when e.has_description then (select d.description from calendar_events d where d.id = e.id) end
      as description,
    trim(u.first_name || ' ' || u.last_name) as user_name,
    c.number as contact_number, trim(c.first_name || ' ' || c.last_name) as contact_name
  from calendar_events e join users u on u.id = e.user_id left join contacts c on c.id = e.contact_id`;

function qCondition(q: string | undefined): SQL {
  const text = q?.trim();
  if (!text) return sql`true`;
  const like = `%${likeEscape(text)}%`;
  return sql`(e.title ilike ${like} or e.description ilike ${like} or e.location ilike ${like}
    or (c.first_name || ' ' || c.last_name) ilike ${like})`;
}

const typesCondition = (types: EventType[] | undefined) =>
  types?.length ? sql`e.type = any(${sql.param(types)}::text[])` : sql`true`;

/**
 * The events of one calendar overlapping [from, to), by start (the month, week, day and agenda views): the caller's
 * own, or `downlineUserId`'s under the rule of `calendarOwner`, whose reach check then rides in the same statement
 * (one round trip instead of two): no row at all means the user is out of reach (404), one row of nulls an empty range.
 */
export async function eventsInRange(
  db: Db,
  auth: AuthContext,
  downlineUserId: number | undefined,
  from: Date,
  to: Date,
  query: Pick<EventsQuery, 'q' | 'types_list'>,
) {
  // Events last at most EVENT_MAX_DAYS: the index scan on (user_id, starts_at) starts that far before the range.
  const earliest = new Date(from.getTime() - EVENT_MAX_DAYS * 86_400_000);
  const range = (userId: SQL) => sql`${rangeSelect} where e.user_id = ${userId} and e.company_id = ${auth.company.id}
      and e.starts_at >= ${earliest.toISOString()} and e.starts_at < ${to.toISOString()}
      and (e.ends_at > ${from.toISOString()} or e.starts_at >= ${from.toISOString()})
      and ${typesCondition(query.types_list)} and ${qCondition(query.q)}
      order by e.starts_at, e.id limit ${EVENT_LIST_MAX + 1}`;
  const me = auth.user.id;
  if (!downlineUserId || downlineUserId === me) {
    return (await executeNamed<Raw>(db, 'events_range', range(sql`${me}`))).rows.map((r) => present(r, false));
  }
  if (reachOf(auth) === 'own') throw forbidden('You can only see your own calendar.');
  const { rows } = await executeNamed<Raw>(
    db,
    'events_range_of',
    sql`select r.* from (select o.id from users o where o.id = ${downlineUserId} and o.company_id = ${auth.company.id}
        and o.deleted_at is null and ${reachesUserSql(auth, sql`o.id`)}) cal
      left join lateral (${range(sql`cal.id`)}) r on true
      order by r.starts_at, r.id`,
  );
  if (!rows.length) throw notFound('downline_user');
  return rows.filter((r) => r.id !== null).map((r) => present(r, false));
}

/**
 * The today queue: open events due before the end of the range, the overdue ones (due before it starts) first, then
 * by when they are due. Done events leave the queue; snoozed ones come back at their new time.
 */
export async function todayQueue(
  db: Db,
  companyId: number,
  userId: number,
  from: Date,
  to: Date,
  query: Pick<EventsQuery, 'q' | 'types_list'>,
) {
  const { rows } = await executeNamed<Raw>(
    db,
    'events_today',
    sql`${eventSelect} where e.user_id = ${userId} and e.company_id = ${companyId} and e.done_at is null
      and e.due_at < ${to.toISOString()} and ${typesCondition(query.types_list)} and ${qCondition(query.q)}
      order by e.due_at, e.id limit ${EVENT_LIST_MAX + 1}`,
  );
  const list = rows.map((r) => present(r, new Date(r.due_at as string) < from));
  // Overdue first; the index already gave both halves in due order.
  return [...list.filter((e) => e.overdue), ...list.filter((e) => !e.overdue)];
}

/** A contact's events (the contact must be visible to the caller: checked by the route), newest first. */
export async function eventsOfContact(db: Db, companyId: number, contactId: number) {
  const rows = await rowsOf<Raw>(
    db,
    sql`${eventSelect} where e.contact_id = ${contactId} and e.company_id = ${companyId}
      order by e.starts_at desc, e.id desc limit ${EVENT_LIST_MAX}`,
  );
  return rows.map((r) => present(r, false));
}

/** One event the caller may act on: in their company and on a calendar they reach (else 404, nothing said). */
export async function loadEvent(db: Db, auth: AuthContext, id: number): Promise<Raw> {
  const [row] = await rowsOf<Raw>(
    db,
    sql`${eventSelect} where e.id = ${id} and e.company_id = ${auth.company.id}
      and ${reachesUserSql(auth, sql`e.user_id`)}`,
  );
  if (!row) throw notFound('event');
  return row;
}

export function present(r: Raw, overdue: boolean): CalendarEvent {
  return {
    id: Number(r.id),
    title: String(r.title),
    type: r.type as EventType,
    start_at: isoOfSet(r.starts_at),
    end_at: isoOfSet(r.ends_at),
    all_day: Boolean(r.all_day),
    description: (r.description as string) ?? null,
    location: (r.location as string) ?? null,
    user: { id: Number(r.user_id), name: String(r.user_name ?? '') },
    contact:
      r.contact_id === null || r.contact_id === undefined
        ? null
        : { id: Number(r.contact_id), number: Number(r.contact_number), name: String(r.contact_name ?? '') },
    products: (r.products as string[]) ?? [],
    soa_exception: (r.soa_exception as SoaException) ?? null,
    soa_request_id: r.soa_request_id === null || r.soa_request_id === undefined ? null : Number(r.soa_request_id),
    reminder_minutes:
      r.reminder_minutes === null || r.reminder_minutes === undefined ? null : Number(r.reminder_minutes),
    reminder_email: Boolean(r.reminder_email),
    done: r.done_at !== null && r.done_at !== undefined,
    done_at: isoOf(r.done_at),
    snoozed_until: isoOf(r.snoozed_until),
    due_at: isoOfSet(r.due_at),
    overdue,
    created_at: isoOfSet(r.created_at),
    updated_at: isoOfSet(r.updated_at),
  };
}
