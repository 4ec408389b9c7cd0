/**
 * CSRF tokens bound to the session. The token is an HMAC (key from SECRET_KEY) of what the request is bound to: the
 * server-side session, or, before sign-in, an anonymous browser id kept in an HttpOnly cookie (`harbor_pre`). The
 * browser reads the token from the `csrf_token` cookie and echoes it as X-CSRF-Token; the server recomputes it, so a
 * token planted by another site or carried over from another session is worthless. A new session (sign-in, the
 * code step, impersonation and returning from it) gets a new token, and sign-out hands back a pre-login one.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { SessionRow } from '../auth/context.js';
import { HttpError } from './errors.js';

export const CSRF_COOKIE = 'csrf_token';
export const CSRF_HEADER = 'x-csrf-token';
/** The anonymous browser id that a pre-login token is bound to. */
export const PRE_SESSION_COOKIE = 'harbor_pre';

declare module 'fastify' {
  interface FastifyRequest {
    /** The token this request must carry, set by the pipeline once the session is known. */
    csrfExpected: string | null;
    /** A second token accepted: the ended session's, for a request that still carries its cookie. */
    csrfAlso: string | null;
  }
}

const keys = new Map<string, Buffer>();
function keyOf(secret: string) {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.createHash('sha256').update(`harbor-csrf:${secret}`).digest();
    keys.set(secret, key);
  }
  return key;
}

const tokenFor = (secret: string, binding: string) =>
  crypto.createHmac('sha256', keyOf(secret)).update(binding).digest('base64url');

export const sessionCsrfToken = (secret: string, session: Pick<SessionRow, 'id'>) =>
  tokenFor(secret, `session:${session.id}`);

function cookieOptions(secure: boolean, httpOnly: boolean) {
  return { path: '/', sameSite: 'lax' as const, secure, httpOnly };
}

/** Sets the readable token cookie of `session` (called where a session starts). */
export function setSessionCsrfCookie(reply: FastifyReply, config: Config, secure: boolean, session: SessionRow) {
  reply.setCookie(CSRF_COOKIE, sessionCsrfToken(config.secretKey, session), cookieOptions(secure, false));
}

/** The pre-login token for this browser, creating its anonymous id when it has none (or a malformed one). */
function preLoginToken(req: FastifyRequest, reply: FastifyReply, config: Config, secure: boolean) {
  let id = req.cookies[PRE_SESSION_COOKIE];
  if (!id || !/^[A-Za-z0-9_-]{32,64}$/.test(id)) {
    id = crypto.randomBytes(32).toString('base64url');
    reply.setCookie(PRE_SESSION_COOKIE, id, cookieOptions(secure, true));
  }
  return tokenFor(config.secretKey, `pre:${id}`);
}

/**
 * Decides the token this request must carry and makes sure the browser holds it: every response of the pipeline
 * repairs a missing or stale cookie, so the next write carries the right one.
 */
export function ensureCsrfCookie(
  req: FastifyRequest,
  reply: FastifyReply,
  config: Config,
  secure: boolean,
  session: SessionRow | null,
) {
  const expected = session ? sessionCsrfToken(config.secretKey, session) : preLoginToken(req, reply, config, secure);
  req.csrfExpected = expected;
  if (req.cookies[CSRF_COOKIE] !== expected) reply.setCookie(CSRF_COOKIE, expected, cookieOptions(secure, false));
}

/**
 * A request carrying the cookie of a session that has ended (signed out, returned from, replaced by a sign-in) or
 * expired. Its reply writes no cookie: it may reach the browser after the reply that set the browser's next
 * session, and would then undo it (a query still in flight when an admin returned from an impersonation signed the
 * admin out). The browser still holds that session's token, so it is accepted beside the pre-login one: the sign-in
 * that follows an expired session goes through without a repair of the cookie.
 */
export function expectForEndedSession(req: FastifyRequest, config: Config, endedSessionId: number) {
  const pre = req.cookies[PRE_SESSION_COOKIE];
  req.csrfExpected = sessionCsrfToken(config.secretKey, { id: endedSessionId });
  req.csrfAlso = pre && /^[A-Za-z0-9_-]{32,64}$/.test(pre) ? tokenFor(config.secretKey, `pre:${pre}`) : null;
}

/** After sign-out: the browser continues with a pre-login token at once (its next request may be a sign-in). */
export function setPreLoginCsrfCookie(req: FastifyRequest, reply: FastifyReply, config: Config, secure: boolean) {
  reply.setCookie(CSRF_COOKIE, preLoginToken(req, reply, config, secure), cookieOptions(secure, false));
}

export function checkCsrf(req: FastifyRequest) {
  const header = req.headers[CSRF_HEADER];
  const value = Array.isArray(header) ? header[0] : header;
  const ok = (expected: string | null) => !!expected && !!value && timingSafeEqual(expected, value);
  if (!ok(req.csrfExpected) && !ok(req.csrfAlso)) {
    throw new HttpError(403, { csrf: ['Invalid or missing CSRF token. Reload the page and try again.'] });
  }
}

function timingSafeEqual(a: string, b: string) {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && crypto.timingSafeEqual(ab, bb);
}

/**
 * A stable tag of this signed-out browser (a hash of its anonymous id, never the id, which keys its CSRF token):
 * the development inbox shows a signed-out browser the mail it caused. Null before the browser has an id.
 */
export function browserTag(req: FastifyRequest): string | null {
  const id = req.cookies[PRE_SESSION_COOKIE];
  return id ? crypto.createHash('sha256').update(`harbor-browser:${id}`).digest('base64url') : null;
}
