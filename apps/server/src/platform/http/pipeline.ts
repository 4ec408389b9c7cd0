/**
 * The one route pipeline: rate limit -> authenticate -> authorize -> CSRF -> (Fastify) validate -> handler ->
 * (zod) present. Every route declares `config.access`; `assertEveryRouteDeclaresAccess` makes the server refuse to
 * start when one does not.
 */

import { can, PERMISSION_KEYS, type Permission } from '@harbor/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { authenticate } from '../auth/authenticate.js';
import type { AuthContext } from '../auth/context.js';
import type { TenantRegistry } from '../tenancy.js';
import { checkCsrf } from './csrf.js';
import { forbidden, HttpError, notFound, unauthorized } from './errors.js';
import type { RateLimiter, RateLimitRule } from './rate-limit.js';

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
    rateLimit?: RateLimitRule;
    tenant?: TenantResource;
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
  const declared: RouteOptions[] = [];
  app.decorate('declaredRoutes', declared);
  app.addHook('onRoute', (route) => {
    declared.push(route);
  });
  app.addHook('onReady', async () => assertEveryRouteDeclaresAccess(declared));

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const config = req.routeOptions.config;
    const access = config?.access;
    if (!access) return; // unmatched path: the not-found handler answers
    const limited = limiter.hit(req.ip, config.rateLimit);
    if (limited) throw new HttpError(429, { user: ['Too many requests. Please wait and try again.'] }, limited);
    await authenticate(app, req, reply);
    authorize(req, access);
    if (config.tenant) await checkTenant(app, req, tenants, config.tenant);
    if (config.csrf !== false && !SAFE_METHODS.has(req.method) && !req.auth?.apiKey) checkCsrf(req);
  });
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
