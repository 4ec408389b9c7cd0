/**
 * One page of the contacts list in ONE statement: the page's ids and keyset keys (by cursor, or OFFSET for shallow
 * page numbers) and the rows' presentation (names of owner, status, source, pool, group and the tags) together. No
 * count rides along: it would cost more than the page at a million contacts, so it has its own route (count.ts,
 * docs/decisions/contacts-list-paging-and-count.md).
 */
import {
  CONTACTS_MAX_LIMIT,
  CONTACTS_MAX_OFFSET,
  type ContactListReply,
  type ContactListRow,
  type ContactsScope,
  formatPhone,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
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

/**
 * A search whose company-wide matches number at most this many is answered by fetching them (trigram index) and
 * ordering them; above it, matches are dense enough that walking the list's order and testing each row finds a page
 * within a few thousand rows. Deciding by an actual probe, not the planner's estimate: for a surname fragment such
 * as "ohnso" (4,303 matches sorting together under J) the planner's walk read 400k rows.
 */
export const SEARCH_PROBE_LIMIT = 10_000;

interface PageParts {
  /** `matched` (the probe) and `few` (its verdict), for an indexed search; null otherwise. */
  ctes: SQL | null;
  /** A query of the page's ids and keyset keys (`k0`, `k1`, ...), one row more than the page. */
  ids: SQL;
}

function pageParts(r: ResolvedScope, probeLimit: number): PageParts {
  const s = r.scope;
  const keys = sql.join(
    r.keys.map((k, i) => sql`(${k.expr})::text as ${sql.raw(`k${i}`)}`),
    sql`, `,
  );
  const after = s.cursor ? afterCursorSql(r, decodeCursor(s.cursor, r)) : sql`true`;
  const offset = s.cursor ? 0 : (s.page - 1) * s.limit;
  const tail = sql`order by ${orderBySql(r)} limit ${s.limit + 1} offset ${offset}`;
  const search = r.search;
  if (!search)
    return { ctes: null, ids: sql`select contacts.id, ${keys} from contacts where ${r.base} and ${after} ${tail}` };
  const walk = (gate: SQL) =>
    sql`select contacts.id, ${keys} from contacts where ${gate} and ${r.base} and ${search.row} and ${after} ${tail}`;
  if (!search.indexed) return { ctes: null, ids: walk(sql`true`) };
  // Both ways in one statement; the probe's count picks one, and the other never runs (a one-time filter).
  return {
    ctes: sql`matched as materialized (${search.probe(probeLimit + 1)}),
      few as (select count(*) <= ${probeLimit} as yes from matched)`,
    ids: sql`(select contacts.id, ${keys} from matched join contacts on contacts.id = matched.id
        where (select yes from few) and ${r.base} and ${after} ${tail})
      union all
      (${walk(sql`not (select yes from few)`)})`,
  };
}

/**
 * The page's ids and keys as a statement of its own. Tests force either search form through `probeLimit` (0: the
 * ordered walk; more than the matches: matched first) and check both give the same rows.
 */
export function pageIdsSql(r: ResolvedScope, probeLimit = SEARCH_PROBE_LIMIT): SQL {
  const { ctes, ids } = pageParts(r, probeLimit);
  return ctes ? sql`with ${ctes} ${ids}` : ids;
}

/** The page with its presentation: one statement from ids to finished rows, in list order. */
export function pageSql(r: ResolvedScope): SQL {
  const { ctes, ids } = pageParts(r, SEARCH_PROBE_LIMIT);
  const keyCols = sql.join(
    r.keys.map((_, i) => sql.raw(`page.k${i}`)),
    sql`, `,
  );
  const dup = cursorFieldName(r) === 'duplicate_key' ? sql`, ${duplicateKeySql(r.scope)} as dup_key` : sql``;
  // Lookups as scalar subqueries rather than joins: the same rows, planned in half the time (no join order to
  // choose among six tables), which at a page of 50 is most of the statement's cost.
  return sql`with ${ctes ? sql`${ctes},` : sql``} page as (${ids})
    select contacts.id, ${keyCols}, contacts.number, contacts.first_name, contacts.last_name, contacts.email,
      contacts.phone, contacts.city, contacts.state, contacts.zip, contacts.type, contacts.category,
      contacts.date_of_birth::text as date_of_birth, contacts.is_new,
      (select json_build_object('id', o.id, 'name', trim(o.first_name || ' ' || o.last_name))
        from users o where o.id = contacts.owner_id) as owner,
      (select json_build_object('id', st.id, 'name', st.name, 'color', st.color)
        from statuses st where st.id = contacts.status_id) as status,
      (select json_build_object('id', so.id, 'name', so.name) from sources so where so.id = contacts.source_id) as source,
      (select json_build_object('id', p.id, 'name', p.name) from pools p where p.id = contacts.pool_id) as pool,
      (select json_build_object('id', g.id, 'name', g.name) from groups g where g.id = contacts.group_id) as group,
      coalesce((select json_agg(json_build_object('id', t.id, 'name', t.name, 'color', t.color) order by t.name)
                from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = contacts.id), '[]') as tags,
      contacts.created_at, contacts.updated_at, contacts.deleted_at ${dup}
    from page
    join contacts on contacts.id = page.id
    order by ${orderBySql(r)}`;
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
  owner: Ref;
  status: { id: number; name: string; color: string } | null;
  source: Ref;
  pool: Ref;
  group: Ref;
  tags: unknown;
  created_at: string | Date;
  updated_at: string | Date;
  deleted_at: string | Date | null;
  dup_key?: string;
  [key: `k${number}`]: string;
}

type Ref = { id: number; name: string } | null;
const iso = (v: string | Date) => new Date(v).toISOString();
/** json columns arrive parsed from node-postgres and as text from PGlite. */
const json = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;

function presentRow(row: RawRow): ContactListRow {
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
    owner: json<Ref>(row.owner),
    status: json<ContactListRow['status']>(row.status),
    source: json<Ref>(row.source),
    pool: json<Ref>(row.pool),
    group: json<Ref>(row.group),
    tags: json<ContactListRow['tags']>(row.tags),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deleted_at: row.deleted_at === null ? null : iso(row.deleted_at),
    ...(row.dup_key === undefined ? {} : { duplicate_key: row.dup_key }),
  };
}

/** Runs the page statement and shapes the reply: the extra row only says that there is a next page. */
export async function listPage(db: Db, r: ResolvedScope): Promise<ContactListReply> {
  const scope = r.scope;
  const rows = await rowsOf<RawRow>(db, pageSql(r));
  const has_more = rows.length > scope.limit;
  const shown = has_more ? rows.slice(0, scope.limit) : rows;
  const last = shown.at(-1);
  return {
    data: shown.map(presentRow),
    meta: {
      current_page: scope.page,
      limit: scope.limit,
      has_more,
      next_cursor:
        has_more && last
          ? encodeCursor({
              f: cursorFieldName(r),
              o: r.dir,
              k: r.keys.map((_, i) => last[`k${i}`]),
              id: Number(last.id),
            })
          : null,
    },
  };
}

export async function listContacts(db: Db, auth: AuthContext, scope: ContactsScope): Promise<ContactListReply> {
  checkLimit(scope);
  return listPage(db, await resolveScope(db, auth, scope));
}
