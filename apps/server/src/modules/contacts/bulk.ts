/**
 * Bulk commands on a resolved selection. Each is one transaction of set-based statements (the change and its
 * timeline entries in the same statement), so a bulk action is all-or-nothing: it either changed every selected
 * contact or none.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { notFound } from '../../platform/http/errors.js';
import { rowsOf } from './list-scope.js';
import { type ResolvedSelection, recordEventsSql } from './selection.js';

/**
 * Runs the change (CTEs ending in one named `touched` that yields `id`) and records a timeline entry per touched
 * contact in the same statement; answers the count.
 */
async function touchAndRecord(
  db: Db,
  auth: AuthContext,
  ctes: SQL,
  kind: string,
  data: Record<string, unknown> = {},
): Promise<number> {
  const [{ n }] = await rowsOf<{ n: number }>(
    db,
    sql`with ${ctes}, ev as (${recordEventsSql(sql`select id from touched`, auth, kind, data)})
        select count(*)::int as n from touched`,
  );
  return n;
}

export function destroyAll(db: Db, auth: AuthContext, sel: ResolvedSelection) {
  return touchAndRecord(
    db,
    auth,
    sql`touched as (update contacts set deleted_at = now(), updated_at = now()
        where contacts.id in (${sel.idsSql}) and contacts.deleted_at is null returning contacts.id)`,
    'deleted',
  );
}

export function restoreAll(db: Db, auth: AuthContext, sel: ResolvedSelection) {
  return touchAndRecord(
    db,
    auth,
    sql`touched as (update contacts set deleted_at = null, updated_at = now()
        where contacts.id in (${sel.idsSql}) and contacts.deleted_at is not null returning contacts.id)`,
    'restored',
  );
}

export async function updateGroup(db: Db, auth: AuthContext, sel: ResolvedSelection, groupId: number | null) {
  if (groupId !== null) {
    const [g] = await rowsOf(db, sql`select 1 from groups where id = ${groupId} and company_id = ${auth.company.id}`);
    if (!g) throw notFound('group');
  }
  return touchAndRecord(
    db,
    auth,
    sql`touched as (update contacts set group_id = ${groupId}, updated_at = now()
        where contacts.id in (${sel.idsSql}) and contacts.group_id is distinct from ${groupId} returning contacts.id)`,
    'group_changed',
    { group_id: groupId },
  );
}

export interface TagSpec {
  name: string;
  color?: string;
}

/** Finds or creates the company's tags by name (case-insensitive), answering their ids. */
export async function ensureTags(db: Db, companyId: number, tags: TagSpec[]): Promise<number[]> {
  if (!tags.length) return [];
  const names = tags.map((t) => t.name.trim());
  const colors = tags.map((t) => t.color ?? 'blue');
  await db.execute(
    sql`insert into tags (company_id, name, color)
        select ${companyId}, n, c from unnest(${sql.param(names)}::text[], ${sql.param(colors)}::text[]) as x(n, c)
        on conflict (company_id, lower(name)) do nothing`,
  );
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select id from tags where company_id = ${companyId} and lower(name) = any(${sql.param(names.map((n) => n.toLowerCase()))}::text[])`,
  );
  return rows.map((r) => Number(r.id));
}

async function existingTagIds(db: Db, companyId: number, tags: TagSpec[]): Promise<number[]> {
  const names = tags.map((t) => t.name.trim().toLowerCase());
  const rows = await rowsOf<{ id: number }>(
    db,
    sql`select id from tags where company_id = ${companyId} and lower(name) = any(${sql.param(names)}::text[])`,
  );
  return rows.map((r) => Number(r.id));
}

export async function addTags(db: Db, auth: AuthContext, sel: ResolvedSelection, tags: TagSpec[]) {
  const tagIds = await ensureTags(db, auth.company.id, tags);
  return touchAndRecord(
    db,
    auth,
    sql`ins as (insert into contact_tags (contact_id, tag_id)
          select s.id, t.id from (${sel.idsSql}) s cross join unnest(${sql.param(tagIds)}::int[]) as t(id)
          on conflict do nothing returning contact_id),
        touched as (select distinct contact_id as id from ins)`,
    'tags_added',
    { tags: tags.map((t) => t.name) },
  );
}

export async function removeTags(db: Db, auth: AuthContext, sel: ResolvedSelection, tags: TagSpec[]) {
  const tagIds = await existingTagIds(db, auth.company.id, tags);
  if (!tagIds.length) return 0;
  return touchAndRecord(
    db,
    auth,
    sql`del as (delete from contact_tags where contact_id in (${sel.idsSql}) and tag_id = any(${sql.param(tagIds)}::int[])
          returning contact_id),
        touched as (select distinct contact_id as id from del)`,
    'tags_removed',
    { tags: tags.map((t) => t.name) },
  );
}

/** One contact's tags become exactly `tags`. */
export async function setTags(db: Db, auth: AuthContext, contactId: number, tags: TagSpec[]) {
  const tagIds = await ensureTags(db, auth.company.id, tags);
  await db.execute(
    sql`delete from contact_tags where contact_id = ${contactId} and not (tag_id = any(${sql.param(tagIds)}::int[]))`,
  );
  await db.execute(
    sql`insert into contact_tags (contact_id, tag_id) select ${contactId}, t from unnest(${sql.param(tagIds)}::int[]) t
        on conflict do nothing`,
  );
  await db.execute(
    recordEventsSql(sql`select ${contactId}::bigint as id`, auth, 'tags_set', { tags: tags.map((t) => t.name) }),
  );
}
