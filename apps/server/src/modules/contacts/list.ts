/**
 * One page of the contacts list. The page is picked by keyset (the cursor) or, for shallow pages, by OFFSET. The
 * count is exact up to CONTACTS_COUNT_CAP (count_capped above it), and on the PostgreSQL server it gets a time
 * budget: when counting would cost more than the page (a rare filter over a million rows), the planner's estimate
 * is answered instead, flagged count_estimated (see docs/decisions/contacts-list-count.md).
 */
import {
  CONTACTS_COUNT_CAP,
  CONTACTS_MAX_LIMIT,
  CONTACTS_MAX_OFFSET,
  type ContactListReply,
  type ContactListRow,
  type ContactsScope,
  formatPhone,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Database, Db } from '../../platform/db/client.js';
import { invalid } from '../../platform/http/errors.js';
import {
  afterCursorSql,
  cursorFieldName,
  decodeCursor,
  duplicateKeySql,
  encodeCursor,
  orderBySql,
  type ResolvedScope,
  resolveScope,
  rowsOf,
} from './list-scope.js';

export function checkLimit(scope: ContactsScope) {
  if (scope.limit > CONTACTS_MAX_LIMIT) throw invalid('limit', `must be at most ${CONTACTS_MAX_LIMIT}`);
  if (!scope.cursor && (scope.page - 1) * scope.limit > CONTACTS_MAX_OFFSET) {
    throw invalid('page', `is too deep for page numbers (over ${CONTACTS_MAX_OFFSET} rows); use meta.next_cursor`);
  }
}

/** The SQL of one page (ids and keys only) and of the capped count: the route runs exactly these. */
export function pageQueries(r: ResolvedScope): { page: SQL; matchFirst: SQL | null; count: SQL } {
  const s = r.scope;
  const keysSelect = sql.join(
    r.keys.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const where = s.cursor ? sql`${r.where} and ${afterCursorSql(r, decodeCursor(s.cursor, r))}` : r.where;
  const offset = s.cursor ? 0 : (s.page - 1) * s.limit;
  const after = s.cursor ? afterCursorSql(r, decodeCursor(s.cursor, r)) : sql`true`;
  const page = sql`select contacts.id, ${keysSelect} from contacts where ${where}
    order by ${orderBySql(r)} limit ${s.limit + 1} offset ${offset}`;
  // The same page, matched first through the trigram index and then ordered (see pageRows). Only for 3+ characters:
  // shorter text cannot use trigrams, and matching first would read the whole book.
  const matchFirst =
    (s.q?.trim().length ?? 0) >= 3
      ? sql`with matched as materialized (select contacts.* from contacts where ${r.where})
          select contacts.id, ${keysSelect} from matched contacts where ${after}
          order by ${orderBySql(r)} limit ${s.limit + 1} offset ${offset}`
      : null;
  const count = sql`select count(*)::int as n from (select 1 from contacts where ${r.where} limit ${CONTACTS_COUNT_CAP + 1}) s`;
  return { page, matchFirst, count };
}

interface RawRow {
  id: string | number;
  number: string | number;
  first_name: string;
  last_name: string;
  email: string | null;
  phone: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  type: string;
  category: string | null;
  date_of_birth: string | Date | null;
  is_new: boolean;
  owner_id: number | null;
  owner_name: string | null;
  status_id: number | null;
  status_name: string | null;
  status_color: string | null;
  source_id: number | null;
  source_name: string | null;
  pool_id: number | null;
  pool_name: string | null;
  group_id: number | null;
  group_name: string | null;
  tags: unknown;
  created_at: string | Date;
  updated_at: string | Date;
  deleted_at: string | Date | null;
  dup_key?: string;
}

/** Presentation of a page of ids: one statement joins names, lookups and tags for just these rows. */
export async function presentRows(db: Db, ids: number[], r?: ResolvedScope): Promise<ContactListRow[]> {
  if (!ids.length) return [];
  const dup = r && cursorFieldName(r) === 'duplicate_key' ? sql`, ${duplicateKeySql(r.scope)} as dup_key` : sql``;
  const rows = await rowsOf<RawRow>(
    db,
    sql`select contacts.id, contacts.number, contacts.first_name, contacts.last_name, contacts.email, contacts.phone,
          contacts.city, contacts.state, contacts.zip, contacts.type, contacts.category,
          contacts.date_of_birth::text as date_of_birth, contacts.is_new, contacts.owner_id,
          nullif(trim(o.first_name || ' ' || o.last_name), '') as owner_name,
          contacts.status_id, st.name as status_name, st.color as status_color,
          contacts.source_id, so.name as source_name, contacts.pool_id, p.name as pool_name,
          contacts.group_id, g.name as group_name,
          coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
                    from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = contacts.id), '[]') as tags,
          contacts.created_at, contacts.updated_at, contacts.deleted_at ${dup}
        from contacts
        left join users o on o.id = contacts.owner_id
        left join statuses st on st.id = contacts.status_id
        left join sources so on so.id = contacts.source_id
        left join pools p on p.id = contacts.pool_id
        left join groups g on g.id = contacts.group_id
        where contacts.id = any(${sql.param(ids)}::bigint[])`,
  );
  const byId = new Map(rows.map((row) => [Number(row.id), row]));
  return ids
    .map((id) => byId.get(id))
    .filter((row): row is RawRow => Boolean(row))
    .map(presentRow);
}

const iso = (v: string | Date) => new Date(v).toISOString();
const ref = (id: number | null, name: string | null) => (id === null ? null : { id, name: name ?? '' });

function presentRow(row: RawRow): ContactListRow {
  const tags = (typeof row.tags === 'string' ? JSON.parse(row.tags) : row.tags) as ContactListRow['tags'];
  return {
    id: Number(row.id),
    number: Number(row.number),
    first_name: row.first_name,
    last_name: row.last_name,
    email: row.email,
    phone: row.phone ? formatPhone(row.phone) : null,
    city: row.city,
    state: row.state,
    zip: row.zip,
    type: row.type,
    category: row.category,
    date_of_birth: row.date_of_birth === null ? null : String(row.date_of_birth).slice(0, 10),
    is_new: row.is_new,
    owner: ref(row.owner_id, row.owner_name),
    status:
      row.status_id === null ? null : { id: row.status_id, name: row.status_name ?? '', color: row.status_color ?? '' },
    source: ref(row.source_id, row.source_name),
    pool: ref(row.pool_id, row.pool_name),
    group: ref(row.group_id, row.group_name),
    tags,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deleted_at: row.deleted_at === null ? null : iso(row.deleted_at),
    ...(row.dup_key === undefined ? {} : { duplicate_key: row.dup_key }),
  };
}

/** Time the planner's page may take before a search page is matched first instead (PostgreSQL server only). */
export const PAGE_BUDGET_MS = 40;

/**
 * The page of a list. With search text the planner often walks the name index and tests each row, betting the
 * matches are spread out: right for "son" (100k matches, 11 ms), ruinous for a surname fragment such as "ohnso"
 * whose matches all sort together under J (0.9 s at a million contacts). So the planner's page gets a small budget,
 * and past it the page is matched first through the trigram index and then ordered (cost grows with the matches,
 * ~20 ms for 10k).
 */
export async function pageRows<T extends Record<string, unknown>>(database: Database, r: ResolvedScope): Promise<T[]> {
  const q = pageQueries(r);
  if (!q.matchFirst || database.kind !== 'postgres') return rowsOf<T>(database.db, q.page);
  try {
    return await database.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await tx.execute(sql.raw(`set local statement_timeout = ${PAGE_BUDGET_MS}`));
      return rowsOf<T>(tx, q.page);
    });
  } catch (err) {
    if (sqlState(err) !== '57014') throw err;
    return rowsOf<T>(database.db, q.matchFirst);
  }
}

const sqlState = (err: unknown) =>
  (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;

/** Time a count may take before the estimate is used instead (PostgreSQL server only). */
export const COUNT_BUDGET_MS = 10;

/** The capped count within its budget, or the planner's estimate of the same WHERE. */
export async function countWithBudget(
  database: Database,
  r: ResolvedScope,
): Promise<{ n: number; estimated: boolean }> {
  const q = pageQueries(r);
  if (database.kind !== 'postgres')
    return { n: (await rowsOf<{ n: number }>(database.db, q.count))[0].n, estimated: false };
  try {
    const n = await database.db.transaction(async (t) => {
      const tx = t as unknown as Db;
      await tx.execute(sql.raw(`set local statement_timeout = ${COUNT_BUDGET_MS}`));
      return (await rowsOf<{ n: number }>(tx, q.count))[0].n;
    });
    return { n, estimated: false };
  } catch (err) {
    if (sqlState(err) !== '57014') throw err;
    const [plan] = await rowsOf<{ 'QUERY PLAN': unknown }>(
      database.db,
      sql`explain (format json) select 1 from contacts where ${r.where}`,
    );
    const raw = plan['QUERY PLAN'];
    const json = (typeof raw === 'string' ? JSON.parse(raw) : raw) as Array<{ Plan: { 'Plan Rows': number } }>;
    return { n: Math.round(json[0].Plan['Plan Rows']), estimated: true };
  }
}

export async function listContacts(
  database: Database,
  auth: AuthContext,
  scope: ContactsScope,
): Promise<ContactListReply> {
  checkLimit(scope);
  const db = database.db;
  const r = await resolveScope(db, auth, scope);
  const [page, { n, estimated }] = await Promise.all([
    pageRows<Record<string, string> & { id: string | number }>(database, r),
    countWithBudget(database, r),
  ]);
  const more = page.length > scope.limit;
  const shown = more ? page.slice(0, scope.limit) : page;
  const last = shown.at(-1);
  const next_cursor =
    more && last
      ? encodeCursor({ f: cursorFieldName(r), o: r.dir, k: r.keys.map((_, i) => last[`k${i}`]), id: Number(last.id) })
      : null;
  const capped = !estimated && n > CONTACTS_COUNT_CAP;
  const total = capped ? CONTACTS_COUNT_CAP : n;
  return {
    data: await presentRows(
      db,
      shown.map((row) => Number(row.id)),
      r,
    ),
    meta: {
      current_page: scope.page,
      limit: scope.limit,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / scope.limit)),
      count_capped: capped,
      count_estimated: estimated,
      next_cursor,
    },
  };
}
