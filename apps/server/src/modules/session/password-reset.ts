/** Password reset by emailed link: single use, one hour, and silent (in answer and in timing) about whether the email exists. */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { assertAcceptablePassword } from '../../platform/auth/password-policy.js';
import { hashPassword } from '../../platform/auth/passwords.js';
import { passwordResetTokens } from '../../platform/auth/schema.js';
import { endUserSessions } from '../../platform/auth/sessions.js';
import { hashToken, newToken } from '../../platform/auth/tokens.js';
import { users } from '../../platform/db/schema.js';
import { browserTag } from '../../platform/http/csrf.js';
import { invalid } from '../../platform/http/errors.js';
import { findActiveUserByLogin } from './sign-in.js';
import { clearAccountFailures } from './throttle.js';

const RESET_TTL_MS = 60 * 60_000;
export const RESET_JOB = 'password_reset_email';

/**
 * The request path does the same work whether or not the email has an account: one durable job row, nothing else.
 * Looking the account up, writing the token, auditing and sending the mail happen in the job, so neither the answer
 * nor its timing tells whether the email exists (issue 15: known 15.2 ms vs unknown 4.9 ms before).
 */
export async function requestPasswordReset(app: FastifyInstance, req: FastifyRequest, email: string) {
  await app.deps.jobs.enqueue(RESET_JOB, { email, ip: req.ip, viewer: browserTag(req) }, { maxAttempts: 3 });
}

/** The job: for an active account whose email matches exactly, a single-use link by mail; otherwise nothing. */
export function registerPasswordResetJob(app: FastifyInstance) {
  app.deps.jobs.register(RESET_JOB, async ({ job }) => {
    const { email, ip, viewer } = job.payload as { email: string; ip: string | null; viewer?: string | null };
    const found = await findActiveUserByLogin(app, email);
    if (!found || found.user.email.toLowerCase() !== email) return;
    const { user } = found;
    const token = newToken();
    const { db } = app.deps.database;
    await db.insert(passwordResetTokens).values({
      userId: user.id,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + RESET_TTL_MS),
    });
    await app.deps.audit.record({
      event: 'password_reset_requested',
      companyId: user.companyId,
      userId: user.id,
      data: { ip },
    });
    const link = `${app.deps.config.appUrl}/reset-password?reset_password_token=${token}`;
    await app.deps.mail.send({
      to: user.email,
      viewer,
      subject: 'Reset your Harbor password',
      text: `Someone asked to reset the password of your Harbor account.\n\nTo choose a new password, open this link within an hour:\n${link}\n\nThe link works once. If you did not ask for it, ignore this email: your password stays as it is.`,
      html: `<p>Someone asked to reset the password of your Harbor account.</p><p><a href="${link}">Choose a new password</a> (the link works once, within an hour).</p><p>If you did not ask for it, ignore this email: your password stays as it is.</p>`,
    });
  });
}

export async function resetPasswordByToken(app: FastifyInstance, req: FastifyRequest, token: string, password: string) {
  // The token first: a stale link says so, whatever the password. Then the password, judged for this account.
  const [pending] = await app.deps.database.db
    .select({ user: users })
    .from(passwordResetTokens)
    .innerJoin(users, eq(users.id, passwordResetTokens.userId))
    .where(
      and(
        eq(passwordResetTokens.tokenHash, hashToken(token)),
        isNull(passwordResetTokens.usedAt),
        gt(passwordResetTokens.expiresAt, new Date()),
        isNull(users.deletedAt),
      ),
    );
  if (!pending) throw invalid('reset_password_token', 'is invalid or has expired');
  assertAcceptablePassword(password, pending.user);
  const passwordHash = await hashPassword(password);
  const userId = await app.deps.database.db.transaction(async (db) => {
    // Spend the token first, in the same statement that checks it: two uses racing cannot both pass.
    const [spent] = await db
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          eq(passwordResetTokens.tokenHash, hashToken(token)),
          isNull(passwordResetTokens.usedAt),
          gt(passwordResetTokens.expiresAt, new Date()),
        ),
      )
      .returning({ userId: passwordResetTokens.userId });
    if (!spent) return null;
    const [user] = await db
      .update(users)
      .set({ passwordHash, changePassword: false, passwordChangedAt: new Date(), updatedAt: new Date() })
      .where(and(eq(users.id, spent.userId), isNull(users.deletedAt)))
      .returning();
    if (!user) return null;
    // Every other link of this user dies with this one.
    await db
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    await endUserSessions(db, user.id);
    // The new password works at once, from anywhere: the failures that slowed sign-ins down are forgotten.
    await clearAccountFailures(db, user);
    await app.deps.audit.record({ event: 'password_reset', companyId: user.companyId, userId: user.id }, req, db);
    return user.id;
  });
  if (userId === null) throw invalid('reset_password_token', 'is invalid or has expired');
}
