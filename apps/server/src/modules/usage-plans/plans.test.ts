/**
 * Plans, both products: what people may buy (personal and enterprise lists: q, order, page, limit, all) and the
 * admin's CRUD (validation, names unique per product, a PATCH that changes only what it names, deletion refused
 * while in use, soft delete), with the denials: agents on admin routes, a basic user and a closed feature gate.
 */
import { PLAN_PRODUCTS } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { companies } from '../../platform/db/schema.js';

let t: TestApp;
let admin: Client;
let agent: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO('admin'));
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

const plan = (over: Record<string, unknown> = {}) => ({
  name: `Plan ${Math.random().toString(36).slice(2, 8)}`,
  tier: 'standard',
  price: 500,
  units: 1000,
  unit_price: 2,
  ...over,
});

describe.each(PLAN_PRODUCTS)('%s plans', (product) => {
  const adminBase = `/v1/admin/${product}/${product}_plans`;
  const userBase = `/v1/${product}/${product}_plans`;

  it('lists the personal plans on sale, cheapest first, and the enterprise ones apart', async () => {
    const personal = await agent.get(userBase);
    expect(personal.status).toBe(200);
    expect(personal.body.data.length).toBeGreaterThanOrEqual(2);
    expect(personal.body.data.every((p: { enterprise: boolean; active: boolean }) => !p.enterprise && p.active)).toBe(
      true,
    );
    const prices = personal.body.data.map((p: { price: number }) => p.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    expect(personal.body.meta).toMatchObject({ current_page: 1, limit: 25 });
    const desc = await agent.get(`${userBase}?order=desc`);
    expect(desc.body.data.map((p: { price: number }) => p.price)).toEqual([...prices].reverse());
    const enterprise = await agent.get(`${userBase}/enterprise`);
    expect(enterprise.body.data.length).toBeGreaterThanOrEqual(1);
    expect(enterprise.body.data.every((p: { enterprise: boolean }) => p.enterprise)).toBe(true);
  });

  it('searches, pages and answers every row with all=true', async () => {
    const paged = await agent.get(`${userBase}?limit=1&page=2`);
    expect(paged.body.data).toHaveLength(1);
    expect(paged.body.meta).toMatchObject({ current_page: 2, limit: 1 });
    const all = await agent.get(`${userBase}?all=true&limit=1`);
    expect(all.body.data.length).toBe(all.body.meta.total_count);
    const found = await agent.get(`${userBase}?q=premium`);
    expect(found.body.data.map((p: { tier: string }) => p.tier)).toEqual(['premium']);
    expect((await agent.get(`${userBase}?q=nothing-like-it`)).body.data).toEqual([]);
  });

  it('refuses bad list queries', async () => {
    expect((await agent.get(`${userBase}?order=sideways`)).status).toBe(422);
    expect((await agent.get(`${userBase}?limit=0`)).status).toBe(422);
    expect((await agent.get(`${userBase}?all=perhaps`)).status).toBe(422);
  });

  it('an admin creates, reads, changes and deletes a plan; people see it only while active', async () => {
    const created = await admin.post(adminBase, plan({ name: 'Starter', description: 'For new agents' }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      product,
      name: 'Starter',
      description: 'For new agents',
      enterprise: false,
      min_seats: 1,
      active: true,
    });
    const id = created.body.id;
    expect((await admin.get(`${adminBase}/${id}`)).body.name).toBe('Starter');
    expect((await agent.get(`${userBase}?q=Starter`)).body.data.map((p: { id: number }) => p.id)).toEqual([id]);

    // A PATCH changes what it names, nothing else.
    const patched = await admin.patch(`${adminBase}/${id}`, { price: 900 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ price: 900, description: 'For new agents', active: true, name: 'Starter' });
    await admin.patch(`${adminBase}/${id}`, { active: false });
    expect((await agent.get(`${userBase}?q=Starter`)).body.data).toEqual([]);
    const listed = await admin.get(`${adminBase}?q=Starter`);
    expect(listed.body.data.map((p: { id: number; active: boolean }) => [p.id, p.active])).toEqual([[id, false]]);

    expect((await admin.delete(`${adminBase}/${id}`)).status).toBe(204);
    expect((await admin.get(`${adminBase}/${id}`)).status).toBe(404);
    expect((await admin.get(`${adminBase}?q=Starter`)).body.data).toEqual([]);
    // The name is free again once the plan is gone.
    expect((await admin.post(adminBase, plan({ name: 'Starter' }))).status).toBe(201);
  });

  it('names are unique per product, case aside; the other product may use the same name', async () => {
    expect((await admin.post(adminBase, plan({ name: 'Dup Name' }))).status).toBe(201);
    const dup = await admin.post(adminBase, plan({ name: 'dup name' }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(['has already been taken']);
    const other = product === 'sms' ? 'dialer' : 'sms';
    expect((await admin.post(`/v1/admin/${other}/${other}_plans`, plan({ name: `Dup Name ${product}` }))).status).toBe(
      201,
    );
  });

  it('refuses bad plans with the field named, and writes nothing', async () => {
    const before = (await admin.get(`${adminBase}?all=true`)).body.meta.total_count;
    const cases: Array<[Record<string, unknown>, string]> = [
      [plan({ name: '  ' }), 'name'],
      [plan({ tier: 'gold' }), 'tier'],
      [plan({ price: -1 }), 'price'],
      [plan({ price: 12.5 }), 'price'],
      [plan({ units: 'many' }), 'units'],
      [plan({ unit_price: 5000 }), 'unit_price'],
      [plan({ min_seats: 0 }), 'min_seats'],
      [plan({ company_id: 2 }), 'base'],
    ];
    for (const [body, field] of cases) {
      const res = await admin.post(adminBase, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors).join(','), JSON.stringify(body)).toContain(field === 'base' ? '' : field);
    }
    expect((await admin.get(`${adminBase}?all=true`)).body.meta.total_count).toBe(before);
    expect((await admin.patch(`${adminBase}/999999`, { price: 1 })).status).toBe(404);
  });

  it('refuses to delete a plan a live subscription uses', async () => {
    const list = await admin.get(`${adminBase}?q=Standard`);
    const standard = list.body.data.find((p: { tier: string }) => p.tier === 'standard');
    const res = await admin.delete(`${adminBase}/${standard.id}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toMatch(/live subscription/);
  });

  it("another company's plan is not found", async () => {
    const db = t.database.db;
    const [other] = await db.select().from(companies).where(eq(companies.number, 'C-1002'));
    const id = await t.app.tenants.get(`${product}_plan`).sample(db, other.id);
    expect((await admin.get(`${adminBase}/${id}`)).status).toBe(404);
    expect((await admin.patch(`${adminBase}/${id}`, { price: 1 })).status).toBe(404);
    expect((await admin.delete(`${adminBase}/${id}`)).status).toBe(404);
  });

  it("is the admins' alone", async () => {
    for (const role of ['agent', 'manager', 'bu_admin']) {
      const c = role === 'agent' ? agent : await signIn(t.app, DEMO(role));
      const res = await c.post(adminBase, plan());
      expect(res.status, role).toBe(403);
      expect(res.body.errors.user).toEqual(['Access denied!']);
      expect((await c.get(adminBase)).status, role).toBe(403);
    }
    const sub = await signIn(t.app, DEMO('sub_admin'));
    expect((await sub.get(adminBase)).status).toBe(200);
  });
});

describe('gates', () => {
  it('a basic user has no texting plans; the dialer plans follow the dialer flag', async () => {
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await basic.get('/v1/sms/sms_plans')).status).toBe(403);
    expect((await basic.get('/v1/dialer/dialer_plans')).status).toBe(200);
  });

  it('a feature switched off closes its plans, with the reason', async () => {
    const db = t.database.db;
    const [c] = await db.select().from(companies).where(eq(companies.number, 'C-1001'));
    await db
      .update(companies)
      .set({ features: { ...c.features, dialer: false } })
      .where(eq(companies.id, c.id));
    try {
      const res = await agent.get('/v1/dialer/dialer_plans');
      expect(res.status).toBe(403);
      expect((await admin.get('/v1/admin/dialer/dialer_plans')).status).toBe(403);
      expect((await agent.get('/v1/sms/sms_plans')).status).toBe(200);
    } finally {
      await db.update(companies).set({ features: c.features }).where(eq(companies.id, c.id));
    }
  });
});
