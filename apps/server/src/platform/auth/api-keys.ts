/**
 * API keys as credentials: `Authorization: Bearer <token>`. The token is 256 random bits with a recognisable prefix;
 * only its SHA-256 is stored, so it is shown once (create / refresh) and never again. Every request looks the key up
 * afresh: a revoked key, or the key of a deleted user, is refused on the very next call.
 */
import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { companies, users } from '../db/schema.js';
import { apiKeys } from './schema.js';
import { hashToken, newToken } from './tokens.js';

export const API_KEY_PREFIX = 'hk_';
/** Characters of the token kept in clear so its owner can tell keys apart. */
const SHOWN = 10;
const TOUCH_INTERVAL_MS = 60_000;

export function newApiKeyToken() {
  const token = `${API_KEY_PREFIX}${newToken()}`;
  return { token, tokenHash: hashToken(token), tokenPrefix: token.slice(0, SHOWN) };
}

export async function findApiKey(db: Db, token: string) {
  if (!token.startsWith(API_KEY_PREFIX) || token.length > 200) return null;
  const [row] = await db
    .select({ key: apiKeys, user: users, company: companies })
    .from(apiKeys)
    .innerJoin(users, eq(users.id, apiKeys.userId))
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(and(eq(apiKeys.tokenHash, hashToken(token)), isNull(apiKeys.revokedAt), isNull(users.deletedAt)))
    .limit(1);
  if (!row) return null;
  const last = row.key.lastUsedAt?.getTime() ?? 0;
  if (Date.now() - last > TOUCH_INTERVAL_MS) {
    await db.update(apiKeys).set({ lastUsedAt: new Date() }).where(eq(apiKeys.id, row.key.id));
  }
  return row;
}
