/**
 * Who sees which contacts (issue 4): admins their whole company; a BU admin their unit's owners; managers their
 * downline (any depth); everyone their own contacts and those of the pools they hold. Another company's contacts
 * are never visible (404). One SQL condition, so lists, bulk selections and single lookups agree.
 */

import { MANAGER_ROLES, type Role } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import { downlineIdsSql } from '../../platform/downline.js';

export type Reach = 'company' | 'business_unit' | 'downline' | 'own';

export function reachOf(auth: AuthContext): Reach {
  const roles = auth.user.roles as Role[];
  if (roles.includes('admin') || roles.includes('sub_admin')) return 'company';
  if (roles.includes('bu_admin') && auth.user.businessUnitId) return 'business_unit';
  if (roles.some((r) => MANAGER_ROLES.includes(r))) return 'downline';
  return 'own';
}

/** The WHERE condition (on table alias `contacts`) for contacts the caller may see; excludes nothing deleted. */
export function visibleContactsSql(auth: AuthContext): SQL {
  const c = auth.company.id;
  const me = auth.user.id;
  // `= any(array(...))` is computed once before the scan, so with `owner_id = me` the planner can OR two index
  // scans (owner, pool) instead of walking the whole company: an agent's first page at a million contacts.
  const pools = sql`contacts.pool_id = any(array(select pool_id from pool_holders where user_id = ${me}))`;
  switch (reachOf(auth)) {
    case 'company':
      return sql`contacts.company_id = ${c}`;
    case 'business_unit':
      return sql`contacts.company_id = ${c} and (contacts.owner_id in (select id from users where company_id = ${c} and business_unit_id = ${auth.user.businessUnitId}) or ${pools})`;
    case 'downline':
      return sql`contacts.company_id = ${c} and (contacts.owner_id in ${downlineIdsSql(c, me)} or ${pools})`;
    default:
      return sql`contacts.company_id = ${c} and (contacts.owner_id = ${me} or ${pools})`;
  }
}
