/**
 * The contacts scope (crm-core §3) as SQL: one WHERE condition on alias `contacts` built from visibility, group view,
 * pool, downline picker, field filters and `q`, plus the ordering and its keyset cursor. Lists, bulk selections,
 * exports and transfers all go through here, so "the filtered set" means the same rows everywhere.
 */
import {
  CONTACT_ORDER_FIELDS,
  type ContactOrderField,
  type ContactsScope,
  ContactsScope as ContactsScopeSchema,
  dateInZone,
  TIME_ZONE_IANA,
  type TimeZone,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { downlineIdsSql } from '../../platform/downline.js';
import { forbidden, invalid, notFound } from '../../platform/http/errors.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';
import {
  filterConditions,
  qWords,
  type SearchWord,
  searchProbeSql,
  searchRowSql,
  searchWordsSql,
} from './list-filters.js';
import { visibleContactsSql } from './visibility.js';

export { likeEscape } from './list-filters.js';

export async function rowsOf<T>(db: Db, query: SQL): Promise<T[]> {
  const res = await db.execute(query);
  return (res as unknown as { rows: T[] }).rows;
}

/** Parses a partial scope (bulk bodies) into a full one with the spec's defaults. */
export function fullScope(partial: unknown): ContactsScope {
  const parsed = ContactsScopeSchema.safeParse(partial ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw invalid(`contacts_scope.${issue.path.join('.') || 'base'}`, issue.message);
  }
  return parsed.data;
}

interface OrderKey {
  expr: SQL;
  cast: string;
}

/** Each order field with its tie-breakers; nullable columns are coalesced so the keyset comparison stays total. */
function orderKeys(field: ContactOrderField | 'duplicate_key', scope: ContactsScope): OrderKey[] {
  const text = (e: SQL): OrderKey => ({ expr: e, cast: 'text' });
  switch (field) {
    case 'last_name':
      return [text(sql`contacts.last_name`), text(sql`contacts.first_name`)];
    case 'first_name':
      return [text(sql`contacts.first_name`), text(sql`contacts.last_name`)];
    case 'email':
      return [text(sql`coalesce(contacts.email, '')`)];
    case 'city':
      return [text(sql`coalesce(contacts.city, '')`)];
    case 'state':
      return [text(sql`coalesce(contacts.state, '')`)];
    case 'zip':
      return [text(sql`coalesce(contacts.zip, '')`)];
    case 'type':
      return [text(sql`contacts.type`)];
    case 'number':
      return [{ expr: sql`contacts.number`, cast: 'bigint' }];
    case 'created_at':
      return [{ expr: sql`contacts.created_at`, cast: 'timestamptz' }];
    case 'updated_at':
      return [{ expr: sql`contacts.updated_at`, cast: 'timestamptz' }];
    case 'date_of_birth':
      return [{ expr: sql`coalesce(contacts.date_of_birth, '0001-01-01'::date)`, cast: 'date' }];
    case 'phone':
      return [text(sql`coalesce(contacts.phone, '')`)];
    // The names a person sees: a sort over the visible set (no index orders by a looked-up name).
    case 'status':
      return [text(sql`coalesce((select s.name from statuses s where s.id = contacts.status_id), '')`)];
    case 'source':
      return [text(sql`coalesce((select s.name from sources s where s.id = contacts.source_id), '')`)];
    case 'owner':
      return [
        text(
          sql`coalesce((select trim(u.first_name || ' ' || u.last_name) from users u where u.id = contacts.owner_id), '')`,
        ),
      ];
    case 'pool':
      return [text(sql`coalesce((select p.name from pools p where p.id = contacts.pool_id), '')`)];
    case 'group':
      return [text(sql`coalesce((select g.name from groups g where g.id = contacts.group_id), '')`)];
    case 'duplicate_key':
      return [text(duplicateKeySql(scope))];
  }
}

export function duplicateKeySql(scope: ContactsScope): SQL {
  const d = scope.duplicate ?? { first_name: true, last_name: true, address: false };
  const parts: SQL[] = [];
  if (d.first_name) parts.push(sql`lower(trim(contacts.first_name))`);
  if (d.last_name) parts.push(sql`lower(trim(contacts.last_name))`);
  if (d.address) parts.push(sql`lower(trim(coalesce(contacts.address, '')))`);
  if (!parts.length) throw invalid('duplicate', 'choose at least one of first_name, last_name, address');
  return sql.join(parts, sql` || '|' || `);
}

const isDuplicateLookup = (s: ContactsScope) => s.representer_type === 'duplicate_merge' && !!s.duplicate?.is_duplicate;

/** The `q` part of a scope, in the three forms the page and the count need (list-filters.ts). */
export interface ResolvedSearch {
  words: SearchWord[];
  /** Some word is long enough for the trigram index to find the matches first. */
  indexed: boolean;
  /** Per-row test, for an ordered walk. */
  row: SQL;
  /** Up to n matching ids of the company, through the trigram index. */
  probe: (n: number) => SQL;
}

export interface ResolvedScope {
  scope: ContactsScope;
  /** Everything but `q`. */
  base: SQL;
  /** The whole scope as one set condition (base and q): counts, selections, exports. */
  where: SQL;
  search: ResolvedSearch | null;
  keys: OrderKey[];
  dir: 'asc' | 'desc';
}

/** Checks the scope's names and limits (422 naming the field), then builds its WHERE (which may need lookups). */
export async function resolveScope(db: Db, auth: AuthContext, scope: ContactsScope): Promise<ResolvedScope> {
  const orderField = isDuplicateLookup(scope) ? 'duplicate_key' : scope.order_field;
  if (orderField !== 'duplicate_key' && !(CONTACT_ORDER_FIELDS as readonly string[]).includes(orderField)) {
    throw invalid('order_field', `unknown order field '${orderField}'`);
  }
  const c = auth.company.id;
  const parts: SQL[] = [visibleContactsSql(auth)];
  parts.push(
    scope.contact_group === 'deleted' ? sql`contacts.deleted_at is not null` : sql`contacts.deleted_at is null`,
  );
  if (scope.pool_id !== 'mine') parts.push(await poolCondition(db, auth, scope.pool_id));
  const owners = await ownerCondition(db, auth, scope);
  if (owners) parts.push(owners);
  // The Medicare date filters count from the caller's today, in their time zone.
  const zone = TIME_ZONE_IANA[auth.user.timezone as TimeZone] ?? TIME_ZONE_IANA.est;
  parts.push(...filterConditions(scope, dateInZone(new Date(), zone)));
  if (scope.category) parts.push(sql`contacts.category = ${scope.category}`);
  if (scope.type) parts.push(sql`contacts.type = ${scope.type}`);
  const words = qWords(scope.q);
  let base = sql.join(parts, sql` and `);
  let where = words ? sql`${base} and ${searchWordsSql(words)}` : base;
  if (isDuplicateLookup(scope)) {
    const key = duplicateKeySql(scope);
    const dup = sql`${key} in (select ${key} from contacts where ${where} group by 1 having count(*) > 1)`;
    base = sql`${base} and ${dup}`;
    where = sql`${where} and ${dup}`;
  }
  return {
    scope,
    base,
    where,
    search: words
      ? {
          words,
          indexed: words.some((w) => w.indexed),
          row: searchRowSql(words),
          probe: (n) => searchProbeSql(c, words, n),
        }
      : null,
    keys: orderKeys(orderField as ContactOrderField | 'duplicate_key', scope),
    dir: scope.order === 'DESC' ? 'desc' : 'asc',
  };
}

async function poolCondition(db: Db, auth: AuthContext, poolId: number): Promise<SQL> {
  const company = reachOf(auth) === 'company';
  const [row] = await rowsOf<{ held: boolean }>(
    db,
    sql`select exists (select 1 from pool_holders h where h.pool_id = p.id and h.user_id = ${auth.user.id}) as held
        from pools p where p.id = ${poolId} and p.company_id = ${auth.company.id}`,
  );
  // A pool of another company, or one the caller neither holds nor administers, does not exist for them.
  if (!row || (!row.held && !company)) throw notFound('pool');
  return sql`contacts.pool_id = ${poolId}`;
}

/** The downline picker: one user's contacts, or everyone's below a user ("all downline"), within the caller's reach. */
async function ownerCondition(db: Db, auth: AuthContext, scope: ContactsScope): Promise<SQL | null> {
  const wantsDownline = scope.contact_group === 'downline' || scope.all_downline || scope.downline_user_id;
  if (!wantsDownline) return null;
  const reach = reachOf(auth);
  if (reach === 'own') throw forbidden();
  const c = auth.company.id;
  const me = auth.user.id;
  const target = scope.downline_user_id ?? me;
  if (target !== me) {
    const [ok] = await rowsOf<{ ok: boolean }>(
      db,
      sql`select exists (select 1 from users where id = ${target} and company_id = ${c}
        and ${reachesUserSql(auth, sql`id`)}) as ok`,
    );
    if (!ok?.ok) throw notFound('downline_user');
  }
  if (scope.all_downline) {
    const below = sql`contacts.owner_id in ${downlineIdsSql(c, target)}`;
    return scope.contact_group === 'downline' && target === me ? sql`${below} and contacts.owner_id <> ${me}` : below;
  }
  if (scope.downline_user_id) return sql`contacts.owner_id = ${target}`;
  return sql`contacts.owner_id in ${downlineIdsSql(c, me)} and contacts.owner_id <> ${me}`;
}

/** ORDER BY for the resolved keys, always ending with id so the order is total. */
export function orderBySql(r: ResolvedScope, flip = false): SQL {
  const dir = sql.raw((r.dir === 'desc') !== flip ? 'desc' : 'asc');
  return sql.join([...r.keys.map((k) => sql`${k.expr} ${dir}`), sql`contacts.id ${dir}`], sql`, `);
}

export interface Cursor {
  f: string;
  o: string;
  k: string[];
  id: number;
}

export function encodeCursor(c: Cursor): string {
  return Buffer.from(JSON.stringify(c)).toString('base64url');
}

export function decodeCursor(raw: string, r: ResolvedScope): Cursor {
  try {
    const c = JSON.parse(Buffer.from(raw, 'base64url').toString()) as Cursor;
    const field = isDuplicateLookup(r.scope) ? 'duplicate_key' : r.scope.order_field;
    if (c.f !== field || c.o !== r.dir || !Array.isArray(c.k) || c.k.length !== r.keys.length) throw new Error();
    if (!Number.isSafeInteger(c.id) || c.k.some((k) => typeof k !== 'string')) throw new Error();
    return c;
  } catch {
    throw invalid('cursor', 'is not a cursor of this list (order changed?)');
  }
}

/** Rows strictly after the cursor in list order: a row comparison the (company, key..., id) index can seek to. */
export function afterCursorSql(r: ResolvedScope, c: Cursor): SQL {
  const left = sql.join([...r.keys.map((k) => k.expr), sql`contacts.id`], sql`, `);
  const right = sql.join([...r.keys.map((k, i) => sql`${c.k[i]}::${sql.raw(k.cast)}`), sql`${c.id}::bigint`], sql`, `);
  return r.dir === 'desc' ? sql`(${left}) < (${right})` : sql`(${left}) > (${right})`;
}

export function cursorFieldName(r: ResolvedScope): string {
  return isDuplicateLookup(r.scope) ? 'duplicate_key' : r.scope.order_field;
}
