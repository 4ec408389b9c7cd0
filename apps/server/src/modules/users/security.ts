/** Password and two-factor commands for the signed-in user. Each change is audited. */
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import QRCode from 'qrcode';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import { assertAcceptablePassword } from '../../platform/auth/password-policy.js';
import { hashPassword, verifyPassword } from '../../platform/auth/passwords.js';
import { deleteRecoveryCodes, replaceRecoveryCodes } from '../../platform/auth/recovery-codes.js';
import { endUserSessions } from '../../platform/auth/sessions.js';
import { checkTotp, newTotpSecret, totpUri } from '../../platform/auth/totp.js';
import { type UserRow, users } from '../../platform/db/schema.js';
import { forbidden, invalid, notFound } from '../../platform/http/errors.js';

export async function changeOwnPassword(
  app: FastifyInstance,
  req: FastifyRequest,
  targetId: number,
  body: { current_password?: string; password: string },
) {
  const auth = req.auth!;
  const { db } = app.deps.database;
  if (targetId !== auth.user.id) {
    // Someone else's password: another company's user does not exist for us; a colleague's is not ours to set.
    const [other] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, targetId), eq(users.companyId, auth.company.id)));
    if (!other) throw notFound('user');
    throw forbidden();
  }
  if (!body.current_password || !(await verifyPassword(auth.user.passwordHash, body.current_password))) {
    throw invalid('current_password', 'is incorrect');
  }
  if (body.current_password === body.password) throw invalid('password', 'must be different from the current password');
  assertAcceptablePassword(body.password, auth.user);
  const passwordHash = await hashPassword(body.password);
  await db
    .update(users)
    .set({ passwordHash, changePassword: false, passwordChangedAt: new Date(), updatedAt: new Date() })
    .where(eq(users.id, auth.user.id));
  // Other devices signed in with the old password are signed out; this one stays.
  await endUserSessions(db, auth.user.id, auth.session?.id);
  await app.deps.audit.record({ event: 'password_changed', companyId: auth.company.id, userId: auth.user.id }, req);
}

export async function startTwoFactorSetup(app: FastifyInstance, user: UserRow) {
  if (user.otpEnabled && user.otpSecretEnc) throw invalid('otp', 'Two-factor authentication is already set up');
  const secret = newTotpSecret();
  await app.deps.database.db
    .update(users)
    .set({ otpPendingSecretEnc: app.deps.secrets.seal(secret), updatedAt: new Date() })
    .where(eq(users.id, user.id));
  invalidateAuth({ users: [user.id] });
  const otpauthUrl = totpUri(secret, user.email);
  return { qr_code: await QRCode.toDataURL(otpauthUrl, { margin: 1, width: 240 }), secret, otpauth_url: otpauthUrl };
}

/** Answers the recovery codes when this call turned two-factor on (shown once), else undefined. */
export async function enableTwoFactor(app: FastifyInstance, req: FastifyRequest, user: UserRow, code: string) {
  if (!user.otpPendingSecretEnc) throw invalid('otp_code', 'Start the setup first (generate a QR code)');
  const secret = app.deps.secrets.open(user.otpPendingSecretEnc);
  const step = await checkTotp(secret, code, null);
  if (step === null) throw invalid('otp_code', 'Invalid authentication code');
  const wasOn = user.otpEnabled;
  await app.deps.database.db
    .update(users)
    .set({
      otpEnabled: true,
      otpMethod: 'app',
      otpSecretEnc: user.otpPendingSecretEnc,
      otpPendingSecretEnc: null,
      lastOtpStep: step,
      lastOtpAt: new Date(),
      updatedAt: new Date(),
    })
    .where(eq(users.id, user.id));
  invalidateAuth({ users: [user.id] });
  await app.deps.audit.record({ event: 'two_factor_enabled', companyId: user.companyId, userId: user.id }, req);
  return wasOn ? undefined : issueRecoveryCodes(app, req, user);
}

/** A fresh set of recovery codes for `user` (the old set stops working), audited. */
export async function issueRecoveryCodes(app: FastifyInstance, req: FastifyRequest, user: UserRow) {
  const codes = await replaceRecoveryCodes(app.deps.database.db, user.id);
  await app.deps.audit.record({ event: 'recovery_codes_generated', companyId: user.companyId, userId: user.id }, req);
  return codes;
}

export async function disableTwoFactor(app: FastifyInstance, req: FastifyRequest, auth: AuthContext, password: string) {
  const { user } = auth;
  if (!(await verifyPassword(user.passwordHash, password))) throw invalid('password', 'is incorrect');
  if (user.twoFaRequired || auth.features.two_factor_required) {
    throw invalid('user', 'Two-factor authentication is required for your account and cannot be turned off');
  }
  await app.deps.database.db
    .update(users)
    .set({ otpEnabled: false, otpSecretEnc: null, otpPendingSecretEnc: null, otpMethod: 'app', updatedAt: new Date() })
    .where(eq(users.id, user.id));
  await deleteRecoveryCodes(app.deps.database.db, user.id);
  invalidateAuth({ users: [user.id] });
  await app.deps.audit.record({ event: 'two_factor_disabled', companyId: user.companyId, userId: user.id }, req);
}

export async function setOtpMethod(
  app: FastifyInstance,
  req: FastifyRequest,
  user: UserRow,
  method: 'app' | 'email',
  password: string,
) {
  if (!(await verifyPassword(user.passwordHash, password))) throw invalid('password', 'is incorrect');
  if (method === 'app' && !user.otpSecretEnc) {
    throw invalid('otp_method', 'Set up an authenticator app first (scan the QR code)');
  }
  await app.deps.database.db
    .update(users)
    .set({ otpMethod: method, otpEnabled: true, updatedAt: new Date() })
    .where(eq(users.id, user.id));
  invalidateAuth({ users: [user.id] });
  await app.deps.audit.record(
    { event: 'two_factor_method_changed', companyId: user.companyId, userId: user.id, data: { method } },
    req,
  );
  return user.otpEnabled ? undefined : issueRecoveryCodes(app, req, user);
}
