/** Helpers of the wallet's integration tests: cards from the loopback form, top-ups that wait for the webhook. */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Client, Reply } from '../../../test/harness.js';
import type { Db } from '../../platform/db/client.js';

export const key = () => crypto.randomUUID();

/** A money write with its Idempotency-Key. */
export const send = (c: Client, method: 'POST' | 'PUT', url: string, body: unknown, idem = key()) =>
  c.request(method, url, body, { 'idempotency-key': idem });

export async function cardOf(c: Client, number = '4242424242424242'): Promise<string> {
  const res = await c.post('/v1/wallets/payment_methods', {
    number,
    exp_month: 12,
    exp_year: new Date().getFullYear() + 3,
    cvc: number.startsWith('3') ? '1234' : '123',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.id;
}

/** Waits until the payment is settled by the processor's webhook (or failed); answers it. */
export async function settled(c: Client, paymentId: number) {
  // By the clock, not by turns: on a loaded machine a refused first delivery comes back after the stand-in's 1 s and
  // 5 s retries (as Stripe's do), and the requests between turns slow down too.
  const end = Date.now() + 45_000;
  while (Date.now() < end) {
    const res = await c.get(`/v1/wallets/payments/${paymentId}`);
    if (res.body.status !== 'pending') return res.body;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`payment ${paymentId} never settled`);
}

/** Tops up with a card and waits for the webhook's credit. */
export async function topUp(
  c: Client,
  amount: number,
  opts: { card?: string; save_card?: boolean; wallet?: 'personal' | 'company'; description?: string } = {},
) {
  const pm = await cardOf(c, opts.card);
  const res: Reply = await send(c, 'POST', '/v1/wallets/top_up', {
    amount,
    payment_method_id: pm,
    description: opts.description ?? 'Test top-up',
    ...(opts.save_card ? { save_card: true } : {}),
    ...(opts.wallet ? { wallet: opts.wallet } : {}),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  return settled(c, res.body.id);
}

export const balance = async (c: Client) => (await c.get('/v1/wallets')).body.balance as number;

/** How many ledger entries carry the movement key `key` (2 for one posted debit, 0 for none). */
export async function entriesOf(db: Db, key: string) {
  const res = await db.execute<{ n: number }>(
    sql`select count(*) as n from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where t.idempotency_key = ${key}`,
  );
  return Number(res.rows[0].n);
}
