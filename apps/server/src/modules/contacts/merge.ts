/**
 * Merging duplicates: the kept contact takes every note, file, policy, security, tag and timeline event of the
 * others; each field takes the value the person chose (from either record), else its own, else a merged one's when
 * it had none. The kept contact's timeline records old and new values and every value the merged ones held; each
 * merged contact is kept as a snapshot in contact_merges and soft-deleted (marked merged_into). One transaction: a
 * merge happens whole or not at all.
 */
import { MERGE_FIELDS, type MergeBody, type MergeField } from '@harbor/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { mergeConsent } from '../consent/record.js';
import { diffValues } from './events.js';
import { contacts } from './schema.js';
import { visibleContactsSql } from './visibility.js';

/** Who a person is, and what only a person decides, is never filled from a merged contact without a choice. */
const NOT_FILLED = new Set<MergeField>(['first_name', 'last_name', 'phone_type', 'type', 'note']);
/** Columns a merge fills on the kept contact when it has none and a merged one does (and nobody chose otherwise). */
const FILLABLE = new Set<MergeField>(MERGE_FIELDS.filter((f) => !NOT_FILLED.has(f)));

type Row = typeof contacts.$inferSelect;
const camel = (f: string) => f.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as keyof Row;
const blank = (v: unknown) => v === null || v === undefined || v === '';

/**
 * The kept contact's value of each mergeable field: the chosen contact's, else its own, else (for FILLABLE fields)
 * the first merged contact's that has one.
 */
function finalValues(kept: Row, others: Row[], choices: MergeBody['choices']) {
  const byId = new Map([kept, ...others].map((r) => [r.id, r]));
  const out: Record<string, unknown> = {};
  for (const f of MERGE_FIELDS) {
    const chosen = choices[f];
    if (chosen !== undefined) {
      const from = byId.get(chosen);
      if (!from) throw invalid(`choices.${f}`, 'must be the id of one of the contacts being merged');
      out[f] = from[camel(f)] ?? null;
    } else if (blank(kept[camel(f)]) && FILLABLE.has(f)) {
      out[f] = others.find((o) => !blank(o[camel(f)]))?.[camel(f)] ?? kept[camel(f)] ?? null;
    } else {
      out[f] = kept[camel(f)] ?? null;
    }
  }
  return out;
}

/** The merged contacts' own values (the non-blank ones), kept on the timeline so nothing they held is lost from view. */
const valuesOf = (r: Row) =>
  Object.fromEntries(MERGE_FIELDS.filter((f) => !blank(r[camel(f)])).map((f) => [f, r[camel(f)]]));

export async function mergeContacts(db: Db, auth: AuthContext, body: MergeBody) {
  const keptId = body.kept_id;
  const merged = [...new Set(body.ids)].filter((id) => id !== keptId);
  if (!merged.length) throw invalid('ids', 'choose at least one other contact to merge into the kept one');
  const all = [keptId, ...merged];
  const rows = await db
    .select()
    .from(contacts)
    .where(and(inArray(contacts.id, all), isNull(contacts.deletedAt), visibleContactsSql(auth)))
    .orderBy(contacts.id)
    .for('update');
  if (rows.length !== all.length) throw notFound('contact');
  const c = auth.company.id;
  const ids = sql`${sql.param(merged)}::bigint[]`;
  const kept = rows.find((r) => r.id === keptId) as Row;
  const others = rows.filter((r) => r.id !== keptId);
  const values = finalValues(kept, others, body.choices);
  const changes = diffValues(Object.fromEntries(MERGE_FIELDS.map((f) => [f, kept[camel(f)]])), values);
  const mergedValues = others.map((o) => ({
    id: o.id,
    number: o.number,
    name: `${o.firstName} ${o.lastName}`.trim(),
    values: valuesOf(o),
  }));

  await db.execute(
    sql`insert into contact_merges (company_id, kept_contact_id, merged_contact_id, snapshot, merged_by)
        select ${c}, ${keptId}, contacts.id,
          to_jsonb(contacts) || jsonb_build_object(
            'tag_ids', coalesce((select jsonb_agg(tag_id) from contact_tags where contact_id = contacts.id), '[]'),
            'documents', coalesce((select jsonb_agg(to_jsonb(d)) from contact_documents d where d.contact_id = contacts.id), '[]')),
          ${auth.user.id}
        from contacts where contacts.id = any(${ids})`,
  );
  // Opt-outs must survive a merge (modules/consent): the strictest answer per channel carries over.
  await mergeConsent(db, c, keptId, merged);
  for (const table of ['notes', 'contact_files', 'policies', 'securities', 'contact_events']) {
    await db.execute(
      sql`update ${sql.raw(table)} set contact_id = ${keptId} where contact_id = any(${ids}) and company_id = ${c}`,
    );
  }
  // Documents are one per kind: the kept contact's wins; a kind only the merged ones have moves over (the newest).
  await db.execute(
    sql`insert into contact_documents (contact_id, kind, company_id, data, updated_by, updated_at)
        select distinct on (kind) ${keptId}, kind, company_id, data, updated_by, updated_at
        from contact_documents where contact_id = any(${ids}) order by kind, updated_at desc
        on conflict (contact_id, kind) do nothing`,
  );
  await db.execute(
    sql`insert into contact_tags (contact_id, tag_id) select ${keptId}, tag_id from contact_tags
        where contact_id = any(${ids}) on conflict do nothing`,
  );
  if (Object.keys(changes).length) {
    const set: Partial<typeof contacts.$inferInsert> = { updatedAt: new Date() };
    for (const f of Object.keys(changes)) (set as Record<string, unknown>)[camel(f)] = values[f];
    // The email's verification travels with the address it was made for.
    if ('email' in changes) {
      set.emailStatus = rows.find((r) => r.email === values.email)?.emailStatus ?? 'unknown';
    }
    await db.update(contacts).set(set).where(eq(contacts.id, keptId));
  }
  await db.execute(
    sql`update contacts set linked_contact_id = ${keptId} where company_id = ${c} and linked_contact_id = any(${ids})`,
  );
  await db.execute(
    sql`update contacts set deleted_at = now(), updated_at = now(),
          extra = extra || jsonb_build_object('merged_into', ${keptId}::bigint)
        where contacts.id = any(${ids})`,
  );
  await db.execute(
    sql`insert into contact_events (company_id, contact_id, kind, data, actor_id)
        select ${c}::int, ${keptId}::bigint, 'merged',
          jsonb_build_object('merged_ids', ${JSON.stringify(merged)}::jsonb,
            'merged_numbers', (select jsonb_agg(number) from contacts where id = any(${ids})),
            'changes', ${JSON.stringify(changes)}::jsonb, 'merged', ${JSON.stringify(mergedValues)}::jsonb),
          ${auth.user.id}::int
        union all
        select ${c}::int, id, 'merged_into', jsonb_build_object('kept_id', ${keptId}::bigint), ${auth.user.id}::int
        from contacts where id = any(${ids})`,
  );
  return { kept_id: keptId, merged_ids: merged, changes };
}
