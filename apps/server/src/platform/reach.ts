/**
 * Who reaches whom: the ONE rule (docs/decisions/user-reach.md). Every area that asks "may this caller see or act on
 * things belonging to that user" (contacts by owner, import and transfer attempts by author, owners one may assign,
 * users one may manage) takes its answer from here, as a SQL fragment or as the JS predicate `reaches`, and the two
 * are tested to agree for every pair of demo users (reach.test.ts).
 *
 *   company        admin, sub_admin: every user of the company
 *   business_unit  bu_admin with a unit: the unit's users and the caller's own downline
 *   downline       managers (all four kinds), pool holders, and a bu_admin without a unit: themselves and everyone
 *                  below them, any depth
 *   own            everyone else: only themselves
 *
 * Pools are not part of user reach: holding a pool shows its contacts to any role (contacts/visibility.ts adds it).
 */
import { effectiveRank, MANAGER_ROLES, type Role } from '@harbor/shared';
import { and, eq, inArray, isNull, ne, type SQL, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { AuthContext } from './auth/context.js';
import type { Db } from './db/client.js';
import { users } from './db/schema.js';
import { downlineIdsSql } from './downline.js';

export type Reach = 'company' | 'business_unit' | 'downline' | 'own';

/** The caller as the rule needs them: their roles and unit (a user row or an AuthContext's user). */
export interface Reacher {
  id: number;
  companyId: number;
  roles: readonly string[];
  businessUnitId: number | null;
}

/** A user as the JS predicate needs them (tree_path holds the ids from the top of the tree down to the user). */
export interface ReachTarget {
  id: number;
  companyId: number;
  businessUnitId: number | null;
  treePath: readonly number[];
  deletedAt?: Date | null;
}

const reacherOf = (who: AuthContext | Reacher): Reacher => ('user' in who ? who.user : who);

export function reachOf(who: AuthContext | Reacher): Reach {
  const me = reacherOf(who);
  const roles = me.roles as readonly Role[];
  if (roles.includes('admin') || roles.includes('sub_admin')) return 'company';
  if (roles.includes('bu_admin') && me.businessUnitId) return 'business_unit';
  // Pool holders belong to the spec's admin-level group (they may manage users and transfer contacts), so they
  // reach the people below them like a manager; a bu_admin without a unit keeps their own tree.
  if (roles.some((r) => MANAGER_ROLES.includes(r)) || roles.includes('pool_holder') || roles.includes('bu_admin')) {
    return 'downline';
  }
  return 'own';
}

/**
 * A subquery of the ids of the users the caller reaches, themselves included, never outside the company and never
 * deleted (but for the caller): `sql\`x.user_id in ${reachedUserIdsSql(auth)}\``.
 */
export function reachedUserIdsSql(who: AuthContext | Reacher): SQL {
  const me = reacherOf(who);
  const c = me.companyId;
  switch (reachOf(me)) {
    case 'company':
      return sql`(select u.id from users u where u.company_id = ${c} and (u.deleted_at is null or u.id = ${me.id}))`;
    case 'business_unit':
      return sql`(select u.id from users u where u.company_id = ${c}
        and (u.business_unit_id = ${me.businessUnitId} or u.tree_path @> array[${me.id}::integer])
        and (u.deleted_at is null or u.id = ${me.id}))`;
    case 'downline':
      return downlineIdsSql(c, me.id);
    default:
      return sql`(select ${me.id}::integer)`;
  }
}

/**
 * A condition: the user id in `column` is one the caller reaches (themselves included). At company level it is
 * `true`: the query's own `company_id` condition (every tenant query has one) is the bound, and rows of deleted
 * users stay visible to admins. Below it, the owner must be reached; `own` is a plain equality so the planner can
 * use an owner index.
 */
export function reachesUserSql(who: AuthContext | Reacher, column: SQL | PgColumn): SQL {
  const me = reacherOf(who);
  switch (reachOf(me)) {
    case 'company':
      return sql`true`;
    case 'own':
      return sql`${column} = ${me.id}`;
    default:
      return sql`${column} in ${reachedUserIdsSql(me)}`;
  }
}

/** The same rule in JS, for a user row already in hand (live fan-out, presenters): agrees with the SQL above. */
export function reaches(who: AuthContext | Reacher, target: ReachTarget): boolean {
  const me = reacherOf(who);
  if (target.companyId !== me.companyId) return false;
  if (target.id === me.id) return true;
  if (target.deletedAt) return false;
  const below = target.treePath.includes(me.id);
  switch (reachOf(me)) {
    case 'company':
      return true;
    case 'business_unit':
      return target.businessUnitId === me.businessUnitId || below;
    case 'downline':
      return below;
    default:
      return false;
  }
}

/**
 * Over `users`: the users an admin route may act on, never outside the company, never deleted. Below company level
 * the caller is left out: a manager manages the people under them, not themselves (their own account has its own
 * routes), so no admin route can be turned on oneself to raise one's own standing.
 */
export function reachCondition(auth: AuthContext): SQL {
  const { user, company } = auth;
  const base = and(eq(users.companyId, company.id), isNull(users.deletedAt))!;
  const level = reachOf(auth);
  if (level === 'company') return base;
  if (level === 'own') return and(base, eq(users.id, user.id))!;
  return and(base, reachesUserSql(auth, users.id), ne(users.id, user.id))!;
}

/**
 * The rank rule on top of reach: nobody acts on a user who outranks them (a BU admin cannot edit a System Admin
 * who happens to sit in their unit; a sub_admin cannot edit the System Admin).
 */
export function outranks(actorRoles: readonly Role[], targetRoles: readonly Role[]) {
  return effectiveRank(targetRoles) > effectiveRank(actorRoles);
}

/** Of `ids`, those the caller may manage (reachCondition): one query for a whole set (bulk checks, pickers). */
export async function reachableIds(db: Db, auth: AuthContext, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(reachCondition(auth), inArray(users.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** True when the user id `ownerId` (live, in the company) is one the caller reaches: one indexed lookup. */
export async function reachesUser(db: Db, auth: AuthContext, ownerId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, ownerId),
        eq(users.companyId, auth.company.id),
        isNull(users.deletedAt),
        reachesUserSql(auth, users.id),
      ),
    );
  return Boolean(row);
}
