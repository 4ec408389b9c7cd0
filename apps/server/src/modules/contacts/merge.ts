/**
 * Merging duplicates: the kept contact takes every note, file, policy, security, tag and timeline event of the
 * others, fills its blank fields from them, and each merged contact is kept as a snapshot in contact_merges and
 * soft-deleted (marked merged_into). One transaction: a merge happens whole or not at all.
 */
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { rowsOf } from './list-scope.js';
import { visibleContactsSql } from './visibility.js';

/** Columns a merge fills on the kept contact when it has none and a merged one does. */
const FILLABLE = [
  'email',
  'phone',
  'secondary_phone',
  'date_of_birth',
  'gender',
  'language',
  'address',
  'address2',
  'city',
  'state',
  'zip',
  'county',
  'medicare_number',
  'part_a_effective',
  'part_b_effective',
  'status_id',
  'source_id',
  'category',
];

export async function mergeContacts(db: Db, auth: AuthContext, keptId: number, otherIds: number[]) {
  const merged = [...new Set(otherIds)].filter((id) => id !== keptId);
  if (!merged.length) throw invalid('ids', 'choose at least one other contact to merge into the kept one');
  const all = [keptId, ...merged];
  const [{ n }] = await rowsOf<{ n: number }>(
    db,
    sql`select count(*)::int as n from contacts where contacts.id = any(${sql.param(all)}::bigint[])
          and contacts.deleted_at is null and ${visibleContactsSql(auth)}`,
  );
  if (n !== all.length) throw notFound('contact');
  const c = auth.company.id;
  const ids = sql`${sql.param(merged)}::bigint[]`;

  await db.execute(
    sql`insert into contact_merges (company_id, kept_contact_id, merged_contact_id, snapshot, merged_by)
        select ${c}, ${keptId}, contacts.id,
          to_jsonb(contacts) || jsonb_build_object(
            'tag_ids', coalesce((select jsonb_agg(tag_id) from contact_tags where contact_id = contacts.id), '[]'),
            'documents', coalesce((select jsonb_agg(to_jsonb(d)) from contact_documents d where d.contact_id = contacts.id), '[]')),
          ${auth.user.id}
        from contacts where contacts.id = any(${ids})`,
  );
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
  const fill = sql.join(
    FILLABLE.map(
      (f) =>
        sql`${sql.raw(f)} = coalesce(contacts.${sql.raw(f)}, (select m.${sql.raw(f)} from contacts m
              where m.id = any(${ids}) and m.${sql.raw(f)} is not null order by m.id limit 1))`,
    ),
    sql`, `,
  );
  await db.execute(sql`update contacts set ${fill}, updated_at = now() where contacts.id = ${keptId}`);
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
            'merged_numbers', (select jsonb_agg(number) from contacts where id = any(${ids}))), ${auth.user.id}::int
        union all
        select ${c}::int, id, 'merged_into', jsonb_build_object('kept_id', ${keptId}::bigint), ${auth.user.id}::int
        from contacts where id = any(${ids})`,
  );
  return { kept_id: keptId, merged_ids: merged };
}
