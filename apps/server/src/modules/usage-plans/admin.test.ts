/**
 * The admin side of both products through HTTP: the company's month of usage, every subscription (prepare,
 * activate by invoice or from the company wallet, cancel with the credit), every order (add seats, cancel a
 * pending one, refund a paid one the way it was paid: wallet, card, invoice), the renewal job, and the denials.
 */
import { PLAN_PRODUCTS } from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { companies } from '../../platform/db/schema.js';
import { checkLedger } from '../wallet/verify.js';
import { recordUsage } from './enforcement.js';
import { renewDue } from './renewal.js';
import { balanceOf, cardOf, deliverWebhooks, fund, planOf, send, settledOrder, userId } from './route-test-kit.js';

let t: TestApp;
let admin: Client;
const clients = new Map<string, Client>();
const as = async (role: string) => {
  if (!clients.has(role)) clients.set(role, await signIn(t.app, DEMO(role)));
  return clients.get(role)!;
};

beforeAll(async () => {
  t = await createTestApp();
  deliverWebhooks(t);
  admin = await as('admin');
});
afterAll(async () => {
  expect((await checkLedger(t.database.db)).ok).toBe(true);
  await t.close();
});

const q1 = async (q: ReturnType<typeof sql>) => (await t.database.db.execute<Record<string, unknown>>(q)).rows[0];

describe.each(PLAN_PRODUCTS)('%s admin', (product) => {
  const base = `/v1/admin/${product}`;
  const userBase = `/v1/${product}/${product}_`;

  it("usage: the company's month person by person, most first", async () => {
    const angela = await userId(t, DEMO('agent'));
    await recordUsage(t.database.db, {
      companyId: angela.companyId,
      userId: angela.id,
      kind: product === 'sms' ? 'sms' : 'voice',
      quantity: 17,
      ref: `admin-usage-${product}`,
    });
    const res = await admin.get(`${base}/usage`);
    expect(res.status).toBe(200);
    expect(res.body.data[0]).toMatchObject({
      user: { name: 'Angela Diaz' },
      used: 17,
      allocation: product === 'sms' ? 500 : 300,
      coverage_kind: 'manager',
    });
    expect(res.body.totals).toEqual({ used: 17, people: 1 });
    expect(res.body.month).toMatch(/^\d{4}-\d{2}$/);
    const past = await admin.get(`${base}/usage?month=2020-01`);
    expect(past.body).toMatchObject({ month: '2020-01', totals: { used: 0, people: 0 } });
    expect(
      (await admin.get(`${base}/usage?q=brooks`)).body.data.map((r: { user: { name: string } }) => r.user.name),
    ).toEqual(['Tyler Brooks']);
    expect((await admin.get(`${base}/usage?month=2020-13`)).status).toBe(422);
  });

  it('prepares a company subscription by invoice: pending (people see it), then activated', async () => {
    const plan = await planOf(admin, product, 'enterprise');
    const res = await send(admin, `${base}/subscriptions`, {
      plan_id: plan.id,
      kind: 'company',
      seats: plan.min_seats,
      payment_method: 'invoice',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'company', status: 'pending', active: false });
    expect(res.body.order).toMatchObject({ status: 'pending', payment_method: 'invoice', order_type: 'ManagerPay' });
    const agent = await as('agent');
    const pending = await agent.get(`${userBase}subscriptions/pending_company_subscription`);
    expect(pending.body.data).toMatchObject({ id: res.body.data.id, status: 'pending' });
    // The company already has one on its way.
    const again = await send(admin, `${base}/subscriptions`, {
      plan_id: plan.id,
      kind: 'company',
      seats: plan.min_seats,
      payment_method: 'invoice',
    });
    expect(again.status).toBe(422);

    const on = await send(admin, `${base}/active_subscription`, { id: res.body.data.id });
    expect(on.status).toBe(200);
    expect(on.body.data).toMatchObject({ status: 'active', active: true });
    expect(on.body.order).toMatchObject({ status: 'paid' });
    expect((await agent.get(`${userBase}subscriptions/pending_company_subscription`)).body).toEqual({ data: {} });
    expect((await send(admin, `${base}/active_subscription`, { id: res.body.data.id })).status).toBe(422);
    // Licences of an invoice subscription are paid: an admin may hand them out.
    const lic = await admin.get(`${userBase}licenses?subscription_id=${res.body.data.id}`);
    expect(lic.body.data.every((l: { paid: boolean }) => l.paid)).toBe(true);

    // Cancelled by an admin (immediately by default): an invoice is settled outside Harbor, nothing is credited.
    const off = await send(admin, `${base}/cancel_subscription`, { id: res.body.data.id });
    expect(off.body).toMatchObject({ credited: 0, data: { status: 'cancelled' } });
  });

  it('activation from the company wallet is refused while it cannot pay, then charges it', async () => {
    const plan = await planOf(admin, product, 'premium');
    const tm = await userId(t, DEMO('telemarketer'));
    const res = await send(admin, `${base}/subscriptions`, {
      plan_id: plan.id,
      kind: 'self',
      user_id: tm.id,
      payment_method: 'company_wallet',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'self', owner: { name: 'Tyler Brooks' }, status: 'pending' });
    const empty = await send(admin, `${base}/active_subscription`, { id: res.body.data.id });
    expect(empty.status).toBe(422);
    expect(empty.body.errors.payment_method[0]).toMatch(/The company wallet holds/);
    const held = await balanceOf(t, DEMO('admin'), 'company');
    await fund(t, DEMO('admin'), plan.price, 'company');
    const on = await send(admin, `${base}/active_subscription`, { id: res.body.data.id });
    expect(on.status).toBe(200);
    expect(await balanceOf(t, DEMO('admin'), 'company')).toBe(held);
    // Cancelled now: the unused part goes back to the company wallet that paid.
    const off = await send(admin, `${base}/cancel_subscription`, { id: res.body.data.id, type: 'immediate' });
    expect(off.body.credited).toBeGreaterThan(0);
    expect(await balanceOf(t, DEMO('admin'), 'company')).toBe(held + off.body.credited);
  });

  it('refuses prepared subscriptions that make no sense', async () => {
    const plan = await planOf(admin, product, 'standard');
    const tm = await userId(t, DEMO('telemarketer'));
    const theirs = await userId(t, 'agent@recruit.harbor.test');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ plan_id: plan.id, kind: 'self', payment_method: 'invoice' }, 'user_id'],
      [{ plan_id: plan.id, kind: 'manager', user_id: tm.id, seats: 2, payment_method: 'invoice' }, 'user_id'],
      [{ plan_id: plan.id, kind: 'self', user_id: theirs.id, payment_method: 'invoice' }, 'user_id'],
      [{ plan_id: plan.id, kind: 'company', user_id: tm.id, payment_method: 'invoice' }, 'user_id'],
      [{ plan_id: plan.id, kind: 'self', user_id: tm.id, payment_method: 'wallet' }, 'payment_method'],
      [{ plan_id: 999_999, kind: 'self', user_id: tm.id, payment_method: 'invoice' }, 'plan_id'],
    ];
    for (const [body, field] of cases) {
      const res = await send(admin, `${base}/subscriptions`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect((await send(admin, `${base}/active_subscription`, {})).status).toBe(422);
    expect((await send(admin, `${base}/active_subscription`, { id: 999_999 })).status).toBe(404);
    expect((await send(admin, `${base}/cancel_subscription`, { id: 999_999 })).status).toBe(404);
  });

  it('lists every subscription and order of the company, with filters', async () => {
    const subs = await admin.get(`${base}/subscriptions?limit=100`);
    expect(subs.status).toBe(200);
    expect(subs.body.meta.total_count).toBeGreaterThanOrEqual(3);
    const cancelled = await admin.get(`${base}/subscriptions?status=cancelled`);
    expect(cancelled.body.data.every((s: { status: string }) => s.status === 'cancelled')).toBe(true);
    const managers = await admin.get(`${base}/subscriptions?kind=manager`);
    expect(managers.body.data.map((s: { owner: { name: string } }) => s.owner.name)).toContain('Monica Reyes');
    const orders = await admin.get(`${base}/orders`);
    expect(orders.body.data.length).toBeGreaterThanOrEqual(3);
    const ids = orders.body.data.map((o: { id: number }) => o.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    const paid = await admin.get(`${base}/orders?status=paid&q=Monica`);
    expect(paid.body.data.every((o: { status: string }) => o.status === 'paid')).toBe(true);
    expect((await admin.get(`${base}/orders?status=lost`)).status).toBe(422);
    expect((await admin.get(`${base}/subscriptions?kind=everyone`)).status).toBe(422);
  });

  it('adds seats by invoice, then cancels that order: refunded, its licences taken back', async () => {
    const monicas = (await admin.get(`${base}/subscriptions?q=Monica&kind=manager`)).body.data[0];
    const res = await send(admin, `${base}/orders`, {
      subscription_id: monicas.id,
      quantity: 2,
      payment_method: 'invoice',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toMatchObject({ kind: 'licences', status: 'paid', payment_method: 'invoice', quantity: 2 });
    expect((await admin.get(`${userBase}subscriptions/${monicas.id}`)).body.seats).toBe(monicas.seats + 2);
    const off = await send(admin, `${base}/cancel_order`, { id: res.body.data.id });
    expect(off.status).toBe(200);
    expect(off.body.data).toMatchObject({ status: 'refunded', refunded_amount: res.body.data.amount });
    expect((await admin.get(`${userBase}subscriptions/${monicas.id}`)).body.seats).toBe(monicas.seats);
    expect((await send(admin, `${base}/cancel_order`, { id: res.body.data.id })).status).toBe(422);
    for (const body of [
      { subscription_id: monicas.id, quantity: 0, payment_method: 'invoice' },
      { subscription_id: monicas.id, quantity: 1, payment_method: 'card' },
      { subscription_id: 999_999, quantity: 1, payment_method: 'invoice' },
    ]) {
      expect((await send(admin, `${base}/orders`, body)).status, JSON.stringify(body)).toBe(422);
    }
  });

  it('cancelling a pending order ends what it would have bought', async () => {
    const plan = await planOf(admin, product, 'standard');
    const bu = await userId(t, DEMO('bu_admin'));
    const res = await send(admin, `${base}/subscriptions`, {
      plan_id: plan.id,
      kind: 'self',
      user_id: bu.id,
      payment_method: 'invoice',
    });
    const off = await send(admin, `${base}/cancel_order`, { id: res.body.order.id });
    expect(off.body.data.status).toBe('cancelled');
    expect((await admin.get(`${userBase}subscriptions/${res.body.data.id}`)).body.status).toBe('cancelled');
  });

  it('refunds a wallet-paid order to that wallet, and a card-paid one to the card', async () => {
    const agent = await as('agent');
    const plan = await planOf(agent, product, 'standard');
    await fund(t, DEMO('agent'), plan.price);
    const bought = await send(agent, `${userBase}subscriptions`, { plan_id: plan.id, payment_method: 'wallet' });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    const before = await balanceOf(t, DEMO('agent'));
    const off = await send(admin, `${base}/cancel_order`, { id: bought.body.order.id });
    expect(off.body.data).toMatchObject({ status: 'refunded', refunded_amount: plan.price });
    expect(await balanceOf(t, DEMO('agent'))).toBe(before + plan.price);
    expect((await agent.get(`${userBase}subscriptions/${bought.body.data.id}`)).body.status).toBe('cancelled');

    const dm = await as('district_manager');
    const card = await send(dm, `${userBase}subscriptions`, {
      plan_id: plan.id,
      payment_method: 'card',
      payment_method_id: await cardOf(dm),
    });
    expect((await settledOrder(dm, product, card.body.order.id)).status).toBe('paid');
    const refund = await send(admin, `${base}/cancel_order`, { id: card.body.order.id });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(refund.body.data).toMatchObject({ status: 'refunded', refunded_amount: plan.price });
    const intent = await q1(sql`select processor_payment_id from plan_orders where id = ${card.body.order.id}`);
    const refunds = [...t.deps.payments.loopback!.state.refunds.values()].filter(
      (r) => r.payment_intent === intent!.processor_payment_id,
    );
    expect(refunds.map((r) => r.amount)).toEqual([plan.price]);
  });

  it('renewal: a wallet pays the next month; an empty wallet, renewal off or a cancel end it; an invoice renews', async () => {
    const db = t.database.db;
    const plan = await planOf(admin, product, 'standard');
    const ids: Record<string, number> = {};
    for (const [role, method] of [
      ['field_manager', 'wallet'],
      ['regional_manager', 'wallet'],
      ['sub_admin', 'invoice'],
    ] as const) {
      const u = await userId(t, DEMO(role));
      await db.execute(
        sql`update plan_subscriptions set status = 'cancelled' where owner_id = ${u.id} and kind = 'self'`,
      );
      const res = await send(admin, `${base}/subscriptions`, {
        plan_id: plan.id,
        kind: 'self',
        user_id: u.id,
        payment_method: method === 'wallet' ? 'company_wallet' : 'invoice',
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      if (method === 'wallet') {
        await fund(t, DEMO('admin'), plan.price, 'company');
        await send(admin, `${base}/active_subscription`, { id: res.body.data.id });
        await db.execute(sql`update plan_subscriptions set payment_method = 'wallet' where id = ${res.body.data.id}`);
      } else {
        await send(admin, `${base}/active_subscription`, { id: res.body.data.id });
      }
      ids[role] = res.body.data.id;
    }
    await fund(t, DEMO('field_manager'), plan.price);
    const all = Object.values(ids);
    await db.execute(
      sql`update plan_subscriptions set current_period_end = now() - interval '1 minute',
            current_period_start = now() - interval '1 month' where id in ${sql.raw(`(${all.join(',')})`)}`,
    );
    const before = await balanceOf(t, DEMO('field_manager'));
    await renewDue(t.deps);
    const status = async (id: number) =>
      q1(sql`select status, current_period_end > now() as live from plan_subscriptions where id = ${id}`);
    expect(await status(ids.field_manager)).toEqual({ status: 'active', live: true });
    expect(await balanceOf(t, DEMO('field_manager'))).toBe(before - plan.price);
    expect(await status(ids.regional_manager)).toMatchObject({ status: 'expired' });
    expect(await status(ids.sub_admin)).toEqual({ status: 'active', live: true });
    const renewals = await admin.get(`${base}/orders?subscription_id=${ids.regional_manager}`);
    expect(renewals.body.data[0]).toMatchObject({ kind: 'renewal', status: 'failed' });

    // Renewal off, or a cancel at the period's end, end it at the period's end.
    await db.execute(
      sql`update plan_subscriptions set current_period_end = now() - interval '1 minute', auto_renew = false where id = ${ids.field_manager}`,
    );
    await db.execute(
      sql`update plan_subscriptions set current_period_end = now() - interval '1 minute', cancelled_at = now() where id = ${ids.sub_admin}`,
    );
    await renewDue(t.deps);
    expect(await status(ids.field_manager)).toMatchObject({ status: 'expired' });
    expect(await status(ids.sub_admin)).toMatchObject({ status: 'cancelled' });
  });

  it("is for admins only; another company's records are not found", async () => {
    const manager = await as('manager');
    for (const [method, url] of [
      ['GET', `${base}/usage`],
      ['GET', `${base}/subscriptions`],
      ['POST', `${base}/subscriptions`],
      ['POST', `${base}/active_subscription`],
      ['POST', `${base}/cancel_subscription`],
      ['GET', `${base}/orders`],
      ['POST', `${base}/orders`],
      ['POST', `${base}/cancel_order`],
    ]) {
      const res = await manager.request(method, url, method === 'GET' ? undefined : {});
      expect(res.status, `${method} ${url}`).toBe(403);
    }
    const db = t.database.db;
    const [other] = await db.select().from(companies).where(eq(companies.number, 'C-1002'));
    const sub = await t.app.tenants.get(`${product}_subscription`).sample(db, other.id);
    const order = await t.app.tenants.get(`${product}_order`).sample(db, other.id);
    expect((await send(admin, `${base}/cancel_subscription`, { id: Number(sub) })).status).toBe(404);
    expect((await send(admin, `${base}/active_subscription`, { id: Number(sub) })).status).toBe(404);
    expect((await send(admin, `${base}/cancel_order`, { id: Number(order) })).status).toBe(404);
    expect(
      (await send(admin, `${base}/orders`, { subscription_id: Number(sub), quantity: 1, payment_method: 'invoice' }))
        .status,
    ).toBe(422);
  });
});
