/** Reads of managed users: always inside the caller's reach (platform/downline.ts), one query per page. */
import type { AdminUsersQuery } from '@harbor/shared';
import { and, asc, count, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { AuthContext } from '../../../platform/auth/context.js';
import type { Db } from '../../../platform/db/client.js';
import { businessUnits, type UserRow, users } from '../../../platform/db/schema.js';
import { pageMeta, pageOffset } from '../../../platform/http/paging.js';
import { reachCondition } from '../../../platform/reach.js';
import { presentAdminUser } from './presenter.js';

const managers = alias(users, 'managers');

function selectWithRelations(db: Db) {
  return db
    .select({
      user: users,
      bu: { id: businessUnits.id, number: businessUnits.number, name: businessUnits.name },
      manager: { id: managers.id, firstName: managers.firstName, lastName: managers.lastName },
    })
    .from(users)
    .leftJoin(businessUnits, eq(businessUnits.id, users.businessUnitId))
    .leftJoin(managers, eq(managers.id, users.managerId));
}

type Row = {
  user: UserRow;
  bu: { id: number; number: string; name: string } | null;
  manager: { id: number; firstName: string; lastName: string } | null;
};
const present = (r: Row) => presentAdminUser(r.user, r.bu, r.manager);

/** Escapes LIKE wildcards so a search for "50%" means the characters, not a pattern. */
const likeTerm = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

export async function listUsers(db: Db, auth: AuthContext, q: AdminUsersQuery) {
  const where: SQL[] = [reachCondition(auth)];
  if (q.q) {
    const term = likeTerm(q.q);
    where.push(
      or(
        ilike(users.firstName, term),
        ilike(users.lastName, term),
        ilike(users.email, term),
        ilike(users.username, term),
        ilike(users.number, term),
        sql`(${users.firstName} || ' ' || ${users.lastName}) ILIKE ${term}`,
      )!,
    );
  }
  if (q.role) where.push(sql`${q.role} = ANY(${users.roles})`);
  if (q.business_unit_id) where.push(eq(users.businessUnitId, q.business_unit_id));
  const condition = and(...where);
  const [{ total }] = await db.select({ total: count() }).from(users).where(condition);
  const rows = await selectWithRelations(db)
    .where(condition)
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(q.limit)
    .offset(pageOffset(q.page, q.limit));
  return { data: rows.map(present), meta: pageMeta(q.page, q.limit, total) };
}

export async function findUserInReach(db: Db, auth: AuthContext, id: number) {
  const [row] = await selectWithRelations(db).where(and(reachCondition(auth), eq(users.id, id)));
  return row ?? null;
}

export async function loadPresentedUser(db: Db, id: number) {
  const [row] = await selectWithRelations(db).where(eq(users.id, id));
  return present(row);
}
