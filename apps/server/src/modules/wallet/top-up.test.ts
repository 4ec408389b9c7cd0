/**
 * Top-ups end to end through HTTP: the card form's loopback endpoint, POST /v1/wallets/top_up, the processor's
 * signed webhook into /v1/webhooks/stripe and its job, the wallet credited only then; declines, authentication,
 * replays, forged and replayed webhooks, and bad amounts that change nothing. Auto-refill and its settings too.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { AUTHENTICATION_MESSAGE } from '../../integrations/stripe/payments.js';
import { companies, users } from '../../platform/db/schema.js';
import { balance, cardOf, key, send, settled, topUp } from './test-helpers.js';
import { chargeUsage } from './usage.js';
import { checkLedger } from './verify.js';

let t: TestApp;
let agent: Client;
let telemarketer: Client;
/** Every webhook body the processor delivered, to replay one. */
const delivered: Array<{ body: string; headers: Record<string, string> }> = [];

beforeAll(async () => {
  t = await createTestApp();
  const loopback = t.deps.payments.loopback!;
  loopback.setWebhookTarget(async (body, headers) => {
    delivered.push({ body, headers });
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks/stripe', headers, payload: body });
    return res.statusCode;
  });
  [agent, telemarketer] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('telemarketer'))]);
});
afterAll(() => t.close());

const userRow = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0];
const count = async (q: ReturnType<typeof sql>) => Number((await t.database.db.execute<{ n: number }>(q)).rows[0].n);

describe('GET /v1/wallets', () => {
  it('starts empty with the spec defaults: auto-refill off, 10 and 50 dollars', async () => {
    const res = await telemarketer.get('/v1/wallets');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      balance: 0,
      auto_refill_settings: { enabled: false, threshold: 1_000, amount: 5_000 },
      card: null,
      company_balance: null,
      can_allocate: false,
      processor: { kind: 'loopback' },
    });
  });
});

describe('POST /v1/wallets/top_up', () => {
  it('credits the wallet only when the signed webhook confirms, and makes one invoice', async () => {
    const pm = await cardOf(agent);
    const res = await send(agent, 'POST', '/v1/wallets/top_up', {
      amount: 2_500,
      payment_method_id: pm,
      description: 'March texts',
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ amount: 2_500, card_brand: 'visa', card_last4: '4242', kind: 'top_up' });
    const paid = await settled(agent, res.body.id);
    expect(paid).toMatchObject({
      status: 'succeeded',
      balance: 2_500,
      invoice_number: expect.stringMatching(/^HW-\d{4}-\d{6}$/),
    });
    expect(await balance(agent)).toBe(2_500);
    const tx = await t.database.db.execute<{ kind: string; idempotency_key: string }>(
      sql`select kind, idempotency_key from ledger_transactions where details->>'payment_id' = ${String(res.body.id)}`,
    );
    expect(tx.rows).toEqual([{ kind: 'top_up', idempotency_key: expect.stringMatching(/^pi:pi_/) }]);
    const invoices = (await agent.get('/v1/wallets/invoice_history')).body;
    expect(invoices.invoices[0]).toMatchObject({ amount: 2_500, number: paid.invoice_number });
    const pdf = await agent.app.inject({
      url: invoices.invoices[0].download_url,
      headers: { cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`harbor-invoice-${paid.invoice_number}.pdf`);
    expect(pdf.rawPayload.subarray(0, 8).toString()).toBe('%PDF-1.4');
    expect(pdf.rawPayload.toString('latin1')).toContain('Visa ending in 4242');
    // Nobody else sees it.
    expect((await telemarketer.get(invoices.invoices[0].download_url)).status).toBe(404);
    expect((await telemarketer.get(`/v1/wallets/payments/${res.body.id}`)).status).toBe(404);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  it('answers a retried request with the same key the same way and charges once', async () => {
    const before = await balance(agent);
    const pm = await cardOf(agent);
    const idem = key();
    const body = { amount: 1_000, payment_method_id: pm };
    const first = await send(agent, 'POST', '/v1/wallets/top_up', body, idem);
    const again = await send(agent, 'POST', '/v1/wallets/top_up', body, idem);
    expect(again.status).toBe(202);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    await settled(agent, first.body.id);
    const charges = [...t.deps.payments.loopback!.state.charges.values()].filter((c) => c.payment_method === pm);
    expect(charges).toHaveLength(1);
    expect(await balance(agent)).toBe(before + 1_000);
  });

  it('refuses a declined card and a card that needs authentication, crediting nothing', async () => {
    const before = await balance(agent);
    const declined = await send(agent, 'POST', '/v1/wallets/top_up', {
      amount: 1_000,
      payment_method_id: await cardOf(agent, '4000000000000002'),
    });
    expect(declined.status).toBe(422);
    expect(declined.body.errors.card).toEqual(['Your card was declined.']);
    const auth = await send(agent, 'POST', '/v1/wallets/top_up', {
      amount: 1_000,
      payment_method_id: await cardOf(agent, '4000002500003155'),
    });
    expect(auth.status).toBe(422);
    expect(auth.body.errors.card).toEqual([AUTHENTICATION_MESSAGE]);
    await new Promise((r) => setTimeout(r, 300));
    expect(await balance(agent)).toBe(before);
  });

  it('refuses bad amounts and bad requests with nothing changed', async () => {
    const before = await balance(agent);
    const payments = await count(sql`select count(*) as n from wallet_payments`);
    const pm = await cardOf(agent);
    const bad: Array<[unknown, string]> = [
      [{ amount: -500, payment_method_id: pm }, 'amount'],
      [{ amount: 0, payment_method_id: pm }, 'amount'],
      [{ amount: 1_000.5, payment_method_id: pm }, 'amount'],
      [{ amount: 200_000_000, payment_method_id: pm }, 'amount'],
      [{ amount: '1000', payment_method_id: pm }, 'amount'],
      [{ amount: 1_000, payment_method_id: 'pm_doesnotexist' }, 'payment_method_id'],
      [{ amount: 1_000 }, 'payment_method_id'],
      [{ amount: 1_000, payment_method_id: pm, wallet: 'company' }, 'wallet'],
    ];
    for (const [body, field] of bad) {
      const res = await send(agent, 'POST', '/v1/wallets/top_up', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field], JSON.stringify(res.body)).toBeDefined();
    }
    const noKey = await agent.post('/v1/wallets/top_up', { amount: 1_000, payment_method_id: pm });
    expect(noKey.status).toBe(422);
    expect(noKey.body.errors.idempotency_key).toBeDefined();
    expect(await count(sql`select count(*) as n from wallet_payments`)).toBe(payments);
    expect(await balance(agent)).toBe(before);
  });

  it('the card form refuses a wrong number, month or code', async () => {
    const year = new Date().getFullYear() + 1;
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ number: '4242424242424241', exp_month: 12, exp_year: year, cvc: '123' }, 'number'],
      [{ number: '4242424242424242', exp_month: 13, exp_year: year, cvc: '123' }, 'exp_month'],
      [{ number: '4242424242424242', exp_month: 1, exp_year: 2001, cvc: '123' }, 'expiry'],
      [{ number: '4242424242424242', exp_month: 12, exp_year: year, cvc: '12' }, 'cvc'],
    ];
    for (const [body, field] of cases) {
      const res = await agent.post('/v1/wallets/payment_methods', body);
      expect(res.status).toBe(422);
      expect(res.body.errors[field], JSON.stringify(res.body)).toBeDefined();
    }
  });
});

describe('POST /v1/webhooks/stripe', () => {
  it('drops a replayed webhook and refuses a forged or stale one, crediting nothing', async () => {
    await topUp(agent, 1_500);
    const before = await balance(agent);
    const succeeded = delivered.filter((d) => JSON.parse(d.body).type === 'payment_intent.succeeded').at(-1)!;
    const replay = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/stripe',
      headers: succeeded.headers,
      payload: succeeded.body,
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: 0, duplicates: 1 });
    // The same payment intent under a new event id (a processor re-sending) is recognised by the ledger key.
    const renamed = JSON.stringify({ ...JSON.parse(succeeded.body), id: 'evt_renamed_once' });
    const signed = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': t.deps.payments.loopback!.sign(renamed) },
      payload: renamed,
    });
    expect(signed.statusCode).toBe(200);
    const forged = JSON.stringify({ ...JSON.parse(succeeded.body), id: 'evt_forged' });
    for (const signature of [
      succeeded.headers['stripe-signature'], // a signature of another body
      `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      t.deps.payments.loopback!.sign(forged, Math.floor(Date.now() / 1000) - 3_600), // stale
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks/stripe',
        headers: { 'content-type': 'application/json', 'stripe-signature': signature },
        payload: forged,
      });
      expect(res.statusCode).toBe(401);
    }
    await new Promise((r) => setTimeout(r, 500));
    expect(await balance(agent)).toBe(before);
    expect(await count(sql`select count(*) as n from webhook_events where event_id = 'evt_forged'`)).toBe(0);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });
});

describe('auto-refill', () => {
  it('needs a saved card, refuses bad amounts, and saves the settings', async () => {
    const noCard = await send(telemarketer, 'PUT', '/v1/wallets/update_settings', { enabled: true });
    expect(noCard.status).toBe(422);
    expect(noCard.body.errors.enabled).toBeDefined();
    for (const body of [{ threshold: 0 }, { threshold: -100 }, { amount: 99.5 }, { amount: 100_000_000 }, {}]) {
      const res = await send(telemarketer, 'PUT', '/v1/wallets/update_settings', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await telemarketer.get('/v1/wallets')).body.auto_refill_settings).toEqual({
      enabled: false,
      threshold: 1_000,
      amount: 5_000,
    });
  });

  it('tops up once when many debits take the balance under the threshold together', async () => {
    await topUp(telemarketer, 2_000, { save_card: true });
    const state = (await telemarketer.get('/v1/wallets')).body;
    expect(state.card).toMatchObject({ brand: 'visa', last4: '4242' });
    const on = await send(telemarketer, 'PUT', '/v1/wallets/update_settings', {
      enabled: true,
      threshold: 1_000,
      amount: 5_000,
    });
    expect(on.status).toBe(200);
    expect(on.body.auto_refill_settings).toEqual({ enabled: true, threshold: 1_000, amount: 5_000 });
    const me = await userRow(DEMO('telemarketer'));
    // 30 texts of 25 segments (50 cents each) at once: 15 dollars out of 20 crosses the 10-dollar threshold.
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        chargeUsage(t.deps, {
          companyId: me.companyId,
          userId: me.id,
          usageType: 'sms',
          quantity: 25,
          idempotencyKey: `sms:test-${i}`,
          details: { to: '+15551234567' },
        }),
      ),
    );
    expect(results.every((r) => r.ok && r.status === 'charged')).toBe(true);
    for (let i = 0; i < 400 && (await balance(telemarketer)) !== 5_500; i++)
      await new Promise((r) => setTimeout(r, 25));
    expect(await balance(telemarketer)).toBe(2_000 - 1_500 + 5_000);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(
      await count(sql`select count(*) as n from wallet_payments where kind = 'auto_refill' and user_id = ${me.id}`),
    ).toBe(1);
    const history = (await telemarketer.get('/v1/wallets/transaction_history?filter=auto_refill')).body;
    expect(history.transactions).toHaveLength(1);
    expect(history.transactions[0]).toMatchObject({ kind: 'auto_refill', amount: 5_000 });
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });
});

describe('the wallet feature', () => {
  it('answers 403 naming the feature when it is off', async () => {
    const me = await userRow(DEMO('agent'));
    await t.database.db.execute(
      sql`update ${companies} set features = features || '{"wallet_feature": false}'::jsonb where id = ${me.companyId}`,
    );
    const res = await agent.get('/v1/wallets');
    expect(res.status).toBe(403);
    expect(res.body.errors.feature).toEqual(['Wallet is turned off for your account.']);
    await t.database.db.execute(
      sql`update ${companies} set features = features - 'wallet_feature' where id = ${me.companyId}`,
    );
    expect((await agent.get('/v1/wallets')).status).toBe(200);
  });
});
