/**
 * The permission matrix: every registered route x {no session, each demo role, the other company}. It reads the
 * routes from the running app, so a later area joins the matrix by declaring `access` (and `tenant` for routes that
 * name a record, with a resolver registered for the resource) — no new test code.
 *   - no session: 401, unless the route is public;
 *   - each demo role whose permissions do not include the route's: 403;
 *   - a record of the other demo company, asked for by a user who may use the route: 404.
 */
import { can, FEATURE_KEYS, type Permission } from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAuthContext } from '../src/platform/auth/context.js';
import { companies, users } from '../src/platform/db/schema.js';
import { Client, createTestApp, DEMO, signIn, type TestApp } from './harness.js';

const ROLES = [
  'admin',
  'sub_admin',
  'bu_admin',
  'manager',
  'regional_manager',
  'district_manager',
  'field_manager',
  'telemarketer',
  'agent',
  'basic',
];

let t: TestApp;
let routes: Array<{ method: string; url: string; access: string; tenant?: { param: string; resource: string } }>;

beforeAll(async () => {
  t = await createTestApp();
  routes = t.app.declaredRoutes
    .flatMap((r: RouteOptions) =>
      [r.method].flat().map((method) => ({ method, url: r.url, access: r.config!.access!, tenant: r.config?.tenant })),
    )
    .filter((r) => r.method !== 'HEAD' && r.url !== '/cable');
});
afterAll(() => t.close());

/** Fills path params with a syntactically valid id (the 401/403 checks come before any lookup). */
const concrete = (url: string, id = '1') => url.replace(/:[a-zA-Z_]+/g, id).replace(/\*$/, 'x');

describe('permission matrix', () => {
  it('covers the routes of the foundation', () => {
    const urls = routes.map((r) => `${r.method} ${r.url}`);
    expect(urls).toContain('POST /v1/sessions');
    expect(urls).toContain('GET /v1/users/me');
    expect(urls).toContain('PATCH /v1/users/:id/update_password');
  });

  it('answers 401 to every non-public route without a session', async () => {
    const anonymous = new Client(t.app);
    const failures: string[] = [];
    for (const r of routes.filter((r) => r.access !== 'public')) {
      const res = await anonymous.request(r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
      if (res.status !== 401) failures.push(`${r.method} ${r.url} -> ${res.status}`);
      else expect(res.body.errors.user).toBeDefined();
    }
    expect(failures).toEqual([]);
  });

  it('answers 403 to every role whose permissions exclude the route', async () => {
    const failures: string[] = [];
    let checked = 0;
    for (const role of ROLES) {
      const client = await signIn(t.app, DEMO(role));
      const me = (await client.get('/v1/users/me')).body;
      const subject = { roles: me.roles, basic: me.basic, features: me.features, variant: me.company.variant };
      for (const r of routes.filter((r) => !['public', 'authenticated', 'otp_pending'].includes(r.access))) {
        if (can(subject, r.access as Permission)) continue;
        checked++;
        const res = await client.request(r.method, concrete(r.url), r.method === 'GET' ? undefined : {});
        if (res.status !== 403 || res.body.errors.user?.[0] !== 'Access denied!') {
          failures.push(`${role}: ${r.method} ${r.url} -> ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
    // Some permission must be denied to someone, or this test proves nothing.
    expect(checked).toBeGreaterThan(0);
  });

  it('answers 404 for a record of the other company on every route that names one', async () => {
    const db = t.database.db;
    // Every feature on, so a feature-gated route is reachable and only tenancy can refuse it.
    const all = Object.fromEntries(FEATURE_KEYS.map((k) => [k, true]));
    await db.update(companies).set({ features: all }).where(eq(companies.number, 'C-1001'));
    const [other] = await db.select().from(companies).where(eq(companies.number, 'C-1002'));
    // Contact numbers are counted per company: give the other company one number that ours does not have.
    await db.execute(
      sql`insert into contacts (company_id, number, type, first_name) select ${other.id}, max(number) + 1, 'lead', 'Only theirs' from contacts`,
    );
    const tenantRoutes = routes.filter((r) => r.tenant);
    expect(tenantRoutes.length).toBeGreaterThan(0);
    const failures: string[] = [];
    const clients = new Map<string, Client>();
    for (const r of tenantRoutes) {
      const foreignId = await t.app.tenants.get(r.tenant!.resource).sample(db, other.id);
      expect(foreignId, `the other company has a ${r.tenant!.resource}`).not.toBeNull();
      const role = await roleAllowed(r.access);
      if (!role) {
        failures.push(`${r.method} ${r.url}: no demo role may use it`);
        continue;
      }
      if (!clients.has(role)) clients.set(role, await signIn(t.app, DEMO(role)));
      const url = r.url.replace(`:${r.tenant!.param}`, foreignId!).replace(/:[a-zA-Z_]+/g, '1');
      const res = await clients.get(role)!.request(r.method, url, r.method === 'GET' ? undefined : {});
      if (res.status !== 404) failures.push(`${r.method} ${r.url} as ${role} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('API keys', () => {
  it('never meet a 5xx on any route: a key has no browser session, and every route must cope', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const { token } = (await admin.post('/v1/users/api_keys', { name: 'matrix' })).body;
    const key = new Client(t.app);
    key.csrf = false;
    const failures: string[] = [];
    for (const r of routes.filter((r) => r.access !== 'public')) {
      const res = await key.request(r.method, concrete(r.url), r.method === 'GET' ? undefined : {}, {
        authorization: `Bearer ${token}`,
      });
      if (res.status >= 500) failures.push(`${r.method} ${r.url} -> ${res.status}`);
    }
    expect(failures).toEqual([]);
  });
});

describe('bad input', () => {
  // Every route three times over: minutes on a busy 2-core runner, so it gets its own time budget.
  it('an empty body or a made-up id is a 4xx on every route, never a 5xx', { timeout: 300_000 }, async () => {
    const all = Object.fromEntries(FEATURE_KEYS.map((k) => [k, true]));
    await t.database.db.update(companies).set({ features: all }).where(eq(companies.number, 'C-1001'));
    // Routes that end or switch the caller's own session are left out: they would sign the sweep out.
    const skip = new Set(['DELETE /v1/sessions', 'POST /v1/sessions/:id', 'POST /sso-logout']);
    const failures: string[] = [];
    for (const role of ['admin', 'manager', 'agent']) {
      const client = await signIn(t.app, DEMO(role));
      for (const r of routes.filter((r) => r.access !== 'public' && !skip.has(`${r.method} ${r.url}`))) {
        for (const id of ['1', '999999999']) {
          const res = await client.request(r.method, concrete(r.url, id), r.method === 'GET' ? undefined : {});
          if (res.status >= 500) failures.push(`${role}: ${r.method} ${concrete(r.url, id)} -> ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});

async function roleAllowed(access: string): Promise<string | null> {
  if (['public', 'authenticated', 'otp_pending'].includes(access)) return 'admin';
  const db = t.database.db;
  for (const role of ROLES) {
    const [row] = await db
      .select({ user: users, company: companies })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.email, DEMO(role)));
    if (can(buildAuthContext(row.user, row.company, null).subject, access as Permission)) return role;
  }
  return null;
}
