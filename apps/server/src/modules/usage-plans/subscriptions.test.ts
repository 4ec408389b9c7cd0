/**
 * Subscriptions through HTTP, both products: buying for oneself from the wallet (and a retry that charges once), by
 * card (active only once the processor's signed webhook says so; a decline leaves nothing live), for a team and for
 * the company; what people see (list queries, one, active, pending); renewal on and off; cancellation at the end
 * of the month or now with the unused part credited. Refusals name the field and write nothing.
 */
import { PLAN_PRODUCTS } from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { companies } from '../../platform/db/schema.js';
import { checkLedger } from '../wallet/verify.js';
import { balanceOf, cardOf, deliverWebhooks, fund, idem, planOf, send, settledOrder } from './route-test-kit.js';

let t: TestApp;
const clients = new Map<string, Client>();
const as = async (role: string) => {
  if (!clients.has(role)) clients.set(role, await signIn(t.app, DEMO(role)));
  return clients.get(role)!;
};

beforeAll(async () => {
  t = await createTestApp();
  deliverWebhooks(t);
});
afterAll(async () => {
  expect((await checkLedger(t.database.db)).ok).toBe(true);
  await t.close();
});

const count = async (q: ReturnType<typeof sql>) => Number((await t.database.db.execute<{ n: number }>(q)).rows[0].n);

describe.each(PLAN_PRODUCTS)('%s subscriptions', (product) => {
  const base = `/v1/${product}/${product}_subscriptions`;

  it('an agent subscribes from the wallet: active now, one order, the wallet debited once even when retried', async () => {
    const agent = await as('agent');
    const plan = await planOf(agent, product, 'standard');
    await fund(t, DEMO('agent'), 10_000);
    const before = await balanceOf(t, DEMO('agent'));
    const key = idem();
    const body = { plan_id: plan.id, payment_method: 'wallet' };
    const res = await send(agent, base, body, key);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      kind: 'self',
      order_type: 'SelfPay',
      status: 'active',
      active: true,
      seats: 1,
      amount: plan.price,
      auto_renew: true,
      payment_method: 'wallet',
      can_manage: true,
      plan: { id: plan.id, tier: 'standard' },
    });
    expect(res.body.order).toMatchObject({ kind: 'subscription', status: 'paid', amount: plan.price, quantity: 1 });
    expect(await balanceOf(t, DEMO('agent'))).toBe(before - plan.price);
    const again = await send(agent, base, body, key);
    expect(again.status).toBe(201);
    expect(again.body.data.id).toBe(res.body.data.id);
    expect(await balanceOf(t, DEMO('agent'))).toBe(before - plan.price);

    const one = await agent.get(`${base}/${res.body.data.id}`);
    expect(one.body).toMatchObject({ id: res.body.data.id, current_usage: 0 });
    const history = await agent.get('/v1/wallets/transaction_history');
    expect(history.body.transactions[0].description).toMatch(/plan .*subscription \(1 seat\)/);

    // One of one's own at a time.
    const second = await send(agent, base, {
      plan_id: (await planOf(agent, product, 'premium')).id,
      payment_method: 'wallet',
    });
    expect(second.status).toBe(422);
    expect(second.body.errors.plan_id[0]).toMatch(/already have/);
  });

  it('a wallet that cannot pay is refused with its balance, and nothing is written', async () => {
    const tm = await as('telemarketer');
    const plan = await planOf(tm, product, 'premium');
    const before = await count(sql`select count(*)::int as n from plan_orders`);
    const res = await send(tm, base, { plan_id: plan.id, payment_method: 'wallet' });
    expect(res.status).toBe(422);
    expect(res.body.errors.payment_method[0]).toMatch(/Your wallet holds \$0\.00; this costs/);
    expect(await count(sql`select count(*)::int as n from plan_orders`)).toBe(before);
    expect(
      await count(sql`select count(*)::int as n from plan_subscriptions s join users u on u.id = s.owner_id
      where u.email = ${DEMO('telemarketer')} and s.kind = 'self'`),
    ).toBe(0);
  });

  it('by card: pending until the processor confirms, then active', async () => {
    const dm = await as('district_manager');
    const plan = await planOf(dm, product, 'standard');
    const pm = await cardOf(dm);
    const res = await send(dm, base, { plan_id: plan.id, payment_method: 'card', payment_method_id: pm });
    expect([201, 202]).toContain(res.status);
    expect(res.body.order).toMatchObject({ payment_method: 'card', card_last4: '4242' });
    const order = await settledOrder(dm, product, res.body.order.id);
    expect(order.status).toBe('paid');
    const sub = await dm.get(`${base}/${res.body.data.id}`);
    expect(sub.body).toMatchObject({ status: 'active', active: true });
    const active = await dm.get(`/v1/${product}/${product}_subscriptions_active?type=personal`);
    expect(active.body.data.id).toBe(res.body.data.id);
  });

  it('a declined card: 422 with the reason, the order failed, nothing covers', async () => {
    const rm = await as('regional_manager');
    const plan = await planOf(rm, product, 'standard');
    const pm = await cardOf(rm, '4000000000000002');
    const res = await send(rm, base, { plan_id: plan.id, payment_method: 'card', payment_method_id: pm });
    expect(res.status).toBe(422);
    expect(res.body.errors.card).toEqual(['Your card was declined.']);
    const orders = await rm.get(`/v1/${product}/${product}_orders?status=failed`);
    expect(orders.body.data[0]).toMatchObject({ status: 'failed', failure_message: 'Your card was declined.' });
    const subs = await rm.get(`${base}?mine=true`);
    expect(subs.body.data.map((s: { status: string }) => s.status)).toEqual(['cancelled']);
    expect((await rm.get(`/v1/${product}/${product}_subscriptions_active`)).body).toEqual({ data: {} });
    // The failed one does not block a new try.
    const ok = await send(rm, base, { plan_id: plan.id, payment_method: 'card', payment_method_id: await cardOf(rm) });
    expect([201, 202]).toContain(ok.status);
  });

  it('a manager buys seats for a team: licences to hand out', async () => {
    const fm = await as('field_manager');
    const plan = await planOf(fm, product, 'standard');
    await fund(t, DEMO('field_manager'), plan.price * 3);
    const res = await send(fm, base, { plan_id: plan.id, kind: 'manager', seats: 3, payment_method: 'wallet' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({
      kind: 'manager',
      order_type: 'ManagerPay',
      seats: 3,
      assigned: 0,
      pool: plan.units * 3,
    });
    expect(await balanceOf(t, DEMO('field_manager'))).toBe(0);
    const licences = await fm.get(`/v1/${product}/${product}_licenses?subscription_id=${res.body.data.id}`);
    expect(licences.body.data).toHaveLength(3);
    expect(licences.body.data.every((l: { paid: boolean; user: unknown }) => l.paid && l.user === null)).toBe(true);
    expect(licences.body.pool).toEqual({ size: plan.units * 3, allocated: plan.units * 3 });
  });

  it('an admin subscribes the company from the company wallet; people see it as the company subscription', async () => {
    const admin = await as('admin');
    const plan = await planOf(admin, product, 'enterprise');
    await fund(t, DEMO('admin'), plan.price * plan.min_seats, 'company');
    const res = await send(admin, base, {
      plan_id: plan.id,
      kind: 'company',
      seats: plan.min_seats,
      payment_method: 'company_wallet',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'company', status: 'active', seats: plan.min_seats });
    expect(await balanceOf(t, DEMO('admin'), 'company')).toBe(0);
    const agent = await as('agent');
    const company = await agent.get(`/v1/${product}/${product}_subscriptions_active?type=company`);
    expect(company.body.data).toMatchObject({ id: res.body.data.id, kind: 'company', can_manage: false });
    expect((await agent.get(`${base}/pending_company_subscription`)).body).toEqual({ data: {} });
    const twice = await send(admin, base, {
      plan_id: plan.id,
      kind: 'company',
      seats: plan.min_seats,
      payment_method: 'company_wallet',
    });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.kind[0]).toMatch(/already has/);
  });

  it('refuses what a buyer may not ask for', async () => {
    const agent = await as('agent');
    const standard = await planOf(agent, product, 'standard');
    const enterprise = await planOf(agent, product, 'enterprise');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ plan_id: enterprise.id, payment_method: 'wallet', kind: 'self' }, 'plan_id'],
      [{ plan_id: standard.id, payment_method: 'wallet', seats: 2 }, 'seats'],
      [{ plan_id: standard.id, payment_method: 'wallet', kind: 'manager', seats: 2 }, 'kind'],
      [{ plan_id: standard.id, payment_method: 'wallet', kind: 'company', seats: 9 }, 'kind'],
      [{ plan_id: standard.id, payment_method: 'company_wallet' }, 'payment_method'],
      [{ plan_id: standard.id, payment_method: 'card' }, 'payment_method_id'],
      [{ plan_id: standard.id, payment_method: 'card', payment_method_id: 'pm_nothing' }, 'payment_method_id'],
      [{ plan_id: 999_999, payment_method: 'wallet' }, 'plan_id'],
      [{ plan_id: standard.id, payment_method: 'cash' }, 'payment_method'],
      [{ plan_id: standard.id, payment_method: 'wallet', price: 1 }, ''],
    ];
    const before = await count(sql`select count(*)::int as n from plan_orders`);
    for (const [body, field] of cases) {
      const res = await send(await as('telemarketer'), base, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      if (field) expect(Object.keys(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    // Too few seats of an enterprise plan, by a manager.
    const fewer = await send(await as('manager'), base, {
      plan_id: enterprise.id,
      kind: 'manager',
      seats: 1,
      payment_method: 'wallet',
    });
    expect(fewer.body.errors.seats).toEqual([`must be at least ${enterprise.min_seats} for this plan`]);
    // Without an Idempotency-Key a purchase is refused before anything happens.
    const noKey = await agent.post(base, { plan_id: standard.id, payment_method: 'wallet' });
    expect(noKey.status).toBe(422);
    expect(await count(sql`select count(*)::int as n from plan_orders`)).toBe(before);
  });

  it('lists what the caller sees, with q, order, order_field, active and mine', async () => {
    const manager = await as('manager');
    const mine = await manager.get(`${base}?mine=true`);
    expect(mine.status).toBe(200);
    expect(mine.body.data.length).toBeGreaterThanOrEqual(1);
    expect(mine.body.data.every((s: { owner: { name: string } }) => s.owner.name === 'Monica Reyes')).toBe(true);
    const agent = await as('agent');
    // The agent sees their own and the subscription whose licence they hold, not the field manager's.
    const seen = await agent.get(base);
    const owners = new Set(seen.body.data.map((s: { owner: { name: string } }) => s.owner.name));
    expect(owners.has('Monica Reyes')).toBe(true);
    expect(owners.has('Fiona Park')).toBe(false);
    const admin = await as('admin');
    const all = await admin.get(`${base}?order_field=plan&order=asc&limit=100`);
    const names = all.body.data.map((s: { plan: { name: string } }) => s.plan.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    const active = await admin.get(`${base}?active=true&limit=100`);
    expect(active.body.data.every((s: { active: boolean }) => s.active)).toBe(true);
    const inactive = await admin.get(`${base}?active=false&limit=100`);
    expect(inactive.body.data.every((s: { active: boolean }) => !s.active)).toBe(true);
    const q = await admin.get(`${base}?q=Fiona`);
    expect(q.body.data.map((s: { owner: { name: string } }) => s.owner.name)).toEqual(['Fiona Park']);
    expect((await admin.get(`${base}?order_field=price`)).status).toBe(422);
    expect((await admin.get(`${base}?mine=maybe`)).status).toBe(422);
  });

  it('active: the cover of the caller or {} ; pending company: {} when there is none', async () => {
    const agent = await as('agent');
    const personal = await agent.get(`/v1/${product}/${product}_subscriptions_active?type=personal`);
    // A company licence comes first, then a manager's, then one's own: the agent holds Monica's.
    expect(personal.body.data).toMatchObject({ kind: 'manager', owner: { name: 'Monica Reyes' } });
    const bu = await as('bu_admin');
    expect((await bu.get(`/v1/${product}/${product}_subscriptions_active`)).body).toEqual({ data: {} });
    expect((await bu.get(`/v1/${product}/${product}_subscriptions_active?type=team`)).status).toBe(422);
  });

  it('renewal off and on; cancel at the end of the month, then now with the unused part credited', async () => {
    const agent = await as('agent');
    const [own] = (await agent.get(`${base}?mine=true&active=true`)).body.data;
    const off = await agent.patch(`${base}/${own.id}`, { auto_renew: false });
    expect(off.body.auto_renew).toBe(false);
    expect((await agent.patch(`${base}/${own.id}`, { auto_renew: true })).body.auto_renew).toBe(true);
    expect((await agent.patch(`${base}/${own.id}`, { auto_renew: 'yes' })).status).toBe(422);

    const later = await agent.request('POST', `${base}/${own.id}/cancel`, { type: 'period_end' });
    expect(later.status).toBe(200);
    expect(later.body).toMatchObject({ credited: 0, data: { status: 'active', active: true, auto_renew: false } });
    expect(later.body.data.cancelled_at).not.toBeNull();
    // Renewal back on undoes it.
    const resumed = await agent.patch(`${base}/${own.id}`, { auto_renew: true });
    expect(resumed.body.cancelled_at).toBeNull();

    const before = await balanceOf(t, DEMO('agent'));
    const now = await agent.request('POST', `${base}/${own.id}/cancel`, { type: 'immediate' });
    expect(now.status).toBe(200);
    expect(now.body.data).toMatchObject({ status: 'cancelled', active: false });
    // Bought moments ago: nearly the whole month comes back.
    expect(now.body.credited).toBeGreaterThan(own.amount * 0.95);
    expect(now.body.credited).toBeLessThanOrEqual(own.amount);
    expect(await balanceOf(t, DEMO('agent'))).toBe(before + now.body.credited);
    const again = await agent.request('POST', `${base}/${own.id}/cancel`, { type: 'immediate' });
    expect(again.status).toBe(422);
    expect((await agent.request('POST', `${base}/${own.id}/cancel`, { type: 'later' })).status).toBe(422);
  });

  it("only the buyer or an admin changes a subscription; another company's is not found", async () => {
    const agent = await as('agent');
    const monicas = (await agent.get(`${base}?q=Monica`)).body.data[0];
    expect(monicas.can_manage).toBe(false);
    const res = await agent.request('POST', `${base}/${monicas.id}/cancel`, { type: 'immediate' });
    expect(res.status).toBe(422);
    expect(res.body.errors.id[0]).toMatch(/not a subscription you manage/);
    expect((await agent.patch(`${base}/${monicas.id}`, { auto_renew: false })).status).toBe(422);

    const db = t.database.db;
    const [other] = await db.select().from(companies).where(eq(companies.number, 'C-1002'));
    const foreign = await t.app.tenants.get(`${product}_subscription`).sample(db, other.id);
    const admin = await as('admin');
    expect((await admin.get(`${base}/${foreign}`)).status).toBe(404);
    expect((await admin.patch(`${base}/${foreign}`, { auto_renew: false })).status).toBe(404);
    expect((await admin.request('POST', `${base}/${foreign}/cancel`, {})).status).toBe(404);
    // Someone of the company who may not see it: 404 too.
    const fm = await as('field_manager');
    expect((await fm.get(`${base}/${monicas.id}`)).status).toBe(404);
  });
});
