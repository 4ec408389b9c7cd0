/**
 * The user tree of a company (users.manager_id = upline) and who a caller reaches in it. "Me and everyone below
 * me" is ONE indexed lookup: users.tree_path (the ids from the top down to the user, kept by triggers on manager_id,
 * migration user_tree_path_triggers) contains my id exactly for me and the people below me, and a GIN index answers
 * `tree_path @> ARRAY[me]`. User admin, team, contacts visibility and events all embed the same fragment.
 * Measured in bench/downline.ts (10,000 users, depth 10).
 */
import { effectiveRank, MANAGER_ROLES, type Role } from '@harbor/shared';
import { and, eq, inArray, isNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from './auth/context.js';
import type { Db } from './db/client.js';
import { users } from './db/schema.js';

/**
 * A subquery yielding the ids of `userId` and everyone below them, any depth, in `companyId`. Use it inside other
 * queries: `sql\`contacts.owner_id IN ${downlineIdsSql(c, u)}\``. A path never crosses companies (the trigger
 * starts a new tree at a manager of another company) and the company is checked too. Deleted users are left out
 * but for the root (their reports are moved up to their upline on delete, so nobody is cut off).
 */
export function downlineIdsSql(companyId: number, userId: number): SQL {
  return sql`(SELECT u.id FROM users u WHERE u.company_id = ${companyId}
    AND u.tree_path @> ARRAY[${userId}::integer] AND (u.deleted_at IS NULL OR u.id = ${userId}))`;
}

/** A subquery yielding the ids of `userId` and everyone above them (manager, their manager, ...) in `companyId`. */
export function uplineIdsSql(companyId: number, userId: number): SQL {
  return sql`(SELECT p.id FROM users me CROSS JOIN LATERAL unnest(me.tree_path) AS p(id)
    WHERE me.id = ${userId} AND me.company_id = ${companyId})`;
}

/** The ids of `userId` and everyone below them (deleted users excluded): the fragment alone, no outer scan. */
export async function downlineUserIds(db: Db, companyId: number, userId: number): Promise<number[]> {
  const res = await db.execute(sql`SELECT id FROM ${downlineIdsSql(companyId, userId)} AS d(id)`);
  return (res as unknown as { rows: Array<{ id: number }> }).rows.map((r) => Number(r.id));
}

/** True when `candidateId` is `userId` or below them: the cycle check before a new upline is set. */
export async function isInDownline(db: Db, companyId: number, userId: number, candidateId: number) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, candidateId),
        eq(users.companyId, companyId),
        sql`${users.treePath} @> ARRAY[${userId}::integer]`,
      ),
    );
  return Boolean(row);
}

export type ReachLevel = 'company' | 'business_unit' | 'downline' | 'self';

const isCompanyAdmin = (roles: readonly Role[]) => roles.includes('admin') || roles.includes('sub_admin');

/**
 * How far a caller's authority over other users extends: admins the whole company, a BU admin their business unit
 * (and their own downline), managers (and pool holders) their downline, everyone else only themselves.
 */
export function reachLevel(roles: readonly Role[]): ReachLevel {
  if (isCompanyAdmin(roles)) return 'company';
  if (roles.includes('bu_admin')) return 'business_unit';
  if (roles.some((r) => MANAGER_ROLES.includes(r)) || roles.includes('pool_holder')) return 'downline';
  return 'self';
}

/**
 * A condition over `users` selecting the users the caller may see and act on, never outside the company, never
 * deleted. Below company level the caller is left out: a manager manages the people under them, not themselves
 * (their own account has its own routes), so no admin route can be turned on oneself to raise one's own standing.
 */
export function reachCondition(auth: AuthContext): SQL {
  const { user, company } = auth;
  const base = and(eq(users.companyId, company.id), isNull(users.deletedAt))!;
  const level = reachLevel(user.roles as Role[]);
  if (level === 'company') return base;
  if (level === 'self') return and(base, eq(users.id, user.id))!;
  const downline = sql`${users.id} IN ${downlineIdsSql(company.id, user.id)}`;
  const scope =
    level === 'business_unit' && user.businessUnitId
      ? or(eq(users.businessUnitId, user.businessUnitId), downline)!
      : downline;
  return and(base, scope, ne(users.id, user.id))!;
}

/**
 * The rank rule on top of reach: nobody acts on a user who outranks them (a BU admin cannot edit a System Admin
 * who happens to sit in their unit; a sub_admin cannot edit the System Admin).
 */
export function outranks(actorRoles: readonly Role[], targetRoles: readonly Role[]) {
  return effectiveRank(targetRoles) > effectiveRank(actorRoles);
}

/** Of `ids`, those the caller reaches: one query for a whole set (bulk checks, pickers). */
export async function reachableIds(db: Db, auth: AuthContext, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: users.id })
    .from(users)
    .where(and(reachCondition(auth), inArray(users.id, ids)));
  return new Set(rows.map((r) => r.id));
}
