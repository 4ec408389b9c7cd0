/**
 * The contact timeline: every change to a contact or its sub-records appends one contact_events row. Changes of
 * values carry `{changes: {field: {from, to}}}` with the old and new value of every field that changed, whether one
 * contact was edited or a bulk statement (an import, a merge, an undo) changed thousands: the helpers below build that
 * object in JavaScript for one row, or in SQL for every row of a set-based statement.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { contactEvents } from './schema.js';

export interface ContactEventInput {
  companyId: number;
  contactId: number;
  kind: string;
  actorId: number | null;
  data?: Record<string, unknown>;
}

export async function recordContactEvent(db: Db, e: ContactEventInput) {
  await db.insert(contactEvents).values({
    companyId: e.companyId,
    contactId: e.contactId,
    kind: e.kind,
    actorId: e.actorId,
    data: e.data ?? {},
  });
}

export type Changes = Record<string, { from: unknown; to: unknown }>;

const comparable = (v: unknown) => (v instanceof Date ? v.toISOString() : v === undefined || v === '' ? null : v);

/** {field: {from, to}} for the fields of `after` whose value differs from `before` ('' and null count as blank). */
export function diffValues(before: Record<string, unknown>, after: Record<string, unknown>): Changes {
  const out: Changes = {};
  for (const [k, v] of Object.entries(after)) {
    const from = comparable(before[k]);
    const to = comparable(v);
    if (JSON.stringify(from) !== JSON.stringify(to)) out[k] = { from, to };
  }
  return out;
}

/** One field's value before and after a set-based change, as SQL expressions over the same source row. */
export interface FieldDiff {
  field: string;
  before: SQL;
  after: SQL;
}

/**
 * A jsonb `{field: {from, to}}` holding only the fields whose value differs ('{}' when none): one expression per
 * row, so the statement that changes the rows can record what it changed in the same pass.
 */
export function changesJsonSql(fields: FieldDiff[]): SQL {
  const parts = fields.map(
    (f) => sql`case when (${f.before}) is distinct from (${f.after})
      then jsonb_build_object(${sql.raw(`'${f.field.replace(/'/g, '')}'`)},
        jsonb_build_object('from', to_jsonb(${f.before}), 'to', to_jsonb(${f.after})))
      else '{}'::jsonb end`,
  );
  return parts.length ? sql`(${sql.join(parts, sql` || `)})` : sql`'{}'::jsonb`;
}

/**
 * The timeline rows of a set-based change: `source` yields `contact_id` and `changes` (jsonb, as changesJsonSql
 * builds it) and may yield `data` (jsonb merged into the event's data). Rows whose changes are empty get no event
 * unless `keepEmpty` (a row may have changed in another way, e.g. tags, that its `data` tells).
 */
export function changeEventsSql(o: {
  companyId: number;
  actorId: number | null;
  kind: string;
  source: SQL;
  withData?: boolean;
  keepEmpty?: SQL;
}): SQL {
  const data = o.withData
    ? sql`s.data || jsonb_build_object('changes', s.changes)`
    : sql`jsonb_build_object('changes', s.changes)`;
  const keep = o.keepEmpty ? sql` or (${o.keepEmpty})` : sql``;
  return sql`insert into contact_events (company_id, contact_id, kind, data, actor_id)
    select ${o.companyId}::int, s.contact_id, ${o.kind}, ${data}, ${o.actorId}::int
    from (${o.source}) s where s.changes <> '{}'::jsonb${keep}`;
}
