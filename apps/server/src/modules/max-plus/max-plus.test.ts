/**
 * Max Plus through HTTP: subscribing with the card on file (active, and on the current user, only once the
 * processor's webhook lands; the SMS gate then reads it), cancelling, a manager's list, bulk subscription on their own
 * card and cancelling for one; refusals (no card, bad plan or payment type, someone out of reach, twice) change nothing.
 */
import { smsFeatureRefusal } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { connectCard, eventually } from '../account/test-kit.js';
import { deliverWebhooks, send, userId } from '../usage-plans/route-test-kit.js';
import { checkLedger } from '../wallet/verify.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  deliverWebhooks(t);
  // The demo agent texts on a seeded premium Max Plus (seed/demo-sms.ts): these tests start them without one, or the
  // wait for the processor's webhook below would be satisfied before it lands.
  await t.database.db.execute(
    sql`update users set max_plus_active = false, max_plus_plan = null where email = ${DEMO('agent')}`,
  );
});
afterAll(async () => {
  expect((await checkLedger(t.database.db)).ok).toBe(true);
  await t.close();
});

const me = async (c: Client) => (await c.get('/v1/users/me')).body;
const subs = async () =>
  Number(
    (await t.database.db.execute<{ n: number }>(sql`select count(*)::int as n from max_plus_subscriptions`)).rows[0].n,
  );

describe('Max Plus', () => {
  it('an agent subscribes by card: active on the current user once the processor confirms', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const noCard = await send(c, '/v1/max_plus_subscriptions', { payment_type: 'credit_card', plan: 'premium' });
    expect(noCard.status).toBe(422);
    expect(noCard.body.errors.payment_type).toBeDefined();
    expect((await send(c, '/v1/max_plus_subscriptions', { payment_type: 'cash', plan: 'premium' })).status).toBe(422);
    expect((await send(c, '/v1/max_plus_subscriptions', { payment_type: 'credit_card', plan: 'gold' })).status).toBe(
      422,
    );
    expect(await subs()).toBe(0);
    await connectCard(c);
    const res = await send(c, '/v1/max_plus_subscriptions', { payment_type: 'credit_card', plan: 'premium' });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.charge).toMatchObject({ amount: 3900, kind: 'max_plus' });
    const user = await eventually(
      () => me(c),
      (u) => u.max_plus_subscription.active,
      'Max Plus active',
    );
    expect(user.max_plus_subscription).toEqual({ active: true, plan: 'premium' });
    const statuses = await t.database.db.execute<{ status: string }>(sql`select status from max_plus_subscriptions`);
    expect(statuses.rows).toEqual([{ status: 'active' }]);
    const twice = await send(c, '/v1/max_plus_subscriptions', { payment_type: 'credit_card', plan: 'standard' });
    expect(twice.status).toBe(422);
  });

  it('cancels one’s own: off on the current user at once; a second cancel is refused', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const res = await c.post('/v1/max_plus_subscriptions/cancel');
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data[0]).toMatchObject({ status: 'cancelled', plan: 'premium' });
    expect((await me(c)).max_plus_subscription.active).toBe(false);
    expect((await c.post('/v1/max_plus_subscriptions/cancel')).status).toBe(422);
  });

  it('a manager lists their people, bulk-subscribes two on one charge and cancels for one', async () => {
    const m = await signIn(t.app, DEMO('manager'));
    const list = await m.get('/v1/max_plus_subscriptions/manageable_users');
    expect(list.status).toBe(200);
    const emails = list.body.data.map((u: { email: string }) => u.email);
    expect(emails).toEqual(expect.arrayContaining([DEMO('agent'), DEMO('telemarketer')]));
    expect(emails).not.toContain(DEMO('admin'));
    const agent = await userId(t, DEMO('agent'));
    const tele = await userId(t, DEMO('telemarketer'));
    const admin = await userId(t, DEMO('admin'));
    const outside = await send(m, '/v1/max_plus_subscriptions/bulk_subscribe', {
      user_ids: [agent.id, admin.id],
      plan: 'standard',
    });
    expect(outside.status).toBe(404);
    expect(
      (await send(m, '/v1/max_plus_subscriptions/bulk_subscribe', { user_ids: [], plan: 'standard' })).status,
    ).toBe(422);
    const before = await subs();
    await connectCard(m, '5555555555554444');
    const res = await send(m, '/v1/max_plus_subscriptions/bulk_subscribe', {
      user_ids: [agent.id, tele.id],
      plan: 'standard',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.charge).toMatchObject({ amount: 3800, card_last4: '4444' });
    expect(res.body.data).toHaveLength(2);
    expect(await subs()).toBe(before + 2);
    const t2 = await signIn(t.app, DEMO('telemarketer'));
    await eventually(
      () => me(t2),
      (u) => u.max_plus_subscription.active,
      'bulk Max Plus active',
    );
    expect((await me(t2)).max_plus_subscription.plan).toBe('standard');
    const cancel = await m.post('/v1/max_plus_subscriptions/cancel_for_user', { user_id: tele.id });
    expect(cancel.status).toBe(200);
    expect((await me(t2)).max_plus_subscription.active).toBe(false);
    expect((await m.post('/v1/max_plus_subscriptions/cancel_for_user', { user_id: admin.id })).status).toBe(404);
    expect((await m.post('/v1/max_plus_subscriptions/cancel_for_user', { user_id: 'x' })).status).toBe(422);
  });

  it('refuses the manager routes to agents and everything to the signed-out', async () => {
    const a = await signIn(t.app, DEMO('agent'));
    expect((await a.get('/v1/max_plus_subscriptions/manageable_users')).status).toBe(403);
    expect(
      (await send(a, '/v1/max_plus_subscriptions/bulk_subscribe', { user_ids: [1], plan: 'standard' })).status,
    ).toBe(403);
    expect((await a.post('/v1/max_plus_subscriptions/cancel_for_user', { user_id: 1 })).status).toBe(403);
    const anon = new (a.constructor as new (app: unknown) => Client)(t.app);
    expect((await anon.get('/v1/max_plus_subscriptions/manageable_users')).status).toBe(401);
  });

  it('the SMS gate reads the real subscription: standard keeps texting closed, premium opens it', async () => {
    const a = await signIn(t.app, DEMO('agent'));
    const gate = (u: {
      features: Record<string, boolean>;
      max_plus_subscription: { active: boolean; plan: string | null };
    }) =>
      smsFeatureRefusal({
        basic: false,
        features: { ...u.features, wallet_feature: true } as never,
        maxPlus: u.max_plus_subscription,
      });
    const standard = await me(a);
    expect(standard.max_plus_subscription).toEqual({ active: true, plan: 'standard' });
    expect(gate(standard)).toBe('Texting needs an active Max Plus Premium subscription.');
    const m = await signIn(t.app, DEMO('manager'));
    expect((await m.post('/v1/max_plus_subscriptions/cancel_for_user', { user_id: standard.id })).status).toBe(200);
    expect((await send(a, '/v1/max_plus_subscriptions', { payment_type: 'credit_card', plan: 'premium' })).status).toBe(
      202,
    );
    const premium = await eventually(
      () => me(a),
      (u) => u.max_plus_subscription.active,
      'premium active',
    );
    expect(gate(premium)).toBeNull();
  });
});
