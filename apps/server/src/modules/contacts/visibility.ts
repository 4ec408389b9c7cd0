/**
 * Who sees which contacts: the owner is someone the caller reaches (platform/reach.ts, the one rule: admins the
 * company, a BU admin their unit and downline, managers and pool holders their downline, everyone else themselves),
 * or the contact sits in a pool the caller holds. Another company's contacts are never visible (404). One SQL
 * condition, so lists, bulk selections and single lookups agree.
 */

import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';

/** The WHERE condition (on table alias `contacts`) for contacts the caller may see; excludes nothing deleted. */
export function visibleContactsSql(auth: AuthContext): SQL {
  const c = auth.company.id;
  if (reachOf(auth) === 'company') return sql`contacts.company_id = ${c}`;
  // `= any(array(...))` is computed once before the scan, so with `owner_id = me` the planner can OR two index
  // scans (owner, pool) instead of walking the whole company: an agent's first page at a million contacts.
  const pools = sql`contacts.pool_id = any(array(select pool_id from pool_holders where user_id = ${auth.user.id}))`;
  return sql`contacts.company_id = ${c} and (${reachesUserSql(auth, sql`contacts.owner_id`)} or ${pools})`;
}
