/**
 * Server-side sessions: created at sign-in (a fresh token every time, so a planted cookie is worthless), ended on
 * the server at sign-out, refused after the idle or the absolute timeout.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../db/client.js';
import { companies, users } from '../db/schema.js';
import { setSessionCsrfCookie } from '../http/csrf.js';
import { invalidateAuth } from './invalidation.js';
import { type LoginStackEntry, sessions } from './schema.js';
import { hashToken, newToken } from './tokens.js';

export const SESSION_COOKIE = 'harbor_session';
/** Writes of last_seen_at are skipped within this interval: a busy user does not cost a write per request. */
const TOUCH_INTERVAL_MS = 60_000;
/** A half-signed-in session (waiting for the code) lives 10 minutes at most. */
const OTP_PENDING_MS = 10 * 60_000;

export async function createSession(
  db: Db,
  config: Config,
  req: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; companyId: number },
  state: 'active' | 'otp_pending',
  loginStack: LoginStackEntry[] = [],
  /** An absolute end earlier than the usual one (impersonation and returning from it keep the original's end). */
  endsBy?: Date,
) {
  const token = newToken();
  const now = Date.now();
  const ttl = state === 'otp_pending' ? OTP_PENDING_MS : config.sessionAbsoluteHours * 3_600_000;
  const expiresAt = endsBy && endsBy.getTime() < now + ttl ? endsBy : new Date(now + ttl);
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      userId: user.id,
      companyId: user.companyId,
      state,
      loginStack,
      ip: req.ip,
      userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500),
      expiresAt,
    })
    .returning();
  const opts = cookieOptions(config, req);
  reply.setCookie(SESSION_COOKIE, token, opts);
  // A new session, a new CSRF token: nothing issued before sign-in works after it.
  setSessionCsrfCookie(reply, config, opts.secure, row);
  return row;
}

export function cookieOptions(config: Config, req: FastifyRequest) {
  // Secure everywhere but plain-http localhost, where browsers would drop a Secure cookie.
  const local = /^(localhost|127\.0\.0\.1|\[::1\])(:\d+)?$/.test(req.hostname) || config.environment === 'test';
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure: !local };
}

export async function findSession(db: Db, config: Config, token: string) {
  const idleCutoff = new Date(Date.now() - config.sessionIdleMinutes * 60_000);
  const [row] = await db
    .select({ session: sessions, user: users, company: companies })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .innerJoin(companies, eq(companies.id, sessions.companyId))
    .where(
      and(
        eq(sessions.tokenHash, hashToken(token)),
        isNull(sessions.endedAt),
        gt(sessions.expiresAt, new Date()),
        gt(sessions.lastSeenAt, idleCutoff),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  if (row && Date.now() - row.session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    const touched = new Date();
    await db.update(sessions).set({ lastSeenAt: touched }).where(eq(sessions.id, row.session.id));
    // The row may be cached (session-cache.ts): it carries the time just written, not the one it replaced.
    row.session.lastSeenAt = touched;
  }
  return row ?? null;
}

/** The id of the session behind a token whatever its state (only asked once the live lookup found none). */
export async function findEndedSessionId(db: Db, token: string): Promise<number | null> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.tokenHash, hashToken(token)))
    .limit(1);
  return row ? Number(row.id) : null;
}

export async function endSession(db: Db, sessionId: number) {
  await db.update(sessions).set({ endedAt: new Date() }).where(eq(sessions.id, sessionId));
  invalidateAuth({ sessions: [sessionId] });
}

/** Ends every session of a user (after a password reset or change), optionally sparing the current one. */
export async function endUserSessions(db: Db, userId: number, exceptSessionId?: number) {
  await db
    .update(sessions)
    .set({ endedAt: new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.endedAt),
        exceptSessionId ? sql`${sessions.id} <> ${exceptSessionId}` : undefined,
      ),
    );
  // The spared session goes from the cache too: its user row (password, second factor) just changed.
  invalidateAuth({ users: [userId] });
}
