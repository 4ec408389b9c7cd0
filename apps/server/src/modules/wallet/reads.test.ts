/**
 * The wallet's read routes through HTTP: transaction history (20 a page, by kind, 'all' = none) with what each
 * debit paid for, cost estimates, usage pricing, analytics by period (company-wide for admins), invoices.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { topUp } from './test-helpers.js';
import { chargeUsage } from './usage.js';

let t: TestApp;
let agent: Client;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  [agent, admin] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('admin'))]);
  await topUp(agent, 5_000);
  const [me] = await t.database.db
    .select()
    .from(users)
    .where(eq(users.email, DEMO('agent')));
  const charge = (
    usageType: 'sms' | 'outbound_call_minute',
    quantity: number,
    k: string,
    details: Record<string, unknown>,
  ) => chargeUsage(t.deps, { companyId: me.companyId, userId: me.id, usageType, quantity, idempotencyKey: k, details });
  for (let i = 0; i < 22; i++) await charge('sms', 1, `sms:${i}`, { to: '+15551230000' });
  await charge('outbound_call_minute', 3, 'call:1:a', { to: '5551234567', seconds: 125 });
});
afterAll(() => t.close());

describe('GET /v1/wallets/transaction_history', () => {
  it('pages 20 at a time, newest first, and says what each debit paid for', async () => {
    const first = (await agent.get('/v1/wallets/transaction_history')).body;
    expect(first.pagination).toEqual({ current_page: 1, per_page: 20, total_pages: 2, total_count: 24 });
    expect(first.transactions).toHaveLength(20);
    expect(first.transactions[0]).toMatchObject({
      kind: 'usage',
      amount: -9,
      balance_after: 5_000 - 22 * 2 - 9,
      description: 'Outbound call to 1-555-123-4567 (2 min 5 s)',
    });
    expect(first.transactions[1]).toMatchObject({ kind: 'usage', amount: -2, description: 'Text to 1-555-123-0000' });
    const second = (await agent.get('/v1/wallets/transaction_history?page=2')).body;
    expect(second.transactions.map((x: { kind: string }) => x.kind)).toEqual(['usage', 'usage', 'usage', 'top_up']);
    expect(second.transactions[3]).toMatchObject({ amount: 5_000, description: 'Test top-up (Visa ending in 4242)' });
  });

  it("filters by kind; 'all' is no filter; a bad filter or page is refused", async () => {
    const topUps = (await agent.get('/v1/wallets/transaction_history?filter=top_up')).body;
    expect(topUps.pagination.total_count).toBe(1);
    expect((await agent.get('/v1/wallets/transaction_history?filter=all&per_page=5')).body.pagination).toMatchObject({
      per_page: 5,
      total_count: 24,
      total_pages: 5,
    });
    for (const q of ['filter=everything', 'page=0', 'per_page=1000', 'page=abc']) {
      expect((await agent.get(`/v1/wallets/transaction_history?${q}`)).status, q).toBe(422);
    }
    // Another person's history is their own.
    expect((await admin.get('/v1/wallets/transaction_history')).body.pagination.total_count).toBe(0);
  });
});

describe('POST /v1/wallets/estimate_cost and GET /v1/wallets/usage_pricing', () => {
  it('prices a usage against the balance', async () => {
    const res = await agent.post('/v1/wallets/estimate_cost', { usageType: 'sms', quantity: 500 });
    expect(res.body).toEqual({
      usageType: 'sms',
      quantity: 500,
      unit_price: 2,
      amount: 1_000,
      balance: 4_947,
      affordable: true,
    });
    const big = await agent.post('/v1/wallets/estimate_cost', { usageType: 'outbound_call_minute', quantity: 2_000 });
    expect(big.body).toMatchObject({ amount: 6_000, affordable: false });
    for (const body of [
      { usageType: 'fax', quantity: 1 },
      { usageType: 'sms', quantity: 0 },
      { usageType: 'sms', quantity: 1.5 },
      { usageType: 'sms', quantity: 10_000_000 },
      { usageType: 'sms' },
    ]) {
      expect((await agent.post('/v1/wallets/estimate_cost', body)).status, JSON.stringify(body)).toBe(422);
    }
    const prices = (await agent.get('/v1/wallets/usage_pricing')).body.prices;
    expect(prices).toHaveLength(7);
    expect(prices[0]).toEqual({ usage_type: 'sms', label: 'Text message (SMS)', unit: 'segment', unit_price: 2 });
  });
});

describe('GET /v1/wallets/analytics', () => {
  it('a person sees their own money in and usage out by day, and by usage type', async () => {
    const res = (await agent.get('/v1/wallets/analytics?period=7d')).body;
    expect(res.scope).toBe('user');
    expect(res.series).toHaveLength(7);
    expect(res.series.at(-1)).toMatchObject({ credits: 5_000, spend: 53 });
    expect(res.totals).toEqual({ credits: 5_000, spend: 53 });
    expect(res.by_usage_type).toEqual([
      { usage_type: 'sms', label: 'Text message (SMS)', amount: 44, quantity: 22 },
      { usage_type: 'outbound_call_minute', label: 'Outbound call', amount: 9, quantity: 3 },
    ]);
    expect((await agent.get('/v1/wallets/analytics')).body.series).toHaveLength(30);
    expect((await agent.get('/v1/wallets/analytics?period=12m')).body.series).toHaveLength(12);
  });

  it('an admin sees the company; corporation_id is refused to others and names nothing yet', async () => {
    const res = (await admin.get('/v1/wallets/analytics?period=30d')).body;
    expect(res).toMatchObject({ scope: 'company', totals: { credits: 5_000, spend: 53 } });
    expect((await agent.get('/v1/wallets/analytics?corporation_id=1')).status).toBe(403);
    expect((await admin.get('/v1/wallets/analytics?corporation_id=1')).status).toBe(404);
    for (const q of ['period=2y', 'corporation_id=-1', 'corporation_id=x']) {
      expect((await admin.get(`/v1/wallets/analytics?${q}`)).status, q).toBe(422);
    }
  });
});

describe('GET /v1/wallets/invoice_history', () => {
  it('lists only my own paid invoices', async () => {
    const mine = (await agent.get('/v1/wallets/invoice_history')).body;
    expect(mine.invoices).toHaveLength(1);
    expect(mine.invoices[0]).toMatchObject({ amount: 5_000, card_brand: 'visa', card_last4: '4242' });
    expect((await admin.get('/v1/wallets/invoice_history')).body.invoices).toEqual([]);
    expect((await admin.get(mine.invoices[0].download_url)).status).toBe(404);
    expect((await agent.get('/v1/wallets/invoices/999999/pdf')).status).toBe(404);
    expect((await agent.get('/v1/wallets/invoices/abc/pdf')).status).toBe(404);
  });
});
