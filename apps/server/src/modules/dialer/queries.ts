/**
 * Reading calls: one statement per list, joined with the contact and the agent, presented as the shared CallItem.
 * Who sees which calls: the caller's own, and those of the people they reach (managers their downline, admins the
 * company), the same reach rule as contacts.
 */
import type { CallItem } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { executeNamed } from '../../platform/db/named.js';
import { reachesUserSql } from '../../platform/reach.js';

type Row = Record<string, unknown>;

const iso = (v: unknown) => (v == null ? null : new Date(v as string).toISOString());

export function presentCall(r: Row): CallItem {
  const disclaimer = r.disclaimer_at_s == null ? null : Number(r.disclaimer_at_s);
  return {
    id: Number(r.id),
    call_direction: r.direction as CallItem['call_direction'],
    call_from: String(r.from_number),
    call_to: String(r.to_number),
    caller_city: (r.caller_city as string | null) ?? null,
    caller_state: (r.caller_state as string | null) ?? null,
    status: r.status as CallItem['status'],
    recording: r.recording as CallItem['recording'],
    duration_s: r.duration_s == null ? null : Number(r.duration_s),
    answered_at: iso(r.answered_at),
    ended_at: iso(r.ended_at),
    created_at: iso(r.created_at)!,
    disclaimer_played_at_s: disclaimer,
    disclaimer_in_first_minute: disclaimer !== null && disclaimer <= 60,
    contact:
      r.contact_number == null
        ? null
        : {
            number: Number(r.contact_number),
            name: `${r.contact_first ?? ''} ${r.contact_last ?? ''}`.trim() || 'Unnamed contact',
          },
    agent: { id: Number(r.user_id), name: `${r.agent_first ?? ''} ${r.agent_last ?? ''}`.trim() || 'Agent' },
    error_code: r.error_code == null ? null : Number(r.error_code),
    billed_minutes: Number(r.billed_minutes ?? 0),
  };
}

const SELECT = sql`select c.*, ct.number as contact_number, ct.first_name as contact_first, ct.last_name as contact_last,
    u.first_name as agent_first, u.last_name as agent_last,
    (select coalesce(sum(l.billed_minutes), 0) from call_legs l where l.call_id = c.id)::int as billed_minutes
  from calls c
  join users u on u.id = c.user_id
  left join contacts ct on ct.id = c.contact_id`;

/** Calls the caller may see (their own and their reach's), newest first. */
export async function listCalls(db: Db, auth: AuthContext, where: SQL, limit: number, offset = 0) {
  const res = await db.execute<Row>(
    sql`${SELECT} where c.company_id = ${auth.company.id} and ${reachesUserSql(auth, sql`c.user_id`)} and ${where}
        order by c.created_at desc, c.id desc limit ${limit} offset ${offset}`,
  );
  return res.rows.map(presentCall);
}

export async function countCalls(db: Db, auth: AuthContext, where: SQL) {
  const res = await db.execute<{ n: number }>(
    sql`select count(*)::int as n from calls c where c.company_id = ${auth.company.id}
        and ${reachesUserSql(auth, sql`c.user_id`)} and ${where}`,
  );
  return Number(res.rows[0]?.n ?? 0);
}

/** One call by id, for the system (webhooks): no reach rule, the company given. */
export async function loadCall(db: Db, companyId: number, id: number) {
  const res = await executeNamed<Row>(
    db,
    'call_load',
    sql`${SELECT} where c.company_id = ${companyId} and c.id = ${id}`,
  );
  return res.rows[0] ? presentCall(res.rows[0]) : null;
}

/** The caller's own call by id (the softphone acts only on its own calls); null when not theirs. */
export async function ownCallRow(db: Db, auth: AuthContext, id: number) {
  const res = await db.execute<Row>(
    sql`select * from calls where company_id = ${auth.company.id} and user_id = ${auth.user.id} and id = ${id}`,
  );
  return res.rows[0] ?? null;
}

/**
 * Contacts whose phone (or secondary phone) matches an inbound number, normalised as spec §5 says (dashes and a
 * leading +1 removed; a ten-digit remainder gains the stored leading 1), among those `visible` allows.
 */
export async function contactsByPhone(db: Db, companyId: number, phone: string, visible: SQL, limit = 20) {
  const stripped = phone.replace(/-/g, '').replace(/^\+1/, '');
  const digits = stripped.replace(/\D/g, '');
  const stored = digits.length === 10 ? `1${digits}` : digits;
  if (!stored) return [];
  const res = await db.execute<Row>(
    sql`select contacts.id, contacts.number, contacts.first_name, contacts.last_name, contacts.phone,
          nullif(trim(concat(o.first_name, ' ', o.last_name)), '') as owner
        from contacts left join users o on o.id = contacts.owner_id
        where contacts.company_id = ${companyId} and contacts.deleted_at is null
          and (contacts.phone = ${stored} or contacts.secondary_phone = ${stored}) and ${visible}
        order by contacts.updated_at desc nulls last, contacts.id desc limit ${limit}`,
  );
  return res.rows.map((r) => ({
    id: Number(r.id),
    number: Number(r.number),
    name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim() || 'Unnamed contact',
    phone: (r.phone as string | null) ?? null,
    owner: (r.owner as string | null) ?? null,
  }));
}
