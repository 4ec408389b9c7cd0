/** Reads of the signed-in user's own account records, shared by their routes and the current-user presenter. */
import type { ApiKey, PageMeta } from '@harbor/shared';
import { and, asc, count, desc, eq, isNull, max, sql } from 'drizzle-orm';
import { apiKeys, sessions } from '../../platform/auth/schema.js';
import type { Db } from '../../platform/db/client.js';
import { favoriteUsers } from './schema.js';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export function presentApiKey(k: ApiKeyRow): ApiKey {
  return {
    id: k.id,
    name: k.name,
    token_prefix: k.tokenPrefix,
    created_at: k.createdAt.toISOString(),
    last_used_at: k.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listApiKeys(db: Db, userId: number) {
  const rows = await db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.id));
  return rows.map(presentApiKey);
}

export async function favoriteIds(db: Db, userId: number) {
  const rows = await db
    .select({ id: favoriteUsers.favoriteUserId })
    .from(favoriteUsers)
    .where(eq(favoriteUsers.userId, userId))
    .orderBy(asc(favoriteUsers.createdAt), asc(favoriteUsers.favoriteUserId));
  return rows.map((r) => r.id);
}

/**
 * Addresses the user signed in from, newest first, derived from their sessions. Sessions started by someone
 * impersonating them (a non-empty login stack) are left out: that address is the admin's, not the user's.
 */
export async function listAuthIps(db: Db, userId: number, page = 1, limit = 25) {
  const where = and(
    eq(sessions.userId, userId),
    sql`${sessions.ip} IS NOT NULL`,
    sql`jsonb_array_length(${sessions.loginStack}) = 0`,
  );
  const [{ total }] = await db
    .select({ total: sql<number>`count(DISTINCT ${sessions.ip})::int` })
    .from(sessions)
    .where(where);
  const last = max(sessions.createdAt);
  const rows = await db
    .select({ ip: sessions.ip, last, n: count() })
    .from(sessions)
    .where(where)
    .groupBy(sessions.ip)
    .orderBy(desc(last))
    .limit(limit)
    .offset((page - 1) * limit);
  const meta: PageMeta = { current_page: page, limit, total_count: total, total_pages: Math.ceil(total / limit) };
  return {
    data: rows.map((r) => ({ ip: r.ip!, last_sign_in_at: r.last!.toISOString(), sign_in_count: r.n })),
    meta,
  };
}
