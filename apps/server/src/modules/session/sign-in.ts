/**
 * Sign-in commands: password step, one-time-code step, recovery codes. Kept apart from the routes so the rules read
 * in one place: a wrong email and a wrong password look and take the same. Throttling is in throttle.ts.
 */
import crypto from 'node:crypto';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { burnPasswordTime, verifyPassword } from '../../platform/auth/passwords.js';
import { recoveryCodesLeft, spendRecoveryCode } from '../../platform/auth/recovery-codes.js';
import { emailOtps, signInFailures } from '../../platform/auth/schema.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { checkTotp } from '../../platform/auth/totp.js';
import { companies, type UserRow, users } from '../../platform/db/schema.js';
import { browserTag } from '../../platform/http/csrf.js';
import { loginKey } from './throttle.js';

export const INVALID_CREDENTIALS = 'Invalid email or password';
const EMAIL_OTP_TTL_MS = 10 * 60_000;

export async function findActiveUserByLogin(app: FastifyInstance, login: string) {
  const { db } = app.deps.database;
  const needle = login.trim().toLowerCase();
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(
      and(
        or(sql`lower(${users.email}) = ${needle}`, sql`lower(${users.username}) = ${needle}`),
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  return row ?? null;
}

export async function recordFailure(
  app: FastifyInstance,
  req: FastifyRequest,
  email: string,
  user: UserRow | null,
  event: 'sign_in_failed' | 'otp_failed' = 'sign_in_failed',
) {
  await app.deps.database.db
    .insert(signInFailures)
    .values({ userId: user?.id ?? null, email: loginKey(email), ip: req.ip });
  await app.deps.audit.record(
    { event, companyId: user?.companyId ?? null, userId: user?.id ?? null, data: { email } },
    req,
  );
}

export async function checkPassword(user: UserRow | null, password: string): Promise<boolean> {
  if (!user) {
    await burnPasswordTime(password);
    return false;
  }
  return verifyPassword(user.passwordHash, password);
}

/** Emails a six-digit code that works once, within 10 minutes. */
export async function sendEmailOtp(app: FastifyInstance, user: UserRow, req?: FastifyRequest) {
  const code = String(crypto.randomInt(0, 1_000_000)).padStart(6, '0');
  await app.deps.database.db.insert(emailOtps).values({
    userId: user.id,
    codeHash: hashToken(`${user.id}:${code}`),
    expiresAt: new Date(Date.now() + EMAIL_OTP_TTL_MS),
  });
  await app.deps.mail.send({
    to: user.email,
    subject: 'Your Harbor sign-in code',
    viewer: req ? browserTag(req) : null,
    text: `Your Harbor sign-in code is ${code}. It expires in 10 minutes and works once.\n\nIf you did not try to sign in, change your password.`,
  });
}

/**
 * Checks a code against the authenticator app (TOTP) and any emailed code. On success it is spent: the TOTP step
 * is remembered, the emailed code marked used.
 */
export async function verifyOtp(app: FastifyInstance, user: UserRow, code: string): Promise<boolean> {
  const { db } = app.deps.database;
  if (user.otpSecretEnc) {
    const step = await checkTotp(app.deps.secrets.open(user.otpSecretEnc), code, user.lastOtpStep);
    if (step !== null) {
      await db.update(users).set({ lastOtpStep: step, lastOtpAt: new Date() }).where(eq(users.id, user.id));
      return true;
    }
  }
  const spent = await db
    .update(emailOtps)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(emailOtps.userId, user.id),
        eq(emailOtps.codeHash, hashToken(`${user.id}:${code}`)),
        isNull(emailOtps.usedAt),
        gt(emailOtps.expiresAt, new Date()),
      ),
    )
    .returning({ id: emailOtps.id });
  if (spent.length === 0) return false;
  await db.update(users).set({ lastOtpAt: new Date() }).where(eq(users.id, user.id));
  return true;
}

/**
 * A recovery code instead of a one-time code: spent on success, audited, and the owner is told by email how many
 * are left, so a code used by someone else does not go unnoticed.
 */
export async function useRecoveryCode(app: FastifyInstance, req: FastifyRequest, user: UserRow, code: string) {
  const { db } = app.deps.database;
  if (!(await spendRecoveryCode(db, user.id, code))) return false;
  const left = await recoveryCodesLeft(db, user.id);
  await app.deps.audit.record(
    { event: 'recovery_code_used', companyId: user.companyId, userId: user.id, data: { left } },
    req,
  );
  void app.deps.mail
    .send({
      to: user.email,
      viewer: browserTag(req),
      subject: 'A Harbor recovery code was used',
      text: `A recovery code was just used to sign in to your Harbor account. You have ${left} unused recovery code${left === 1 ? '' : 's'} left; you can make a new set under Profile > Two-factor.\n\nIf this was not you, change your password now.`,
    })
    .catch((err: Error) => req.log.error({ err }, 'recovery code notice failed'));
  return true;
}

export async function latestEmailOtpAt(app: FastifyInstance, userId: number) {
  const [row] = await app.deps.database.db
    .select({ at: emailOtps.createdAt })
    .from(emailOtps)
    .where(eq(emailOtps.userId, userId))
    .orderBy(desc(emailOtps.id))
    .limit(1);
  return row?.at ?? null;
}
