/**
 * Helpers of the plan areas' integration tests: money into a wallet (a ledger top-up, as a card's webhook would post
 * it), the processor's webhooks delivered into the app, purchases with their Idempotency-Key, and waiting for a
 * card-paid order to settle.
 */
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Client, TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { ensureCompanyAccount } from '../wallet/accounts.js';
import { ledgerOf } from '../wallet/service.js';

export const idem = () => crypto.randomUUID();

/** A money write with its Idempotency-Key. */
export const send = (c: Client, url: string, body: unknown, key = idem()) =>
  c.request('POST', url, body, { 'idempotency-key': key });

export async function userId(t: TestApp, email: string) {
  const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
  return u;
}

/** Puts `cents` into a person's wallet (or the company wallet) as a card top-up's webhook would. */
export async function fund(t: TestApp, email: string, cents: number, wallet: 'personal' | 'company' = 'personal') {
  const u = await userId(t, email);
  const ledger = ledgerOf(t.deps);
  const account =
    wallet === 'company'
      ? await ledger.accounts.companyAccount(u.companyId, 'company_wallet')
      : (await ledger.accounts.userWallet(u.companyId, u.id))!;
  const clearing = await ensureCompanyAccount(t.database.db, u.companyId, 'processor_clearing');
  const r = await ledger.post({
    companyId: u.companyId,
    key: `test-fund:${idem()}`,
    kind: 'top_up',
    legs: [
      { accountId: clearing, amount: -cents },
      { accountId: account, amount: cents },
    ],
  });
  expect(r.status).toBe('posted');
  return account;
}

export async function balanceOf(t: TestApp, email: string, wallet: 'personal' | 'company' = 'personal') {
  const u = await userId(t, email);
  const kind =
    wallet === 'company'
      ? sql`kind = 'company_wallet' and company_id = ${u.companyId}`
      : sql`kind = 'agent_wallet' and user_id = ${u.id}`;
  const res = await t.database.db.execute<{ balance: number }>(sql`select balance from ledger_accounts where ${kind}`);
  return Number(res.rows[0]?.balance ?? 0);
}

/** The loopback processor's webhooks go through the app's real webhook route. */
export function deliverWebhooks(t: TestApp) {
  t.deps.payments.loopback!.setWebhookTarget(async (body, headers) => {
    const res = await t.app.inject({ method: 'POST', url: '/v1/webhooks/stripe', headers, payload: body });
    return res.statusCode;
  });
}

export async function cardOf(c: Client, number = '4242424242424242'): Promise<string> {
  const res = await c.post('/v1/wallets/payment_methods', {
    number,
    exp_month: 12,
    exp_year: new Date().getFullYear() + 3,
    cvc: '123',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

/** Polls an order until its status is no longer pending (the webhook's job settles it). */
export async function settledOrder(c: Client, product: string, id: number) {
  for (let i = 0; i < 800; i++) {
    const res = await c.get(`/v1/${product}/${product}_orders/${id}`);
    if (res.body.status !== 'pending') return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`order ${id} never settled`);
}

/** A plan of the demo company by tier (personal) or the enterprise one. */
export async function planOf(c: Client, product: string, which: 'standard' | 'premium' | 'enterprise') {
  const url = which === 'enterprise' ? `/v1/${product}/${product}_plans/enterprise` : `/v1/${product}/${product}_plans`;
  const res = await c.get(url);
  const p = res.body.data.find((x: { tier: string; enterprise: boolean }) =>
    which === 'enterprise' ? x.enterprise : x.tier === which,
  );
  expect(p, `${product} ${which} plan`).toBeDefined();
  return p as { id: number; price: number; units: number; unit_price: number; min_seats: number; name: string };
}
