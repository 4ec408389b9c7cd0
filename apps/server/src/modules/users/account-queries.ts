/** Reads of the signed-in user's own account records, shared by their routes and the current-user presenter. */
import type { ApiKey } from '@harbor/shared';
import { and, asc, desc, eq, isNull, max, type Placeholder, sql } from 'drizzle-orm';
import { apiKeys, sessions } from '../../platform/auth/schema.js';
import type { Db } from '../../platform/db/client.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { favoriteUsers } from './schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;
/** A value, or a placeholder filled when a prepared statement runs (me-query.ts). */
type Value = number | Placeholder;

export function presentApiKey(k: ApiKeyRow): ApiKey {
  return {
    id: k.id,
    name: k.name,
    token_prefix: k.tokenPrefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

/** The user's live keys, oldest first (whole rows: me-query.ts embeds it as a subquery). */
export const apiKeysQuery = (db: Db, userId: Value) =>
  db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.id));

export async function listApiKeys(db: Db, userId: number) {
  return (await apiKeysQuery(db, userId)).map(presentApiKey);
}

/** The ids of the user's favourite colleagues, in the order they were picked. */
export const favoritesQuery = (db: Db, userId: Value) =>
  db
    .select({ id: sql<number>`${favoriteUsers.favoriteUserId}`.as('id') })
    .from(favoriteUsers)
    .where(eq(favoriteUsers.userId, userId))
    .orderBy(asc(favoriteUsers.createdAt), asc(favoriteUsers.favoriteUserId));

/**
 * Addresses the user signed in from, newest first, derived from their sessions. Sessions started by someone
 * impersonating them (a non-empty login stack) are left out: that address is the admin's, not the user's.
 */
const authIpsWhere = (userId: Value) =>
  and(
    eq(sessions.userId, userId),
    sql`${sessions.ip} IS NOT NULL`,
    sql`jsonb_array_length(${sessions.loginStack}) = 0`,
  );

export const authIpsCountQuery = (db: Db, userId: Value) =>
  db
    .select({ total: sql<number>`count(DISTINCT ${sessions.ip})::int`.as('total') })
    .from(sessions)
    .where(authIpsWhere(userId));

export const authIpsPageQuery = (db: Db, userId: Value, page: number, limit: number) => {
  const last = max(sessions.createdAt);
  return db
    .select({ ip: sessions.ip, last: sql<Date | string>`${last}`.as('last'), n: sql<number>`count(*)::int`.as('n') })
    .from(sessions)
    .where(authIpsWhere(userId))
    .groupBy(sessions.ip)
    .orderBy(desc(last))
    .limit(limit)
    .offset(pageOffset(page, limit));
};

export function authIpsPage(
  rows: Array<{ ip: string | null; last: Date | string; n: number }>,
  total: number,
  page: number,
  limit: number,
) {
  const meta = pageMeta(page, limit, total);
  return {
    data: rows.map((r) => ({ ip: r.ip!, last_sign_in_at: new Date(r.last).toISOString(), sign_in_count: r.n })),
    meta,
  };
}

export async function listAuthIps(db: Db, userId: number, page = 1, limit = 25) {
  const [[{ total }], rows] = await Promise.all([
    authIpsCountQuery(db, userId),
    authIpsPageQuery(db, userId, page, limit),
  ]);
  return authIpsPage(rows, total, page, limit);
}
