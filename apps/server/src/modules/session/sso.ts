/**
 * Single sign-on (OpenID Connect): POST /v1/sessions/sso starts (authorization URL with state, nonce and PKCE kept
 * in a sealed, short-lived cookie) and finishes (the callback page posts the provider's answer; the code is
 * exchanged and the ID token checked by the SSO port); POST /sso-logout receives back-channel logout tokens and
 * ends the matching sessions. Errors carry the spec's kinds as their field: { errors: { invalid_state: [...] } }.
 */
import { resolveFeatures, SsoBody, SsoReply } from '@harbor/shared';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type SsoConnection, SsoError, type SsoErrorKind } from '../../integrations/sso/port.js';
import { buildAuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import { sessions } from '../../platform/auth/schema.js';
import { cookieOptions, createSession, endSession } from '../../platform/auth/sessions.js';
import type { SecretBox } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { companies, users } from '../../platform/db/schema.js';
import { HttpError } from '../../platform/http/errors.js';
import { presentCurrentUser } from '../users/presenter.js';
import { ssoConnections, ssoLogins } from './schema.js';
import { sendEmailOtp } from './sign-in.js';

export const SSO_COOKIE = 'harbor_sso';
const STATE_TTL_MS = 10 * 60_000;
const STATUS: Record<SsoErrorKind, number> = {
  oauth2_error: 400,
  discovery_error: 502,
  missing_state: 400,
  invalid_state: 400,
  authorization_error: 400,
  code_exchange_error: 400,
  backchannel_logout_error: 400,
};
const fail = (kind: SsoErrorKind, message: string) => new HttpError(STATUS[kind], { [kind]: [message] });

interface PendingSso {
  connectionId: number;
  state: string;
  nonce: string;
  codeVerifier: string;
  expiresAt: number;
}

/** Where the provider sends the browser back, and where it posts back-channel logouts: what admins register there. */
export const ssoRedirectUri = (appUrl: string) => new URL('/api/auth/callback', appUrl).toString();
export const ssoLogoutUri = (appUrl: string) => new URL('/sso-logout', appUrl).toString();

/** A stored connection as the SSO port takes it, the client secret unsealed. */
export function toSsoConnection(row: typeof ssoConnections.$inferSelect, secrets: SecretBox): SsoConnection {
  return { id: row.id, issuer: row.issuer, clientId: row.clientId, clientSecret: secrets.open(row.clientSecretEnc) };
}

export function ssoRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { database, config, secrets, sso, audit } = scope.deps;
  const db = database.db;
  const redirectUri = () => ssoRedirectUri(config.appUrl);
  const toConnection = (row: typeof ssoConnections.$inferSelect) => toSsoConnection(row, secrets);

  async function start(req: FastifyRequest, reply: FastifyReply, domainName: string) {
    const [row] = await db
      .select({ conn: ssoConnections, company: companies })
      .from(companies)
      .innerJoin(ssoConnections, eq(ssoConnections.companyId, companies.id))
      .where(eq(companies.domainName, domainName));
    if (!row || !resolveFeatures(row.company.features).single_sign_on) {
      throw new HttpError(422, { domain_name: ['Single sign-on is not set up for this company'] });
    }
    const checks = await sso.newChecks();
    const url = await sso.authorizationUrl(toConnection(row.conn), redirectUri(), checks).catch((err) => {
      throw err instanceof SsoError ? fail(err.kind, err.message) : err;
    });
    const pending: PendingSso = {
      connectionId: row.conn.id,
      state: checks.state,
      nonce: checks.nonce,
      codeVerifier: checks.codeVerifier,
      expiresAt: Date.now() + STATE_TTL_MS,
    };
    reply.setCookie(SSO_COOKIE, secrets.seal(JSON.stringify(pending)), {
      ...cookieOptions(config, req),
      maxAge: STATE_TTL_MS / 1000,
    });
    return { authorization_url: url };
  }

  function readPending(req: FastifyRequest): PendingSso | null {
    const sealed = req.cookies[SSO_COOKIE];
    if (!sealed) return null;
    try {
      const pending = JSON.parse(secrets.open(sealed)) as PendingSso;
      return pending.expiresAt > Date.now() ? pending : null;
    } catch {
      return null;
    }
  }

  async function finish(req: FastifyRequest, reply: FastifyReply, params: Record<string, string | undefined>) {
    const pending = readPending(req);
    // The cookie is single use whatever happens next: a replayed callback finds nothing to match.
    reply.clearCookie(SSO_COOKIE, cookieOptions(config, req));
    if (!params.state || !pending) throw fail('missing_state', 'The sign-in has no state. Please start again.');
    if (params.state !== pending.state)
      throw fail('invalid_state', 'The sign-in state does not match. Please start again.');
    if (params.error) throw fail('authorization_error', params.error_description ?? params.error);
    if (!params.code) throw fail('oauth2_error', 'The provider sent no authorization code');
    const [row] = await db.select().from(ssoConnections).where(eq(ssoConnections.id, pending.connectionId));
    if (!row) throw fail('oauth2_error', 'Single sign-on is no longer set up for this company');
    const callback = new URL(redirectUri());
    for (const [k, v] of Object.entries(params)) if (v !== undefined) callback.searchParams.set(k, v);
    const identity = await sso.exchange(toConnection(row), callback, pending).catch((err) => {
      throw err instanceof SsoError ? fail(err.kind, err.message) : err;
    });
    if (!identity.email || identity.emailVerified === false) {
      throw new HttpError(422, { email: ['The provider did not confirm an email address for this identity'] });
    }
    const [found] = await db
      .select({ user: users, company: companies })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(
        and(
          eq(users.companyId, row.companyId),
          sql`lower(${users.email}) = ${identity.email.toLowerCase()}`,
          isNull(users.deletedAt),
        ),
      );
    if (!found) throw new HttpError(422, { email: ['No account of this company uses that email address'] });
    const current = (req.auth ?? req.pendingAuth)?.session;
    if (current) await endSession(db, current.id);
    const state = found.user.otpEnabled ? 'otp_pending' : 'active';
    const session = await createSession(db, config, req, reply, found.user, state);
    await db
      .insert(ssoLogins)
      .values({ sessionId: session.id, connectionId: row.id, sub: identity.sub, sid: identity.sid });
    if (state === 'otp_pending') {
      if (found.user.otpMethod === 'email') await sendEmailOtp(scope, found.user, req);
      return {
        otp_secret: true as const,
        last_otp_at: found.user.lastOtpAt?.toISOString() ?? null,
        otp_method: found.user.otpMethod as 'app' | 'email',
      };
    }
    await audit.record(
      { event: 'sign_in', companyId: found.company.id, userId: found.user.id, data: { method: 'sso' } },
      req,
    );
    return { user: await presentCurrentUser(db, buildAuthContext(found.user, found.company, session)) };
  }

  app.post(
    '/v1/sessions/sso',
    {
      config: { access: 'public', rateLimit: { name: 'sign_in', max: 60, windowMs: 60_000 } },
      schema: {
        tags: ['session'],
        summary: 'Single sign-on: {domain_name} starts, the callback page posts the provider answer to finish',
        body: SsoBody,
        response: { 200: SsoReply },
      },
    },
    async (req, reply) => {
      const body = req.body;
      if ('domain_name' in body) return start(req, reply, body.domain_name);
      return finish(req, reply, body);
    },
  );

  // Back-channel logout posts a form (application/x-www-form-urlencoded); parse it for this route's scope only.
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.post(
    '/sso-logout',
    {
      // Called server to server by the identity provider: no cookie, no CSRF token; the signed token is the proof.
      config: { access: 'public', csrf: false, rateLimit: { name: 'sso_logout', max: 120, windowMs: 60_000 } },
      schema: {
        tags: ['session'],
        summary: 'OpenID Connect back-channel logout: ends the sessions the logout token names',
        body: z.object({ logout_token: z.string().min(1).max(10_000) }),
        response: { 200: z.null() },
      },
    },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const token = req.body.logout_token;
      const claimed = sso.peekLogoutToken(token);
      if (!claimed) throw fail('backchannel_logout_error', 'The logout token cannot be read');
      const rows = await db
        .select()
        .from(ssoConnections)
        .where(and(eq(ssoConnections.issuer, claimed.issuer), inArray(ssoConnections.clientId, claimed.audience)));
      if (rows.length === 0) throw fail('backchannel_logout_error', 'The logout token names no known provider');
      let ended = 0;
      for (const row of rows) {
        const who = await sso.verifyLogoutToken(toConnection(row), token).catch((err) => {
          throw err instanceof SsoError ? fail(err.kind, err.message) : err;
        });
        const match = and(
          eq(ssoLogins.connectionId, row.id),
          who.sid ? eq(ssoLogins.sid, who.sid) : undefined,
          who.sub ? eq(ssoLogins.sub, who.sub) : undefined,
        );
        const linked = await db.select({ sessionId: ssoLogins.sessionId }).from(ssoLogins).where(match);
        const ids = linked.map((l) => l.sessionId);
        if (ids.length) {
          const done = await db
            .update(sessions)
            .set({ endedAt: new Date() })
            .where(and(inArray(sessions.id, ids), isNull(sessions.endedAt)))
            .returning({ id: sessions.id, userId: sessions.userId, companyId: sessions.companyId });
          ended += done.length;
          invalidateAuth({ sessions: done.map((s) => s.id) });
          for (const s of done) {
            await audit.record(
              { event: 'sign_out', companyId: s.companyId, userId: s.userId, data: { method: 'sso_backchannel' } },
              req,
            );
          }
        }
      }
      req.log.info({ ended }, 'sso back-channel logout');
      return reply.code(200).send(null);
    },
  );
}

/** Moves the provider link of a half-signed-in session (one-time code pending) to the full session that follows. */
export async function carrySsoLogin(db: Db, fromSessionId: number, toSessionId: number) {
  await db.update(ssoLogins).set({ sessionId: toSessionId }).where(eq(ssoLogins.sessionId, fromSessionId));
}
