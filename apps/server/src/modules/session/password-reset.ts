/** Password reset by emailed link: single use, one hour, and silent about whether the email exists. */
import { and, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { hashPassword } from '../../platform/auth/passwords.js';
import { passwordResetTokens } from '../../platform/auth/schema.js';
import { endUserSessions } from '../../platform/auth/sessions.js';
import { hashToken, newToken } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { invalid } from '../../platform/http/errors.js';
import { findActiveUserByLogin } from './sign-in.js';

const RESET_TTL_MS = 60 * 60_000;

export async function requestPasswordReset(app: FastifyInstance, req: FastifyRequest, email: string) {
  const found = await findActiveUserByLogin(app, email);
  if (!found || found.user.email.toLowerCase() !== email) return;
  const { user } = found;
  const token = newToken();
  await app.deps.database.db.insert(passwordResetTokens).values({
    userId: user.id,
    tokenHash: hashToken(token),
    expiresAt: new Date(Date.now() + RESET_TTL_MS),
  });
  await app.deps.audit.record({ event: 'password_reset_requested', companyId: user.companyId, userId: user.id }, req);
  const link = `${app.deps.config.appUrl}/reset-password?reset_password_token=${token}`;
  // Not awaited: a reply that waits for SMTP only when the account exists would reveal that it exists.
  void app.deps.mail
    .send({
      to: user.email,
      subject: 'Reset your Harbor password',
      text: `Someone asked to reset the password of your Harbor account.\n\nTo choose a new password, open this link within an hour:\n${link}\n\nThe link works once. If you did not ask for it, ignore this email: your password stays as it is.`,
      html: `<p>Someone asked to reset the password of your Harbor account.</p><p><a href="${link}">Choose a new password</a> (the link works once, within an hour).</p><p>If you did not ask for it, ignore this email: your password stays as it is.</p>`,
    })
    .catch((err: Error) => req.log.error({ err }, 'password reset mail failed'));
}

export async function resetPasswordByToken(app: FastifyInstance, req: FastifyRequest, token: string, password: string) {
  const passwordHash = await hashPassword(password);
  const userId = await app.deps.database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
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
    await app.deps.audit.record({ event: 'password_reset', companyId: user.companyId, userId: user.id }, req, db);
    return user.id;
  });
  if (userId === null) throw invalid('reset_password_token', 'is invalid or has expired');
}
