/**
 * The payments port driven by the real `stripe` client against the loopback processor over HTTP: the test cards,
 * idempotency keys, refunds, and webhooks signed the way Stripe signs them (checked with the stripe package's own
 * constructEvent). No database: the processor and the port only.
 */
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LoopbackProcessor } from './loopback.js';
import { AUTHENTICATION_MESSAGE, Payments, ProcessorUnavailable } from './payments.js';
import { verifyStripe } from './webhook.js';

let payments: Payments;
const delivered: Array<{ body: string; headers: Record<string, string> }> = [];

beforeAll(async () => {
  payments = await Payments.create({ stripe: null });
  payments.loopback!.setWebhookTarget(async (body, headers) => {
    delivered.push({ body, headers });
    return 200;
  });
});
afterAll(() => payments.close());

const card = (number: string) =>
  payments.loopback!.tokenize({ number, exp_month: 12, exp_year: new Date().getFullYear() + 2, cvc: '123' });

/** The events delivered so far for one payment intent, each verified as Harbor's webhook route verifies it. */
async function eventsOf(piId: string, wait = 2_000) {
  const until = Date.now() + wait;
  for (;;) {
    const found = delivered
      .map(
        (d) =>
          verifyStripe(
            { provider: 'stripe', topic: null, rawBody: Buffer.from(d.body), headers: d.headers, url: '' },
            payments.keys.webhookSecret,
          )[0],
      )
      .filter((e) => {
        const o = (e.payload.data as { object: { id: string; payment_intent?: string } }).object;
        return o.id === piId || o.payment_intent === piId;
      });
    if (found.some((e) => e.type !== 'payment_intent.created') || Date.now() > until) return found;
    await new Promise((r) => setTimeout(r, 20));
  }
}

const meta = { purpose: 'test', company_id: '1' };

describe('charges with the test cards', () => {
  it('4242 4242 4242 4242 succeeds, and a signed payment_intent.succeeded arrives', async () => {
    const pm = card('4242 4242 4242 4242');
    expect(pm.card).toMatchObject({ brand: 'visa', last4: '4242' });
    const out = await payments.charge({
      amount: 2_500,
      description: 'Top-up',
      paymentMethodId: pm.id,
      metadata: meta,
      idempotencyKey: `t-${pm.id}`,
    });
    expect(out.status).toBe('succeeded');
    const events = await eventsOf((out as { paymentIntentId: string }).paymentIntentId);
    const succeeded = events.find((e) => e.type === 'payment_intent.succeeded')!;
    expect(succeeded.companyId).toBe(1);
    expect((succeeded.payload.data as { object: Record<string, unknown> }).object).toMatchObject({
      amount: 2_500,
      status: 'succeeded',
      metadata: meta,
    });
    expect(await payments.paymentMethod(pm.id)).toMatchObject({ brand: 'visa', last4: '4242', expMonth: 12 });
  });

  it('4000 0000 0000 0002 is declined with the processor’s message', async () => {
    const pm = card('4000000000000002');
    const out = await payments.charge({
      amount: 1_000,
      description: 'Top-up',
      paymentMethodId: pm.id,
      metadata: meta,
      idempotencyKey: `d-${pm.id}`,
    });
    expect(out).toMatchObject({ status: 'failed', code: 'card_declined', message: 'Your card was declined.' });
    const events = await eventsOf((out as { paymentIntentId: string }).paymentIntentId);
    expect(events.map((e) => e.type)).toContain('payment_intent.payment_failed');
  });

  it('4000 0025 0000 3155 needs authentication: a clear message, and nothing left open', async () => {
    const pm = card('4000002500003155');
    const out = await payments.charge({
      amount: 1_000,
      description: 'Top-up',
      paymentMethodId: pm.id,
      metadata: meta,
      idempotencyKey: `a-${pm.id}`,
    });
    expect(out).toEqual({
      status: 'requires_action',
      paymentIntentId: expect.any(String),
      message: AUTHENTICATION_MESSAGE,
    });
    expect(payments.loopback!.state.intent((out as { paymentIntentId: string }).paymentIntentId).status).toBe(
      'canceled',
    );
    const offSession = await payments.charge({
      amount: 1_000,
      description: 'Auto-refill',
      paymentMethodId: pm.id,
      offSession: true,
      metadata: meta,
      idempotencyKey: `o-${pm.id}`,
    });
    expect(offSession).toMatchObject({
      status: 'failed',
      code: 'authentication_required',
      message: AUTHENTICATION_MESSAGE,
    });
  });

  it('refuses a bad number, a past expiry and a live card, and never keeps a card number', () => {
    expect(() => card('4242 4242 4242 4241')).toThrow('Your card number is incorrect.');
    expect(() =>
      payments.loopback!.tokenize({ number: '4242424242424242', exp_month: 13, exp_year: 2040, cvc: '123' }),
    ).toThrow('expiration month');
    expect(() =>
      payments.loopback!.tokenize({ number: '4242424242424242', exp_month: 1, exp_year: 2001, cvc: '123' }),
    ).toThrow('expiration year');
    const state = JSON.stringify([...payments.loopback!.state.methods.values()]);
    expect(state).not.toMatch(/4242424242424242|4000000000000002|4000002500003155/);
  });
});

describe('idempotency and refunds', () => {
  it('a retried charge with the same key charges once; the same key for another charge is refused', async () => {
    const pm = card('5555 5555 5555 4444');
    const req = {
      amount: 3_000,
      description: 'Top-up',
      paymentMethodId: pm.id,
      metadata: meta,
      idempotencyKey: `i-${pm.id}`,
    };
    const a = await payments.charge(req);
    const b = await payments.charge(req);
    expect(b).toEqual(a);
    const charges = [...payments.loopback!.state.charges.values()].filter((c) => c.payment_method === pm.id);
    expect(charges).toHaveLength(1);
    await expect(payments.charge({ ...req, amount: 3_001 })).rejects.toBeInstanceOf(ProcessorUnavailable);
  });

  it('refunds part, then refuses a refund over what is left', async () => {
    const pm = card('4242424242424242');
    const out = (await payments.charge({
      amount: 5_000,
      description: 'Top-up',
      paymentMethodId: pm.id,
      metadata: meta,
      idempotencyKey: `r-${pm.id}`,
    })) as { paymentIntentId: string };
    const part = await payments.refund({
      paymentIntentId: out.paymentIntentId,
      amount: 2_000,
      metadata: meta,
      idempotencyKey: `r1-${pm.id}`,
    });
    expect(part).toMatchObject({ status: 'succeeded' });
    const over = await payments.refund({
      paymentIntentId: out.paymentIntentId,
      amount: 3_001,
      metadata: meta,
      idempotencyKey: `r2-${pm.id}`,
    });
    expect(over).toEqual({ error: 'Refund amount ($30.01) is greater than unrefunded amount on charge ($30.00)' });
    const events = await eventsOf(out.paymentIntentId);
    expect(events.map((e) => e.type)).toContain('charge.refunded');
  });

  it('answers 401 to a wrong key', async () => {
    const other = new Stripe('sk_test_wrong', { host: '127.0.0.1', port: payments.loopback!.port, protocol: 'http' });
    await expect(other.customers.create({ email: 'x@example.com' })).rejects.toMatchObject({ statusCode: 401 });
  });
});

describe('webhook delivery', () => {
  it('retries a delivery the endpoint refused, and signs each attempt afresh', async () => {
    const keys = { secretKey: 'sk_test_x', publishableKey: 'pk_test_x', webhookSecret: 'whsec_x' };
    const p = await LoopbackProcessor.start({ ...keys, retryDelaysMs: [10, 10] });
    const seen: string[] = [];
    p.setWebhookTarget(async (_body, headers) => {
      seen.push(headers['stripe-signature']);
      return seen.length < 3 ? 500 : 200;
    });
    const client = new Stripe(keys.secretKey, { host: '127.0.0.1', port: p.port, protocol: 'http' });
    await client.customers.create({ email: 'a@example.com' });
    await client.paymentIntents.create({ amount: 100, currency: 'usd' });
    await new Promise((r) => setTimeout(r, 300));
    await p.close();
    expect(seen.length).toBe(3);
    expect(seen.every((s) => /^t=\d+,v1=[0-9a-f]{64}$/.test(s))).toBe(true);
  });
});
