/**
 * The account's billing through HTTP: plans, a card on file (brand and last four only; bad numbers and expiry
 * months refused), an unpaid person choosing a plan (paid only once the processor's signed webhook lands, the
 * current user's `paid_user?` flips), a retry that charges once, a declined card that leaves them unpaid, plan
 * changes, cancelling, history, and who may do what.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { deliverWebhooks, idem, send, userId } from '../usage-plans/route-test-kit.js';
import { checkLedger } from '../wallet/verify.js';
import { renewDue } from './renewal.js';
import { connectCard, eventually, nextYear } from './test-kit.js';

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  deliverWebhooks(t);
  admin = await signIn(t.app, DEMO('admin'));
});
afterAll(async () => {
  expect((await checkLedger(t.database.db)).ok).toBe(true);
  await t.close();
});

async function unpaid(email: string) {
  const u = await userId(t, email);
  const res = await admin.post(`/v1/admin/users/${u.id}/paid_membership`, { paid: false });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const c = await signIn(t.app, email);
  expect((await c.get('/v1/users/me')).body['paid_user?']).toBe(false);
  return c;
}
const charges = async (email: string) => {
  const u = await userId(t, email);
  const r = await t.database.db.execute<{ n: number }>(
    // The account's own charges: the demo seed also leaves a declined store order's charge on the demo agent.
    sql`select count(*)::int as n from card_charges where user_id = ${u.id} and kind <> 'store_order'`,
  );
  return Number(r.rows[0].n);
};

describe('account billing', () => {
  it('lists the plans and the info of someone with nothing on file', async () => {
    const c = await signIn(t.app, DEMO('telemarketer'));
    const plans = await c.get('/v1/plans');
    expect(plans.status).toBe(200);
    expect(plans.body.data.map((p: { id: string }) => p.id)).toEqual(['essentials', 'professional', 'agency']);
    const info = await c.get('/v1/accounts/info');
    expect(info.status).toBe(200);
    expect(info.body).toMatchObject({ info: { paid: true, subscription: null }, payment_infos: [], chosen_plan: null });
  });

  it('keeps a card as brand and last four only; refuses a bad number or expiry month', async () => {
    const c = await signIn(t.app, DEMO('field_manager'));
    const month = await c.post('/v1/accounts/connect_card', {
      number: '4242424242424242',
      exp_month: 13,
      exp_year: nextYear(),
      cvc: '123',
    });
    expect(month.status).toBe(422);
    expect(month.body.errors.exp_month).toBeDefined();
    const luhn = await c.post('/v1/accounts/connect_card', {
      number: '4242424242424241',
      exp_month: 12,
      exp_year: nextYear(),
      cvc: '123',
    });
    expect(luhn.status).toBe(422);
    expect(luhn.body.errors.number).toBeDefined();
    const fake = await c.post('/v1/accounts/connect_card', { payment_method_id: 'pm_nothing' });
    expect(fake.status).toBe(422);
    const body = await connectCard(c, '5555555555554444');
    expect(body.payment_infos).toEqual([{ brand: 'mastercard', last4: '4444', exp_month: 12, exp_year: nextYear() }]);
    const stored = await t.database.db.execute(sql`select * from account_cards`);
    expect(JSON.stringify(stored.rows)).not.toContain('5555555555554444');
  });

  it('an unpaid agent pays for a plan: paid only after the webhook, once even when retried', async () => {
    const c = await unpaid(DEMO('agent'));
    expect((await c.post('/v1/accounts/update_plan', { plan: 'professional' })).status).toBe(422);
    const noCard = await send(c, '/v1/accounts/update_plan', { plan: 'professional' });
    expect(noCard.status).toBe(422);
    expect(noCard.body.errors.payment_type[0]).toMatch(/Connect a credit card/);
    expect((await send(c, '/v1/accounts/update_plan', { plan: 'gold' })).status).toBe(422);
    await connectCard(c);
    const key = idem();
    const res = await send(c, '/v1/accounts/update_plan', { plan: 'professional' }, key);
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.chosen_plan).toBe('professional');
    const again = await send(c, '/v1/accounts/update_plan', { plan: 'professional' }, key);
    expect(again.status).toBe(202);
    const info = await eventually(
      async () => (await c.get('/v1/accounts/info')).body,
      (b) => b.info.subscription.status !== 'pending',
      'plan payment',
    );
    expect(info.info).toMatchObject({
      paid: true,
      subscription: { plan: 'professional', status: 'active', price: 5900 },
    });
    expect((await c.get('/v1/users/me')).body['paid_user?']).toBe(true);
    expect(await charges(DEMO('agent'))).toBe(1);
    const history = await c.get('/v1/accounts/history?limit=5');
    expect(history.body.data[0]).toMatchObject({
      kind: 'account_plan',
      amount: 5900,
      status: 'succeeded',
      card_last4: '4242',
    });
    // The history lists every card charge of the person: this plan and the demo seed's declined store order.
    expect(history.body.meta).toMatchObject({ total_count: 2, limit: 5 });
    expect(history.body.data.map((h: { kind: string }) => h.kind).sort()).toEqual(['account_plan', 'store_order']);
    expect((await c.get('/v1/accounts/history?limit=0')).status).toBe(422);
  });

  it('changes the plan from the next month without a charge, cancels to the period end, resumes', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    expect((await send(c, '/v1/accounts/update_plan', { plan: 'professional' })).status).toBe(422);
    const change = await send(c, '/v1/accounts/update_plan', { plan: 'agency' });
    expect(change.status).toBe(200);
    expect(change.body.info.subscription).toMatchObject({ plan: 'agency', price: 9900, status: 'active' });
    expect(await charges(DEMO('agent'))).toBe(1);
    const cancel = await c.put('/v1/accounts/cancel_subscription');
    expect(cancel.status).toBe(200);
    expect(cancel.body.info).toMatchObject({ paid: true, subscription: { status: 'cancelled' } });
    expect(cancel.body.info.subscription.current_period_end).not.toBeNull();
    expect((await c.put('/v1/accounts/cancel_subscription')).status).toBe(422);
    const resume = await send(c, '/v1/accounts/update_plan', { plan: 'agency' });
    expect(resume.status).toBe(200);
    expect(resume.body.info.subscription.status).toBe('active');
  });

  it('renews a plan whose month is over on the card on file; a cancelled one ends and the person is unpaid', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const u = await userId(t, DEMO('agent'));
    const past = sql`update account_subscriptions set current_period_end = now() - interval '1 minute' where user_id = ${u.id}`;
    await t.database.db.execute(past);
    const first = await renewDue(t.deps);
    expect(first.charged).toBe(1);
    expect((await renewDue(t.deps)).charged).toBeLessThanOrEqual(1); // a rerun before the webhook charges nothing more
    const info = await eventually(
      async () => (await c.get('/v1/accounts/info')).body,
      (b) => new Date(b.info.subscription.current_period_end) > new Date(),
      'renewal',
    );
    expect(info.info).toMatchObject({ paid: true, subscription: { status: 'active', plan: 'agency' } });
    expect(await charges(DEMO('agent'))).toBe(2);
    expect((await c.get('/v1/accounts/history')).body.data[0]).toMatchObject({ amount: 9900, status: 'succeeded' });
    expect((await c.put('/v1/accounts/cancel_subscription')).status).toBe(200);
    await t.database.db.execute(past);
    expect((await renewDue(t.deps)).ended).toBe(1);
    const after = (await c.get('/v1/accounts/info')).body;
    expect(after.info).toMatchObject({ paid: false, subscription: { status: 'ended' } });
    expect((await c.get('/v1/users/me')).body['paid_user?']).toBe(false);
    expect(await charges(DEMO('agent'))).toBe(2);
  });

  it('a declined card leaves the person unpaid and says why', async () => {
    const c = await unpaid(DEMO('telemarketer'));
    await connectCard(c, '4000000000000002');
    const res = await send(c, '/v1/accounts/update_plan', { plan: 'essentials' });
    expect(res.status).toBe(422);
    expect(res.body.errors.card[0]).toMatch(/declined/);
    const info = (await c.get('/v1/accounts/info')).body;
    expect(info.info).toMatchObject({ paid: false, subscription: { status: 'failed' } });
    expect(info.chosen_plan).toBeNull();
    expect((await c.get('/v1/accounts/history')).body.data[0].status).toBe('failed');
  });

  it('refuses the signed-out and shows nobody else their history', async () => {
    const anon = new (admin.constructor as new (app: unknown) => Client)(t.app);
    for (const url of ['/v1/accounts/info', '/v1/plans', '/v1/accounts/history'])
      expect((await anon.get(url)).status).toBe(401);
    expect((await anon.post('/v1/accounts/connect_card', { payment_method_id: 'pm_x' })).status).toBe(401);
    const other = await signIn(t.app, DEMO('manager'));
    expect((await other.get('/v1/accounts/history')).body.data).toEqual([]);
  });
});
