/**
 * The one route pipeline: rate limit -> authenticate -> feature gate -> authorize -> CSRF -> (Fastify) validate ->
 * handler -> (zod) present. Every route declares `config.access`; `assertEveryRouteDeclaresAccess` makes the server refuse to
 * start when one does not.
 */

import { can, type FeatureGate, PERMISSION_KEYS, type Permission } from '@harbor/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { authenticate } from '../auth/authenticate.js';
import type { AuthContext } from '../auth/context.js';
import { assertOwnerAtKeyboard } from '../auth/security-guard.js';
import { cookieOptions } from '../auth/sessions.js';
import type { TenantRegistry } from '../tenancy.js';
import { CSRF_COOKIE, checkCsrf, ensureCsrfCookie, expectForEndedSession } from './csrf.js';
import { forbidden, HttpError, notFound, unauthorized } from './errors.js';
import { requireFeature } from './feature-guard.js';
import { installIdempotency } from './idempotency.js';
import { API_KEY_RULE, PUBLIC_RULE, type RateLimiter, type RateLimitRule, USER_RULE } from './rate-limit.js';

/**
 * 'public': no session. 'otp_pending': a half-signed-in session (password passed, code not yet) or a full one.
 * 'authenticated': any signed-in user. A Permission key: signed in and the shared predicate allows it.
 */
export type Access = 'public' | 'otp_pending' | 'authenticated' | Permission;

/** How the permission matrix test finds another tenant's record for a route with an id in its path. */
export interface TenantResource {
  param: string;
  resource: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** false only for callers that cannot carry a CSRF token (signed webhooks). */
    csrf?: boolean;
    /**
     * A limit of the route's own (sign-in, reset, codes), counted on top of the general ones; false: no limit at all
     * (health, static files). See rate-limit.ts and docs/decisions/rate-limits.md.
     */
    rateLimit?: RateLimitRule | false;
    tenant?: TenantResource;
    /** Changes a sign-in credential or factor: only the owner in their own browser session (auth/security-guard.ts). */
    securitySetting?: boolean;
    /** The feature the route belongs to: closed (flag off, or a basic user's loss) answers 403 naming it. */
    feature?: FeatureGate;
  }
  interface FastifyInstance {
    /** Every route as registered, for the start-up check and the permission matrix test. */
    declaredRoutes: RouteOptions[];
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** Set when the cookie names a session still waiting for its one-time code. */
    pendingAuth: AuthContext | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const VALID_ACCESS = new Set<string>(['public', 'otp_pending', 'authenticated', ...PERMISSION_KEYS]);

export function installPipeline(app: FastifyInstance, limiter: RateLimiter, tenants: TenantRegistry) {
  app.decorateRequest('auth', null);
  app.decorateRequest('pendingAuth', null);
  app.decorateRequest('csrfExpected', null);
  app.decorateRequest('csrfAlso', null);
  app.decorateRequest('endedSessionId', null);
  const declared: RouteOptions[] = [];
  app.decorate('declaredRoutes', declared);
  app.addHook('onRoute', (route) => {
    declared.push(route);
  });
  app.addHook('onReady', async () => assertEveryRouteDeclaresAccess(declared));
  installIdempotency(app); // Idempotency-Key on routes that declare config.idempotent (after validation)

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const config = req.routeOptions.config;
    const access = config?.access;
    if (!access) return; // unmatched path: the not-found handler answers
    const limits = config.rateLimit !== false;
    const own = config.rateLimit || null;
    const ownKey = own ? (own.key ?? (access === 'public' ? 'address' : 'user')) : null;
    // Address limits come before any database work; per-person limits once the caller is known.
    if (limits && ownKey === 'address') await enforce(limiter, own!, req.ip);
    if (limits && !own && access === 'public') await enforce(limiter, PUBLIC_RULE, req.ip);
    await authenticate(app, req, reply);
    if (limits) await limitCaller(req, limiter, access, ownKey === 'address' ? null : own);
    // Before authorize: even a 401 hands the browser the token its next write (a sign-in) will need.
    // Without a token cookie at all, there is nothing to undo: the pre-login one is handed out as usual.
    if (req.endedSessionId !== null && req.cookies[CSRF_COOKIE])
      expectForEndedSession(req, app.deps.config, req.endedSessionId);
    else if (!req.auth?.apiKey) {
      const session = (req.auth ?? req.pendingAuth)?.session ?? null;
      ensureCsrfCookie(req, reply, app.deps.config, cookieOptions(app.deps.config, req).secure, session);
    }
    requireFeature(req, config.feature);
    authorize(req, access);
    if (config.tenant) await checkTenant(app, req, tenants, config.tenant);
    if (config.csrf !== false && !SAFE_METHODS.has(req.method) && !req.auth?.apiKey) checkCsrf(req);
    if (config.securitySetting) await assertOwnerAtKeyboard(app, req);
  });
}

async function enforce(limiter: RateLimiter, rule: RateLimitRule, id: string | number) {
  const retry = await limiter.hit(rule, id);
  if (retry) throw new HttpError(429, { user: ['Too many requests. Please wait and try again.'] }, retry);
}

/**
 * Signed-in traffic counts per person (or per API key), never per address: an office behind one NAT address is many
 * callers. Callers without a live session count by address, as public traffic does.
 */
async function limitCaller(req: FastifyRequest, limiter: RateLimiter, access: Access, own: RateLimitRule | null) {
  const caller = req.auth ?? req.pendingAuth;
  if (!caller) {
    if (access !== 'public') await enforce(limiter, PUBLIC_RULE, req.ip);
    return;
  }
  if (own) await enforce(limiter, own, caller.user.id);
  if (caller.apiKey) await enforce(limiter, API_KEY_RULE, caller.apiKey.id);
  else await enforce(limiter, USER_RULE, caller.user.id);
}

function authorize(req: FastifyRequest, access: Access) {
  if (access === 'public') return;
  if (access === 'otp_pending') {
    if (!req.auth && !req.pendingAuth) throw unauthorized();
    return;
  }
  if (!req.auth) throw unauthorized();
  if (access === 'authenticated') return;
  if (!can(req.auth.subject, access)) throw forbidden();
}

async function checkTenant(app: FastifyInstance, req: FastifyRequest, tenants: TenantRegistry, t: TenantResource) {
  const auth = req.auth ?? req.pendingAuth;
  const raw = (req.params as Record<string, string>)[t.param];
  if (!auth || raw === undefined) return;
  const found = await tenants.get(t.resource).exists(app.deps.database.db, auth.company.id, raw);
  if (!found) throw notFound(t.resource);
}

export function assertEveryRouteDeclaresAccess(routes: RouteOptions[]) {
  const missing = routes
    .filter(
      (r) =>
        !r.config?.access ||
        !VALID_ACCESS.has(r.config.access) ||
        (r.config.tenant && !r.url.includes(`:${r.config.tenant.param}`)),
    )
    .map((r) => `${[r.method].flat().join(',')} ${r.url}`);
  if (missing.length) {
    throw new Error(`Routes without a declared access (permission or 'public'): ${missing.join(', ')}`);
  }
}

/** Handlers call this where the route's access guarantees a user: it narrows the type. */
export function authOf(req: FastifyRequest): AuthContext {
  if (!req.auth) throw unauthorized();
  return req.auth;
}
