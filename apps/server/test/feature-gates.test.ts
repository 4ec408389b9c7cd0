/**
 * Feature gates on the server: every route that declares `config.feature` is walked with its gate closed (the flag
 * switched off for the company, or a basic user for what basic accounts lose) and must answer 403 naming the
 * feature; with the gate open the gate must not be what refuses. Routes join by declaring their feature.
 */
import { can, FEATURE_FLAGS, FEATURE_GATES, type FeatureGate, type Permission } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContact } from '../src/modules/contacts/test-helpers.js';
import { buildAuthContext } from '../src/platform/auth/context.js';
import { companies, users } from '../src/platform/db/schema.js';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from './harness.js';

const ROLES = ['admin', 'sub_admin', 'bu_admin', 'manager', 'agent', 'telemarketer', 'basic'];
const FLAG_KEYS = new Set<string>(FEATURE_FLAGS.map((f) => f.key));

let t: TestApp;
let admin: Client;
let gated: Array<{ method: string; url: string; access: string; feature: FeatureGate; tenant?: string }>;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO('admin'));
  gated = t.app.declaredRoutes.flatMap((r: RouteOptions) =>
    r.config?.feature
      ? [r.method]
          .flat()
          // HEAD is Fastify's shadow of a GET: same hooks, no body to read the refusal from.
          .filter((method) => method !== 'HEAD')
          .map((method) => ({
            method,
            url: r.url,
            access: r.config!.access!,
            feature: r.config!.feature!,
            tenant: r.config?.tenant?.resource,
          }))
      : [],
  );
});
afterAll(() => t.close());

const setFlags = async (flags: Record<string, boolean>) =>
  expect((await admin.put('/v1/admin/feature_flags', { company: flags })).status).toBe(200);

/** A demo user (not basic) whose role the route's permission allows with every flag on. */
async function roleFor(access: string): Promise<string | null> {
  for (const role of ROLES) {
    const [row] = await t.database.db
      .select({ user: users, company: companies })
      .from(users)
      .innerJoin(companies, eq(companies.id, users.companyId))
      .where(eq(users.email, DEMO(role)));
    if (row.user.basic) continue;
    const subject = buildAuthContext(row.user, row.company, null).subject;
    const allOn = { ...subject, features: Object.fromEntries([...FLAG_KEYS].map((k) => [k, true])) as never };
    if (['authenticated', 'account.self'].includes(access) || can(allOn, access as Permission)) return role;
  }
  return null;
}

/** Fills the route's params; a record-naming param gets one of the caller's company (a real id). */
async function concrete(route: (typeof gated)[number]): Promise<string> {
  const [me] = await t.database.db
    .select()
    .from(users)
    .where(eq(users.email, DEMO('admin')));
  let url = route.url;
  if (route.tenant) {
    const id = await t.app.tenants.get(route.tenant).sample(t.database.db, me.companyId);
    url = url.replace(/:[a-zA-Z_]+/, String(id));
  }
  return url.replace(/:[a-zA-Z_]+/g, '1');
}

describe('feature gates', () => {
  it('are declared on the routes that exist today, with known gates and never on public routes', () => {
    const names = gated.map((r) => `${r.method} ${r.url} ${r.feature}`);
    expect(names).toContain('PATCH /v1/contacts/:id/update_linked_contact linked_contacts');
    expect(names).toContain('PATCH /v1/users/:id/update_webpage marketing_profile');
    for (const r of gated) {
      expect(FEATURE_GATES, `${r.method} ${r.url}`).toContain(r.feature);
      expect(r.access, `${r.method} ${r.url}`).not.toBe('public');
    }
  });

  it('answer 403 naming the feature on every gated route once its flag is off (or the caller is basic)', async () => {
    const failures: string[] = [];
    // One sign-in per role (each costs a password hash): the gated routes are many.
    const clients = new Map<string, Awaited<ReturnType<typeof signIn>>>();
    const clientOf = async (role: string) => {
      if (!clients.has(role)) clients.set(role, await signIn(t.app, DEMO(role)));
      return clients.get(role)!;
    };
    for (const r of gated) {
      const isFlag = FLAG_KEYS.has(r.feature);
      // What basic accounts lose is tried as the basic user: the gate answers before the permission does.
      const role = isFlag ? await roleFor(r.access) : 'basic';
      if (!role) {
        failures.push(`${r.method} ${r.url}: no demo user to try it with`);
        continue;
      }
      const client = await clientOf(role);
      const url = await concrete(r);
      const body = r.method === 'GET' ? undefined : {};
      if (isFlag) {
        await setFlags({ [r.feature]: true });
        const open = await client.request(r.method, url, body);
        if (open.body?.errors?.feature) failures.push(`${r.method} ${r.url}: refused with the flag on`);
        await setFlags({ [r.feature]: false });
      }
      const closed = await client.request(r.method, url, body);
      if (
        closed.status !== 403 ||
        !/is turned off|is not part of a basic account/.test(closed.body.errors.feature?.[0])
      )
        failures.push(`${r.method} ${r.url} as ${role} -> ${closed.status} ${JSON.stringify(closed.body)}`);
      if (isFlag) await setFlags({ [r.feature]: true });
    }
    expect(failures).toEqual([]);
  }, 240_000);

  it('linked contacts switched off: update_linked_contact refuses and nothing is linked', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const a = await newContact(agent, { first_name: 'Ann' });
    const b = await newContact(agent, { first_name: 'Bob' });
    await setFlags({ linked_contacts: false });
    const res = await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: b.id });
    expect(res.status).toBe(403);
    expect(res.body.errors.feature).toEqual(['Linked contacts is turned off for your account.']);
    expect((await agent.get(`/v1/contacts/${a.number}`)).body.linked_contact).toBeNull();
    await setFlags({ linked_contacts: true });
    const linked = await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: b.id });
    expect(linked.status).toBe(200);
  });

  it("a user's own override closes the gate for that user only", async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const manager = await signIn(t.app, DEMO('manager'));
    const [agentRow] = await t.database.db
      .select()
      .from(users)
      .where(eq(users.email, DEMO('agent')));
    const put = await admin.put('/v1/admin/feature_flags', {
      users: [{ user_id: agentRow.id, overrides: { linked_contacts: false } }],
    });
    expect(put.status).toBe(200);
    const a = await newContact(agent);
    const b = await newContact(agent);
    expect(
      (await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: b.id })).status,
    ).toBe(403);
    const m1 = await newContact(manager);
    const m2 = await newContact(manager);
    expect(
      (await manager.patch(`/v1/contacts/${m1.number}/update_linked_contact`, { linked_contact_id: m2.id })).status,
    ).toBe(200);
  });
});
