/** The `session` area of routes.md: sign in (password, then one-time code), sign out, password reset, profile. */

import {
  CurrentUser,
  LoginBody,
  LoginReply,
  MessageReply,
  NoContent,
  ResetByTokenBody,
  ResetInstructionsBody,
  SignedInReply,
} from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildAuthContext } from '../../platform/auth/context.js';
import type { LoginStackEntry } from '../../platform/auth/schema.js';
import { cookieOptions, createSession, endSession, SESSION_COOKIE } from '../../platform/auth/sessions.js';
import { companies, users } from '../../platform/db/schema.js';
import { setPreLoginCsrfCookie } from '../../platform/http/csrf.js';
import { HttpError, unauthorized } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import type { Module } from '../types.js';
import { presentCurrentUser } from '../users/presenter.js';
import { registerPasswordResetJob, requestPasswordReset, resetPasswordByToken } from './password-reset.js';
import {
  checkPassword,
  findActiveUserByLogin,
  INVALID_CREDENTIALS,
  recordFailure,
  sendEmailOtp,
  useRecoveryCode,
  verifyOtp,
} from './sign-in.js';
import { carrySsoLogin, ssoRoutes } from './sso.js';
import { switchSessionRoute } from './switch.js';
import { assertNotThrottled, clearAddressFailures, needsEmailStepUp } from './throttle.js';

const SIGN_IN_RULE = { name: 'sign_in', max: 60, windowMs: 60_000 };
const RESET_RULE = { name: 'password_reset', max: 10, windowMs: 60_000 };

export const sessionModule: Module = {
  name: 'session',
  register(scope: FastifyInstance) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const { database, config, audit } = scope.deps;
    const db = database.db;
    registerPasswordResetJob(scope);

    app.post(
      '/v1/sessions',
      {
        config: { access: 'public', rateLimit: SIGN_IN_RULE },
        schema: {
          tags: ['session'],
          summary: 'Sign in: {email, password} (username accepted), then {otp_code} when two-factor is on',
          body: LoginBody,
          response: { 200: LoginReply },
        },
      },
      async (req, reply) => {
        const body = req.body;
        if ('otp_code' in body || 'recovery_code' in body) {
          const pending = req.pendingAuth;
          if (!pending) throw unauthorized('Your sign-in has expired. Please sign in again.');
          await assertNotThrottled(scope, req, pending.user.email);
          const passed =
            'otp_code' in body
              ? await verifyOtp(scope, pending.user, body.otp_code)
              : await useRecoveryCode(scope, req, pending.user, body.recovery_code);
          if (!passed) {
            await recordFailure(scope, req, pending.user.email, pending.user, 'otp_failed');
            throw 'otp_code' in body
              ? new HttpError(422, { otp_code: ['Invalid authentication code'] })
              : new HttpError(422, { recovery_code: ['is not one of your unused recovery codes'] });
          }
          await endSession(db, pending.session!.id);
          await clearAddressFailures(db, req, [pending.user.email]);
          // A pending session that came from single sign-on hands its provider link to the full session, so
          // a back-channel logout from the provider still ends it.
          return finishSignIn(scope, req, reply, pending.user.id, [], true, (id) =>
            carrySsoLogin(db, pending.session!.id, id),
          );
        }
        const login = (body.email ?? body.username)!;
        // Before anything about the account is looked up: a known and an unknown login are throttled alike.
        await assertNotThrottled(scope, req, login);
        const found = await findActiveUserByLogin(scope, login);
        if (!(await checkPassword(found?.user ?? null, body.password))) {
          await recordFailure(scope, req, login, found?.user ?? null);
          throw unauthorized(INVALID_CREDENTIALS);
        }
        const user = found!.user;
        await endCurrentSession(scope, req);
        // Under a distributed attack, a new address needs an emailed code even without two-factor.
        const stepUp = !user.otpEnabled && (await needsEmailStepUp(db, req, user));
        if (user.otpEnabled || stepUp) {
          // Failures are cleared only once the code passes too: re-entering the password must not reset the count
          // of wrong codes.
          await createSession(db, config, req, reply, user, 'otp_pending');
          const method = stepUp ? 'email' : (user.otpMethod as 'app' | 'email');
          if (method === 'email') await sendEmailOtp(scope, user, req);
          return { otp_secret: true as const, last_otp_at: user.lastOtpAt?.toISOString() ?? null, otp_method: method };
        }
        await clearAddressFailures(db, req, [login, user.email]);
        return finishSignIn(scope, req, reply, user.id);
      },
    );

    app.delete(
      '/v1/sessions',
      {
        config: { access: 'otp_pending' },
        schema: {
          tags: ['session'],
          summary: 'Sign out; while impersonating, return to the previous user (one login-stack entry)',
          response: { 200: SignedInReply, 204: NoContent },
        },
      },
      async (req, reply) => {
        const current = req.auth ?? req.pendingAuth!;
        const session = current.session;
        // An API key has no session to end: it stops working when revoked, not by signing out.
        if (!session) throw new HttpError(422, { user: ['An API key cannot sign out; revoke the key instead.'] });
        await endSession(db, session.id);
        const stack = session.loginStack;
        const previous = stack.at(-1);
        if (previous && req.auth) {
          // Back to the session the impersonation started from, with the time it had left, not a fresh one.
          const endsBy = previous.expires_at ? new Date(previous.expires_at) : undefined;
          if (endsBy && endsBy.getTime() <= Date.now()) {
            await audit.record(
              { event: 'sign_out', companyId: current.company.id, userId: current.user.id, data: { expired: true } },
              req,
            );
            reply.clearCookie(SESSION_COOKIE, cookieOptions(config, req));
            throw unauthorized('Your own session has expired meanwhile. Please sign in again.');
          }
          await audit.record(
            {
              event: 'impersonation_ended',
              companyId: current.company.id,
              userId: current.user.id,
              actorId: previous.user_id,
              data: { kind: previous.kind },
            },
            req,
          );
          return finishSignIn(scope, req, reply, previous.user_id, stack.slice(0, -1), false, undefined, endsBy);
        }
        await audit.record({ event: 'sign_out', companyId: current.company.id, userId: current.user.id }, req);
        reply.clearCookie(SESSION_COOKIE, cookieOptions(config, req));
        setPreLoginCsrfCookie(req, reply, config, cookieOptions(config, req).secure);
        return reply.code(204).send(null);
      },
    );

    switchSessionRoute(scope);
    // Its own plugin scope: the form-body parser of back-channel logout stays out of the other session routes.
    scope.register(async (child) => ssoRoutes(child));

    app.post(
      '/v1/users/reset_password_instructions',
      {
        config: { access: 'public', rateLimit: RESET_RULE },
        schema: {
          tags: ['session'],
          summary: 'Email a single-use reset link; the answer never tells whether the email exists',
          body: ResetInstructionsBody,
          response: { 200: MessageReply },
        },
      },
      async (req) => {
        await requestPasswordReset(scope, req, req.body.email);
        return { message: 'If that email belongs to an account, a link to reset the password is on its way.' };
      },
    );

    app.post(
      '/v1/users/reset_password_by_token',
      {
        config: { access: 'public', rateLimit: RESET_RULE },
        schema: {
          tags: ['session'],
          summary: 'Set a new password with the emailed token (single use, expires after an hour)',
          body: ResetByTokenBody,
          response: { 200: MessageReply },
        },
      },
      async (req) => {
        await resetPasswordByToken(scope, req, req.body.reset_password_token, req.body.password);
        return { message: 'Your password has been changed. You can now sign in.' };
      },
    );

    app.get(
      '/auth/profile',
      {
        config: { access: 'authenticated' },
        schema: { tags: ['session'], summary: 'The profile route: the current user', response: { 200: CurrentUser } },
      },
      async (req) => presentCurrentUser(db, authOf(req)),
    );
  },
};

/** Ends the session the request came with, so every sign-in starts on a new token. */
async function endCurrentSession(app: FastifyInstance, req: FastifyRequest) {
  const session = (req.auth ?? req.pendingAuth)?.session;
  if (session) await endSession(app.deps.database.db, session.id);
}

/** Starts a full session for `userId` and answers `{ user }` (password, one-time code, SSO and impersonation pop). */
export async function finishSignIn(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  loginStack: LoginStackEntry[] = [],
  auditSignIn = true,
  onSession?: (sessionId: number) => Promise<void>,
  endsBy?: Date,
) {
  const { db } = app.deps.database;
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  if (!row || row.user.deletedAt) throw unauthorized();
  const session = await createSession(db, app.deps.config, req, reply, row.user, 'active', loginStack, endsBy);
  await onSession?.(session.id);
  if (auditSignIn) {
    await app.deps.audit.record({ event: 'sign_in', companyId: row.company.id, userId: row.user.id }, req);
  }
  return { user: await presentCurrentUser(db, buildAuthContext(row.user, row.company, session)) };
}
