/**
 * Sign-in throttling (docs/decisions/sign-in-throttling.md, OWASP ASVS 5.0 V6.3.1): slow the guesser down, never
 * lock the owner out.
 *   - Per (login, address): after FREE_FAILURES failures within the hour, each next attempt from that address for
 *     that login waits 2^(n - FREE_FAILURES) seconds after the last failure (at most 15 minutes); an attempt inside
 *     the wait is refused with 429 and Retry-After before the password is even checked. An attacker's addresses
 *     slow only themselves; the owner at their own address is not affected.
 *   - Per account: past ACCOUNT_CEILING failures within the hour from all addresses together (a distributed
 *     attack), the right password from an address this account never signed in from is not enough: the sign-in
 *     continues with a one-time code emailed to the account. From a known address it goes through as usual.
 *   - Everything is keyed by the login as typed (lower-cased), so an email without an account is throttled exactly
 *     like one with an account, and the answers and their timing are the same.
 *   - A successful sign-in clears that address's failures; a password reset clears all of the account's.
 */
import { MAX_FAILED_SIGNINS_PER_HOUR } from '@harbor/shared';
import { and, count, eq, gt, max, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sessions, signInFailures } from '../../platform/auth/schema.js';
import type { Db } from '../../platform/db/client.js';
import type { UserRow } from '../../platform/db/schema.js';
import { HttpError } from '../../platform/http/errors.js';

export const FREE_FAILURES = 5;
const MAX_WAIT_S = 15 * 60;
const WINDOW_MS = 3_600_000;
export const ACCOUNT_CEILING = MAX_FAILED_SIGNINS_PER_HOUR;
/** An address the account signed in from within this long counts as known. */
const KNOWN_ADDRESS_DAYS = 90;

export const loginKey = (login: string) => login.trim().toLowerCase();

/** Seconds to wait after the last failure once `failures` have happened from one address. */
export const waitAfter = (failures: number) =>
  failures < FREE_FAILURES ? 0 : Math.min(MAX_WAIT_S, 2 ** (failures - FREE_FAILURES));

/** 429 with Retry-After while this (login, address) must wait; the password is not checked then. */
export async function assertNotThrottled(app: FastifyInstance, req: FastifyRequest, login: string) {
  const since = new Date(Date.now() - WINDOW_MS);
  const [row] = await app.deps.database.db
    .select({ n: count(), last: max(signInFailures.createdAt) })
    .from(signInFailures)
    .where(
      and(
        eq(signInFailures.email, loginKey(login)),
        eq(signInFailures.ip, req.ip),
        gt(signInFailures.createdAt, since),
      ),
    );
  const wait = waitAfter(row.n);
  if (!wait || !row.last) return;
  const left = Math.ceil((new Date(row.last).getTime() + wait * 1000 - Date.now()) / 1000);
  if (left <= 0) return;
  throw new HttpError(
    429,
    {
      user: [
        `Too many failed sign-in attempts from this address. Wait ${left} second${left === 1 ? '' : 's'} and try again, or reset your password.`,
      ],
    },
    { 'retry-after': String(left) },
  );
}

/**
 * True when the account is under a distributed attack (past the ceiling) and this address never signed in to it:
 * the right password must then be followed by an emailed code.
 */
export async function needsEmailStepUp(db: Db, req: FastifyRequest, user: UserRow): Promise<boolean> {
  const since = new Date(Date.now() - WINDOW_MS);
  const [{ n }] = await db
    .select({ n: count() })
    .from(signInFailures)
    .where(
      and(
        or(eq(signInFailures.userId, user.id), eq(signInFailures.email, loginKey(user.email))),
        gt(signInFailures.createdAt, since),
      ),
    );
  if (n < ACCOUNT_CEILING) return false;
  const knownSince = new Date(Date.now() - KNOWN_ADDRESS_DAYS * 86_400_000);
  const [known] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, user.id),
        eq(sessions.ip, req.ip),
        eq(sessions.state, 'active'),
        gt(sessions.createdAt, knownSince),
        sql`jsonb_array_length(${sessions.loginStack}) = 0`,
      ),
    )
    .limit(1);
  return !known;
}

/** A successful sign-in forgets this address's failures for the login (and the account's email). */
export async function clearAddressFailures(db: Db, req: FastifyRequest, logins: string[]) {
  const keys = [...new Set(logins.map(loginKey))];
  await db
    .delete(signInFailures)
    .where(and(eq(signInFailures.ip, req.ip), or(...keys.map((k) => eq(signInFailures.email, k)))));
}

/** A password reset forgets every failure of the account, from every address. */
export async function clearAccountFailures(db: Db, user: Pick<UserRow, 'id' | 'email' | 'username'>) {
  await db
    .delete(signInFailures)
    .where(
      or(
        eq(signInFailures.userId, user.id),
        eq(signInFailures.email, loginKey(user.email)),
        eq(signInFailures.email, loginKey(user.username)),
      ),
    );
}
