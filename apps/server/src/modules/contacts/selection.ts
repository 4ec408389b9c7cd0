/**
 * A bulk selection as one SQL subquery of contact ids: chosen `ids` (every one checked against the caller's visible
 * set in one query; any foreign or unknown id makes the whole request 404 before anything changes) or `all` with a
 * contacts scope (every matching contact, not just the page; `select_n` keeps the first n in list order).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { fullScope, orderBySql, resolveScope, rowsOf } from './list-scope.js';
import { visibleContactsSql } from './visibility.js';

export interface SelectionBody {
  ids?: number[];
  all?: boolean;
  contacts_scope?: unknown;
}

export interface ResolvedSelection {
  /** The selection as a condition on alias `contacts` (exports page through it by id). */
  condition: SQL;
  /** `select contacts.id from contacts where ...` — use as `contacts.id in (<idsSql>)`. */
  idsSql: SQL;
  /** The selection as given, for records (transfer attempts, audit). */
  describe: Record<string, unknown>;
}

/** `group`: 'live' selections skip soft-deleted contacts, 'deleted' only take them (restore), 'any' takes both. */
export async function resolveSelection(
  db: Db,
  auth: AuthContext,
  body: SelectionBody,
  group: 'live' | 'deleted' | 'any' = 'live',
): Promise<ResolvedSelection> {
  const c = auth.company.id;
  if (!body.all) {
    const ids = [...new Set(body.ids ?? [])];
    if (!ids.length) throw invalid('ids', 'choose at least one contact');
    const [{ n }] = await rowsOf<{ n: number }>(
      db,
      sql`select count(*)::int as n from contacts where contacts.id = any(${sql.param(ids)}::bigint[]) and ${visibleContactsSql(auth)}`,
    );
    if (n !== ids.length) throw notFound('contact');
    const deleted =
      group === 'live'
        ? sql` and contacts.deleted_at is null`
        : group === 'deleted'
          ? sql` and contacts.deleted_at is not null`
          : sql``;
    const condition = sql`contacts.company_id = ${c} and contacts.id = any(${sql.param(ids)}::bigint[])${deleted}`;
    return {
      condition,
      idsSql: sql`select contacts.id from contacts where ${condition}`,
      describe: { ids: ids.length },
    };
  }
  const given = (body.contacts_scope ?? {}) as Record<string, unknown>;
  const scope = fullScope({
    ...given,
    // A restore acts on the deleted view whatever the scope says; the other actions never on it.
    ...(group === 'deleted' ? { contact_group: 'deleted' } : {}),
    cursor: null,
  });
  if (group === 'live' && scope.contact_group === 'deleted') {
    throw invalid('contacts_scope.contact_group', 'deleted contacts can only be restored or exported');
  }
  const r = await resolveScope(db, auth, scope);
  const condition = scope.select_n
    ? sql`contacts.id in (select id from (select contacts.id from contacts where ${r.where}
          order by ${orderBySql(r)} limit ${scope.select_n}) first_n)`
    : r.where;
  return {
    condition,
    idsSql: sql`select contacts.id from contacts where ${condition}`,
    describe: { all: true, contacts_scope: given },
  };
}

export async function countSelection(db: Db, sel: ResolvedSelection): Promise<number> {
  const [{ n }] = await rowsOf<{ n: number }>(db, sql`select count(*)::int as n from (${sel.idsSql}) s`);
  return n;
}

/** The timeline entries for every contact a bulk statement touched (`touched` yields `id`), in the same statement. */
export function recordEventsSql(
  touched: SQL,
  auth: AuthContext,
  kind: string,
  data: Record<string, unknown> = {},
): SQL {
  return sql`insert into contact_events (company_id, contact_id, kind, data, actor_id)
    select ${auth.company.id}, t.id, ${kind}, ${JSON.stringify(data)}::jsonb, ${auth.user.id} from (${touched}) t`;
}
