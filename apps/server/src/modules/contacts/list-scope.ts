/**
 * The contacts scope (crm-core §3) as SQL: one WHERE condition on alias `contacts` built from visibility, group view,
 * pool, downline picker, field filters and `q`, plus the ordering and its keyset cursor. Lists, bulk selections,
 * exports and transfers all go through here, so "the filtered set" means the same rows everywhere.
 */
import {
  CONTACT_FILTER_FIELDS,
  CONTACT_ORDER_FIELDS,
  type ContactFilterField,
  type ContactOrderField,
  type ContactsScope,
  ContactsScope as ContactsScopeSchema,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { downlineIdsSql } from '../../platform/downline.js';
import { forbidden, invalid, notFound } from '../../platform/http/errors.js';
import { reachOf, visibleContactsSql } from './visibility.js';

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

export interface ResolvedScope {
  scope: ContactsScope;
  where: SQL;
  keys: OrderKey[];
  dir: 'asc' | 'desc';
}

/** Checks the scope's names and limits (422 naming the field), then builds its WHERE (which may need lookups). */
export async function resolveScope(db: Db, auth: AuthContext, scope: ContactsScope): Promise<ResolvedScope> {
  const orderField = isDuplicateLookup(scope) ? 'duplicate_key' : scope.order_field;
  if (orderField !== 'duplicate_key' && !(CONTACT_ORDER_FIELDS as readonly string[]).includes(orderField)) {
    throw invalid('order_field', `unknown order field '${orderField}'`);
  }
  const parts: SQL[] = [visibleContactsSql(auth)];
  parts.push(
    scope.contact_group === 'deleted' ? sql`contacts.deleted_at is not null` : sql`contacts.deleted_at is null`,
  );
  if (scope.pool_id !== 'mine') parts.push(await poolCondition(db, auth, scope.pool_id));
  const owners = await ownerCondition(db, auth, scope);
  if (owners) parts.push(owners);
  parts.push(...filterConditions(scope));
  if (scope.q?.trim()) parts.push(sql`contacts.search like ${`%${likeEscape(scope.q.trim().toLowerCase())}%`}`);
  if (scope.category) parts.push(sql`contacts.category = ${scope.category}`);
  if (scope.type) parts.push(sql`contacts.type = ${scope.type}`);
  let where = sql.join(parts, sql` and `);
  if (isDuplicateLookup(scope)) {
    const key = duplicateKeySql(scope);
    where = sql`${where} and ${key} in (select ${key} from contacts where ${where} group by 1 having count(*) > 1)`;
  }
  return {
    scope,
    where,
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
    const inReach =
      reach === 'company'
        ? sql`select id from users where company_id = ${c}`
        : reach === 'business_unit'
          ? sql`select id from users where company_id = ${c} and business_unit_id = ${auth.user.businessUnitId}`
          : downlineIdsSql(c, me);
    const [ok] = await rowsOf<{ ok: boolean }>(
      db,
      sql`select exists (select 1 from users where id = ${target} and company_id = ${c} and id in ${inReach}) as ok`,
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

export function likeEscape(s: string): string {
  return s.replace(/[\\%_]/g, (m) => `\\${m}`);
}

const isEmpty = (v: unknown) =>
  v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && !v.length);

/** The `search` array: empty entries are dropped (spec §5); an unknown field is a 422 that names it. */
function filterConditions(scope: ContactsScope): SQL[] {
  const out: SQL[] = [];
  for (const [i, entry] of scope.search.entries()) {
    if (!(entry.field in CONTACT_FILTER_FIELDS)) {
      throw invalid('search', `unknown filter field '${entry.field}'`);
    }
    if (isEmpty(entry.value)) continue;
    out.push(filterSql(entry.field as ContactFilterField, entry.value, i));
  }
  return out;
}

const col = (field: string) => sql.raw(`contacts.${field}`);

function filterSql(field: ContactFilterField, value: unknown, i: number): SQL {
  const list = (Array.isArray(value) ? value : [value]).map(String);
  const ints = () => {
    const n = list.map(Number);
    if (n.some((x) => !Number.isInteger(x) || x <= 0)) throw invalid('search', `'${field}' takes ids (entry ${i})`);
    return n;
  };
  switch (CONTACT_FILTER_FIELDS[field]) {
    case 'contains':
      return sql`${col(field)} ilike ${`%${likeEscape(list[0])}%`}`;
    case 'phone': {
      const digits = list[0].replace(/\D/g, '');
      if (!digits) throw invalid('search', `'phone' takes digits (entry ${i})`);
      return sql`contacts.phone like ${`%${digits}%`}`;
    }
    case 'equals': {
      const values = field === 'state' ? list.map((v) => v.toUpperCase()) : list;
      return sql`${col(field)} = any(${sql.param(values)}::text[])`;
    }
    case 'id':
      return sql`${col(field)} = any(${sql.param(ints())}::int[])`;
    case 'tags':
      return sql`exists (select 1 from contact_tags ct where ct.contact_id = contacts.id and ct.tag_id = any(${sql.param(ints())}::int[]))`;
    case 'boolean':
      return sql`contacts.is_new = ${list[0] === 'true'}`;
    case 'date_from':
    case 'date_to': {
      const d = list[0];
      if (!/^\d{4}-\d{2}-\d{2}$/.test(d) || Number.isNaN(Date.parse(d))) {
        throw invalid('search', `'${field}' takes a date YYYY-MM-DD (entry ${i})`);
      }
      return CONTACT_FILTER_FIELDS[field] === 'date_from'
        ? sql`contacts.created_at >= ${d}::date`
        : sql`contacts.created_at < ${d}::date + 1`;
    }
    case 'month': {
      const m = Number(list[0]);
      if (!Number.isInteger(m) || m < 1 || m > 12) throw invalid('search', `'birth_month' takes 1-12 (entry ${i})`);
      return sql`extract(month from contacts.date_of_birth) = ${m}`;
    }
  }
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
