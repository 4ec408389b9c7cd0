/**
 * Allocate and reclaim through HTTP: admins fund from the company wallet, managers from their own; only people
 * within reach; never more than the source holds; reclaim never more than a person holds; every refusal leaves
 * every balance as it was.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { balance, key, send, topUp } from './test-helpers.js';
import { checkLedger } from './verify.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let telemarketer: Client;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent, telemarketer] = await Promise.all(
    ['admin', 'manager', 'agent', 'telemarketer'].map((r) => signIn(t.app, DEMO(r))),
  );
  const rows = await t.database.db.execute<{ id: number; email: string }>(sql`select id, email from users`);
  for (const r of rows.rows) ids[r.email] = Number(r.id);
});
afterAll(() => t.close());

const everyBalance = async () =>
  (
    await t.database.db.execute<{ id: number; balance: number }>(
      sql`select id, balance from ledger_accounts order by id`,
    )
  ).rows;

describe('POST /v1/wallets/allocate', () => {
  it('an admin funds the company wallet and allocates from it to two agents', async () => {
    await topUp(admin, 10_000, { wallet: 'company' });
    expect((await admin.get('/v1/wallets')).body).toMatchObject({
      company_balance: 10_000,
      balance: 0,
      can_allocate: true,
    });
    const res = await send(admin, 'POST', '/v1/wallets/allocate', {
      user_ids: [ids[DEMO('agent')], ids[DEMO('telemarketer')]],
      amount: 1_500,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      moved: [
        { user_id: ids[DEMO('agent')], amount: 1_500, balance: 1_500 },
        { user_id: ids[DEMO('telemarketer')], amount: 1_500, balance: 1_500 },
      ],
      funding_balance: 7_000,
      funding_wallet: 'company',
    });
    expect(await balance(agent)).toBe(1_500);
    const history = (await agent.get('/v1/wallets/transaction_history')).body.transactions;
    expect(history[0]).toMatchObject({
      kind: 'allocation',
      amount: 1_500,
      description: 'Allocation from Alicia Grant',
    });
  });

  it('a manager allocates from their own wallet, only to people below them, never more than they hold', async () => {
    const refused = await send(manager, 'POST', '/v1/wallets/allocate', {
      user_ids: [ids[DEMO('agent')]],
      amount: 100,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.amount[0]).toMatch(/^Your wallet holds \$0\.00/);
    await topUp(manager, 3_000);
    const before = await everyBalance();
    for (const outside of [
      ids[DEMO('basic')],
      ids[DEMO('admin')],
      ids[RECRUIT('agent')],
      ids[DEMO('manager')],
      999_999,
    ]) {
      const res = await send(manager, 'POST', '/v1/wallets/allocate', {
        user_ids: [ids[DEMO('agent')], outside],
        amount: 100,
      });
      expect(res.status, String(outside)).toBe(404);
      expect(res.body.errors.user_ids[0]).toContain(String(outside));
    }
    const tooMuch = await send(manager, 'POST', '/v1/wallets/allocate', {
      user_ids: [ids[DEMO('agent')], ids[DEMO('telemarketer')]],
      amount: 1_501,
    });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.errors.amount).toEqual(['Your wallet holds $30.00; $15.01 for 2 people needs $30.02.']);
    expect(await everyBalance()).toEqual(before);
    const ok = await send(manager, 'POST', '/v1/wallets/allocate', {
      user_ids: [ids[DEMO('agent')], ids[DEMO('telemarketer')]],
      amount: 1_000,
    });
    expect(ok.status).toBe(200);
    expect(ok.body.funding_balance).toBe(1_000);
    expect(await balance(manager)).toBe(1_000);
    expect(await balance(telemarketer)).toBe(2_500);
  });

  it('answers a replayed request once', async () => {
    const idem = key();
    const body = { user_ids: [ids[DEMO('agent')]], amount: 100 };
    const first = await send(manager, 'POST', '/v1/wallets/allocate', body, idem);
    const again = await send(manager, 'POST', '/v1/wallets/allocate', body, idem);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const n = await t.database.db.execute<{ n: number }>(
      sql`select count(*) as n from ledger_transactions where idempotency_key = ${`allocate:${ids[DEMO('manager')]}:${idem}`}`,
    );
    expect(Number(n.rows[0].n)).toBe(1);
  });

  it('refuses bad amounts and lists with nothing changed', async () => {
    const before = await everyBalance();
    const agentId = ids[DEMO('agent')];
    const bad = [
      { user_ids: [agentId], amount: 0 },
      { user_ids: [agentId], amount: -100 },
      { user_ids: [agentId], amount: 10.5 },
      { user_ids: [agentId], amount: 100_000_000 },
      { user_ids: [], amount: 100 },
      { user_ids: [agentId, agentId], amount: 100 },
      { user_ids: Array.from({ length: 101 }, (_, i) => i + 1), amount: 100 },
      { user_ids: [agentId] },
    ];
    for (const body of bad) {
      const res = await send(manager, 'POST', '/v1/wallets/allocate', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await manager.post('/v1/wallets/allocate', { user_ids: [agentId], amount: 100 })).status).toBe(422);
    expect(await everyBalance()).toEqual(before);
  });
});

describe('POST /v1/wallets/reclaim', () => {
  it('takes back a given amount or everything, never more than a person holds', async () => {
    const before = await everyBalance();
    const agentId = ids[DEMO('agent')];
    const held = await balance(agent);
    const over = await send(manager, 'POST', '/v1/wallets/reclaim', { user_ids: [agentId], amount: held + 1 });
    expect(over.status).toBe(422);
    expect(over.body.errors.amount[0]).toMatch(/^Angela Diaz holds \$/);
    for (const body of [{ user_ids: [agentId], amount: 0 }, { user_ids: [agentId], amount: 0.5 }, { user_ids: [] }]) {
      expect((await send(manager, 'POST', '/v1/wallets/reclaim', body)).status).toBe(422);
    }
    expect((await send(manager, 'POST', '/v1/wallets/reclaim', { user_ids: [ids[DEMO('basic')]] })).status).toBe(404);
    expect(await everyBalance()).toEqual(before);
    const managerBefore = await balance(manager);
    const part = await send(manager, 'POST', '/v1/wallets/reclaim', { user_ids: [agentId], amount: 500 });
    expect(part.status).toBe(200);
    expect(part.body.moved).toEqual([{ user_id: agentId, amount: 500, balance: held - 500 }]);
    expect(await balance(manager)).toBe(managerBefore + 500);
    const all = await send(manager, 'POST', '/v1/wallets/reclaim', { user_ids: [ids[DEMO('telemarketer')]] });
    expect(all.status).toBe(200);
    expect(await balance(telemarketer)).toBe(0);
    expect(
      (await telemarketer.get('/v1/wallets/transaction_history?filter=reclaim')).body.transactions[0],
    ).toMatchObject({
      amount: -2_500,
      description: 'Reclaimed by Monica Reyes',
    });
    const nothing = await send(manager, 'POST', '/v1/wallets/reclaim', { user_ids: [ids[DEMO('telemarketer')]] });
    expect(nothing.status).toBe(422);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });
});

describe('who may move money', () => {
  it('agents may not allocate, reclaim or list members; managers see their people with balances', async () => {
    for (const [method, url] of [
      ['POST', '/v1/wallets/allocate'],
      ['POST', '/v1/wallets/reclaim'],
      ['GET', '/v1/wallets/members'],
    ] as const) {
      const res = await agent.request(method, url, method === 'GET' ? undefined : { user_ids: [1], amount: 100 }, {
        'idempotency-key': key(),
      });
      expect(res.status).toBe(403);
    }
    const list = (await manager.get('/v1/wallets/members')).body.members;
    const emails = list.map((m: { email: string }) => m.email);
    expect(emails).toContain(DEMO('agent'));
    expect(emails).toContain(DEMO('telemarketer'));
    expect(emails).not.toContain(DEMO('manager'));
    expect(emails).not.toContain(DEMO('basic'));
    expect(list.find((m: { email: string }) => m.email === DEMO('agent')).balance).toBe(await balance(agent));
  });
});
