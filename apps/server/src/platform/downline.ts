/**
 * The user tree of a company (users.manager_id = upline): who is below and above whom. "Me and everyone below
 * me" is ONE indexed lookup: users.tree_path (the ids from the top down to the user, kept by triggers on manager_id,
 * migration user_tree_path_triggers) contains my id exactly for me and the people below me, and a GIN index answers
 * `tree_path @> ARRAY[me]`. The reach rule (reach.ts) and everything built on it embed the same fragment.
 * Measured in bench/downline.ts (10,000 users, depth 10).
 */
import { and, eq, type SQL, sql } from 'drizzle-orm';
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
  const res = await db.execute<{ id: number }>(sql`SELECT id FROM ${downlineIdsSql(companyId, userId)} AS d(id)`);
  return res.rows.map((r) => Number(r.id));
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
