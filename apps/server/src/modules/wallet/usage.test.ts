/**
 * The usage-charge API other areas call (texts, calls): priced from the shared list, keyed by the cause so a retry
 * charges once, refused whole when the wallet cannot pay, inside a caller's transaction when asked, and visible in
 * the wallet's history with what it paid for.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { balance, entriesOf as entriesOfKey, topUp } from './test-helpers.js';
import { affordableQuantity, chargeUsage, chargeUsageWithin, startedMinutes } from './usage.js';
import { checkLedger } from './verify.js';

let t: TestApp;
let agent: Client;
let me: { id: number; companyId: number };

const userRow = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0];
const entriesOf = (key: string) => entriesOfKey(t.database.db, key);

beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
  me = await userRow(DEMO('agent'));
  await topUp(agent, 1_000);
});
afterAll(() => t.close());

describe('chargeUsage', () => {
  it('charges the price list, once per key, and says what it paid for', async () => {
    const charge = () =>
      chargeUsage(t.deps, {
        companyId: me.companyId,
        userId: me.id,
        usageType: 'sms',
        quantity: 3,
        idempotencyKey: 'sms:msg-1',
        details: { to: '+15551230000' },
        ref: { type: 'sms_message', id: 1 },
      });
    const first = await charge();
    expect(first).toMatchObject({ ok: true, status: 'charged', amount: 6 });
    const again = await Promise.all([charge(), charge(), charge()]);
    for (const r of again) expect(r).toMatchObject({ ok: true, status: 'already_charged', amount: 6 });
    expect(await entriesOf('sms:msg-1')).toBe(2);
    expect(await balance(agent)).toBe(994);
    const history = (await agent.get('/v1/wallets/transaction_history?filter=usage')).body.transactions;
    expect(history[0]).toMatchObject({
      amount: -6,
      description: 'Text to 1-555-123-0000, 3 segments',
      details: { ref: { type: 'sms_message', id: 1 }, quantity: 3, unit_price: 2 },
    });
  });

  it('takes a call per started minute and shows the caller-given description', async () => {
    expect([0, 1, 59, 60, 61, 125].map(startedMinutes)).toEqual([0, 1, 1, 1, 2, 3]);
    const r = await chargeUsage(t.deps, {
      companyId: me.companyId,
      userId: me.id,
      usageType: 'outbound_call_minute',
      quantity: startedMinutes(125),
      idempotencyKey: 'call:CA1:parent',
      description: 'Call to Mary Smith (2 min 5 s)',
      details: { to: '5551234567', seconds: 125 },
    });
    expect(r).toMatchObject({ ok: true, status: 'charged', amount: 9 });
    const history = (await agent.get('/v1/wallets/transaction_history?filter=usage')).body.transactions;
    expect(history[0]).toMatchObject({ amount: -9, description: 'Call to Mary Smith (2 min 5 s)' });
  });

  it('refuses what the wallet cannot pay, whole, with a message; a later top-up lets the same key pass', async () => {
    const before = await balance(agent);
    expect(await affordableQuantity(t.deps, me.companyId, me.id, 'outbound_call_minute')).toBe(Math.floor(before / 3));
    const big = {
      companyId: me.companyId,
      userId: me.id,
      usageType: 'phone_number_month' as const,
      quantity: 7,
      idempotencyKey: 'number:PN1:2026-01',
    };
    const refused = await chargeUsage(t.deps, big);
    expect(refused).toEqual({
      ok: false,
      reason: 'insufficient_funds',
      balance: before,
      needed: 1_050,
      message: `Your wallet balance ($${(before / 100).toFixed(2)}) does not cover this ($10.50). Please top up your wallet.`,
    });
    expect(await balance(agent)).toBe(before);
    expect(await entriesOf(big.idempotencyKey)).toBe(0);
    await topUp(agent, 1_000);
    expect(await chargeUsage(t.deps, big)).toMatchObject({ ok: true, status: 'charged', amount: 1_050 });
  });

  it('answers a key reused for another charge as a conflict, charging nothing', async () => {
    const before = await balance(agent);
    const r = await chargeUsage(t.deps, {
      companyId: me.companyId,
      userId: me.id,
      usageType: 'sms',
      quantity: 4,
      idempotencyKey: 'sms:msg-1',
    });
    expect(r).toMatchObject({ ok: false, reason: 'key_conflict' });
    expect(await balance(agent)).toBe(before);
  });

  it('commits or rolls back with the caller’s transaction', async () => {
    const before = await balance(agent);
    const c = {
      companyId: me.companyId,
      userId: me.id,
      usageType: 'mms' as const,
      quantity: 1,
      idempotencyKey: 'mms:rolled-back',
    };
    await expect(
      t.database.db.transaction(async (tx) => {
        expect(await chargeUsageWithin(t.deps, tx, c)).toMatchObject({ ok: true, status: 'charged', amount: 5 });
        throw new Error('the message could not be stored');
      }),
    ).rejects.toThrow('the message could not be stored');
    expect(await balance(agent)).toBe(before);
    expect(await entriesOf(c.idempotencyKey)).toBe(0);
    await t.database.db.transaction(async (tx) => {
      expect(await chargeUsageWithin(t.deps, tx, c)).toMatchObject({ ok: true, status: 'charged' });
    });
    expect(await balance(agent)).toBe(before - 5);
  });

  it('throws on a programming error: a bad quantity or key, or a user of another company', async () => {
    const base = { companyId: me.companyId, userId: me.id, usageType: 'sms' as const, idempotencyKey: 'sms:bad' };
    for (const quantity of [0, -1, 1.5, Number.NaN]) {
      await expect(chargeUsage(t.deps, { ...base, quantity })).rejects.toThrow(RangeError);
    }
    await expect(chargeUsage(t.deps, { ...base, quantity: 1, idempotencyKey: '' })).rejects.toThrow(RangeError);
    const stranger = await userRow(RECRUIT('agent'));
    await expect(chargeUsage(t.deps, { ...base, quantity: 1, userId: stranger.id })).rejects.toThrow(
      /not a user of company/,
    );
    expect(await entriesOf('sms:bad')).toBe(0);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });
});
