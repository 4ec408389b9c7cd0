/**
 * Licences through HTTP, both products: a manager hands seats of their team subscription to the people they reach
 * and sets monthly allocations within the pool (recorded with old and new values), buys more seats mid-month
 * (charged for the rest of the month), and reads the team's month; the quota checks follow the allocation.
 */
import { PLAN_PRODUCTS } from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { companies } from '../../platform/db/schema.js';
import { checkDialerQuota, checkSmsAllocation, recordUsage } from './enforcement.js';
import { balanceOf, fund, send, userId } from './route-test-kit.js';

let t: TestApp;
let manager: Client;
let agent: Client;

beforeAll(async () => {
  t = await createTestApp();
  manager = await signIn(t.app, DEMO('manager'));
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

type L = {
  id: number;
  user: { id: number; name: string } | null;
  allocation: number;
  paid: boolean;
  subscription_id: number;
};

describe.each(PLAN_PRODUCTS)('%s licences', (product) => {
  const base = `/v1/${product}/${product}_licenses`;
  const team = async () => {
    const res = await manager.get(base);
    expect(res.status).toBe(200);
    return res.body.data as L[];
  };

  it("the manager sees their team's seats; an agent only their own", async () => {
    const seats = await team();
    expect(seats).toHaveLength(5);
    expect(
      seats
        .filter((l) => l.user)
        .map((l) => l.user!.name)
        .sort(),
    ).toEqual(['Angela Diaz', 'Tyler Brooks']);
    const pool = await manager.get(`${base}?subscription_id=${seats[0].subscription_id}`);
    expect(pool.body.pool).toEqual({ size: 5000, allocated: product === 'sms' ? 800 : 900 });
    expect((await agent.get(`${base}?subscription_id=${seats[0].subscription_id}`)).body.pool).toBeNull();
    const mine = await agent.get(base);
    expect(mine.body.data.map((l: L) => l.user?.name)).toEqual(['Angela Diaz']);
    expect(mine.body.data[0].can_manage).toBe(false);
    const found = await manager.get(`${base}?q=tyler`);
    expect(found.body.data.map((l: L) => l.user?.name)).toEqual(['Tyler Brooks']);
  });

  it('hands a free seat to someone they reach, and records the change', async () => {
    const free = (await team()).find((l) => !l.user)!;
    const nadia = await userId(t, 'newhire@demo.harbor.test');
    const res = await manager.patch(`${base}/${free.id}`, { user_id: nadia.id, allocation: 250 });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ user: { id: nadia.id, name: 'Nadia Hughes' }, allocation: 250, paid: true });
    const changes = await t.database.db.execute(
      sql`select from_user_id, to_user_id, from_allocation, to_allocation from plan_licence_changes where licence_id = ${free.id}`,
    );
    expect(changes.rows).toEqual([
      { from_user_id: null, to_user_id: nadia.id, from_allocation: 0, to_allocation: 250 },
    ]);
    // Taking it back keeps the seat and its allocation for the next person.
    const back = await manager.patch(`${base}/${free.id}`, { user_id: null });
    expect(back.body).toMatchObject({ user: null, allocation: 250 });
  });

  it('refuses someone outside their reach, someone who already holds a licence, and more than the pool', async () => {
    const free = (await team()).find((l) => !l.user)!;
    const fiona = await userId(t, DEMO('field_manager'));
    const outside = await manager.patch(`${base}/${free.id}`, { user_id: fiona.id });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.user_id).toEqual(['is not someone you manage']);
    const angela = await userId(t, DEMO('agent'));
    const twice = await manager.patch(`${base}/${free.id}`, { user_id: angela.id });
    expect(twice.status).toBe(422);
    expect(twice.body.errors.user_id[0]).toMatch(/Angela Diaz already holds a .* licence \(Monica Reyes's/);
    const over = await manager.patch(`${base}/${free.id}`, { allocation: 5000 });
    expect(over.status).toBe(422);
    expect(over.body.errors.allocation[0]).toMatch(
      /^Only [\d,]+ (messages|minutes) are left to allocate of this subscription's 5,000/,
    );
    for (const body of [{}, { allocation: -1 }, { allocation: 1.5 }, { user_id: 'me' }, { paid: true }]) {
      expect((await manager.patch(`${base}/${free.id}`, body)).status, JSON.stringify(body)).toBe(422);
    }
    expect((await team()).find((l) => l.id === free.id)).toMatchObject({ user: null });
  });

  it("agents may not allocate; another company's licence is not found", async () => {
    const own = (await agent.get(base)).body.data[0];
    const res = await agent.patch(`${base}/${own.id}`, { allocation: 4000 });
    expect(res.status).toBe(403);
    expect(res.body.errors.user).toEqual(['Access denied!']);
    const db = t.database.db;
    const [other] = await db.select().from(companies).where(eq(companies.number, 'C-1002'));
    const foreign = await t.app.tenants.get(`${product}_licence`).sample(db, other.id);
    expect((await manager.patch(`${base}/${foreign}`, { allocation: 1 })).status).toBe(404);
    // A manager who does not manage the subscription (it is Monica's) cannot change it.
    const dm = await signIn(t.app, DEMO('district_manager'));
    expect((await dm.patch(`${base}/${own.id}`, { allocation: 1 })).status).toBe(404);
  });

  it("the allocation is what the quota check reads: lowering it to the month's usage stops the agent", async () => {
    const angela = await userId(t, DEMO('agent'));
    const who = { companyId: angela.companyId, userId: angela.id };
    const kind = product === 'sms' ? 'sms' : 'voice';
    await recordUsage(t.database.db, { ...who, kind, quantity: 40, ref: `licence-test-${product}` });
    const check = () =>
      product === 'sms' ? checkSmsAllocation(t.database.db, who) : checkDialerQuota(t.database.db, who);
    expect((await check()).ok).toBe(true);
    const own = (await agent.get(base)).body.data[0];
    const res = await manager.patch(`${base}/${own.id}`, { allocation: 40 });
    expect(res.body).toMatchObject({ allocation: 40, used: 40 });
    expect(await check()).toMatchObject({ ok: false, remaining: 0 });
    const usage = await agent.get(`/v1/${product}/${product}_subscriptions_usage`);
    expect(usage.body).toMatchObject({ used: 40, allocation: 40, remaining: 0, coverage: { kind: 'manager' } });
    if (product === 'dialer') {
      // Enablement (spec §4) is not the quota: the demo agent has a verified dialer number and a paid manager
      // licence, so the dialer stays enabled while the allocation is used up.
      expect(usage.body.enablement).toEqual({ enabled: true, reasons: [] });
    } else {
      expect(usage.body.enablement).toBeNull();
    }
    const mine = await manager.get(`/v1/${product}/${product}_subscriptions_usage`);
    expect(mine.body.team.map((m: { user: { name: string } }) => m.user.name)).toEqual(['Tyler Brooks', 'Angela Diaz']);
    expect(mine.body.team.find((m: { user: { name: string } }) => m.user.name === 'Angela Diaz')).toMatchObject({
      used: 40,
      allocation: 40,
    });
    await manager.patch(`${base}/${own.id}`, { allocation: 300 });
    expect((await check()).ok).toBe(true);
  });

  it('more seats mid-month: charged for the rest of the month, new free licences', async () => {
    const seats = await team();
    const subId = seats[0].subscription_id;
    await fund(t, DEMO('manager'), 50_000);
    const before = await balanceOf(t, DEMO('manager'));
    const res = await send(manager, `/v1/${product}/${product}_licenses_order`, {
      subscription_id: subId,
      quantity: 2,
      payment_method: 'wallet',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const sub = (await manager.get(`/v1/${product}/${product}_subscriptions/${subId}`)).body;
    expect(res.body.data).toMatchObject({ kind: 'licences', status: 'paid', quantity: 2, order_type: 'ManagerPay' });
    // Three days into the month: less than two whole seats, more than two thirds of them.
    expect(res.body.data.amount).toBeLessThan(sub.price * 2);
    expect(res.body.data.amount).toBeGreaterThan(sub.price * 2 * 0.8);
    expect(await balanceOf(t, DEMO('manager'))).toBe(before - res.body.data.amount);
    expect(sub.seats).toBe(7);
    expect(await team()).toHaveLength(7);

    const bad = [
      { subscription_id: subId, quantity: 0, payment_method: 'wallet' },
      { subscription_id: 999_999, quantity: 1, payment_method: 'wallet' },
      { subscription_id: subId, quantity: 1, payment_method: 'company_wallet' },
    ];
    for (const body of bad) {
      expect((await send(manager, `/v1/${product}/${product}_licenses_order`, body)).status, JSON.stringify(body)).toBe(
        422,
      );
    }
    // An agent cannot buy seats on the manager's subscription.
    await fund(t, DEMO('agent'), 50_000);
    const agentOrder = await send(agent, `/v1/${product}/${product}_licenses_order`, {
      subscription_id: subId,
      quantity: 1,
      payment_method: 'wallet',
    });
    expect(agentOrder.status).toBe(422);
    expect((await team()).length).toBe(7);
  });
});
