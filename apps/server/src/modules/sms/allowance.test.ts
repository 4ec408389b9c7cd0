/**
 * The SMS plan's monthly allocation is never passed, however many texts are in flight: units are reserved before
 * a text leaves by a conditional upsert of the month's total (reserveUsage), so a broadcast (16 recipients at once)
 * and concurrent sends through the route stop exactly at the allocation; a refused send keeps nothing reserved.
 */
import { QUOTA_MESSAGES } from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, clockAt, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { checkSmsAllocation, releaseUsage, reserveUsage } from '../usage-plans/enforcement.js';
import { topUp } from '../wallet/test-helpers.js';
import { completedBroadcast } from './test-helpers.js';

let t: TestApp;
let agent: Client;
let agentId: number;
let companyId: number;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
// 8:30 p.m. in Texas: awake (quiet hours start at 9 p.m.).
const clock = clockAt('America/Chicago', 20, 30);

const quota = () => checkSmsAllocation(t.database.db, { companyId, userId: agentId });
/** Leaves `left` segments of the agent's allocation this month. */
async function leave(left: number) {
  const c = await quota();
  expect(c.coverage?.licence_id, 'the demo agent texts on a licence with an allocation').toBeTruthy();
  await q('update plan_licences set allocation = $1 where id = $2', [c.used + left, c.coverage!.licence_id]);
  return c.used;
}

async function consenting(i: number) {
  const c = await newContact(agent, {
    first_name: 'Ada',
    last_name: `Allowance ${i}`,
    phone: `1-512-555-${String(1000 + i)}`,
    state: 'TX',
  });
  expect((await agent.post('/v1/sms/update_permission', { contact_id: c.id, status: 'allowed' })).status).toBe(200);
  return c;
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  agent = await signIn(t.app, DEMO('agent'));
  const [u] = await q<{ id: number; company_id: number }>(
    `update users set max_plus_active = true, max_plus_plan = 'premium' where email = $1 returning id, company_id`,
    [DEMO('agent')],
  );
  agentId = Number(u.id);
  companyId = Number(u.company_id);
  await topUp(agent, 2_000);
});
afterAll(() => t.close());

describe('the SMS plan allocation under concurrency', () => {
  it('a broadcast to 20 with 5 segments left sends exactly 5 and fails the rest, charging 5', async () => {
    const contacts = await Promise.all(Array.from({ length: 20 }, (_, i) => consenting(i)));
    const used = await leave(5);
    const sent = await agent.post('/v1/contacts/send_broadcast_sms', {
      ids: contacts.map((c) => c.id),
      message: 'Open enrollment starts soon. Reply STOP to opt out.',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const b = await completedBroadcast(agent, sent.body.id, 60_000);
    expect(b).toMatchObject({ total: 20, sent: 5, failed: 15 });
    expect((await quota()).used).toBe(used + 5);
    const rows = await q<{ status: string; charged_cents: number; error_message: string | null }>(
      'select status, charged_cents, error_message from sms_messages where broadcast_id = $1',
      [sent.body.id],
    );
    expect(rows.filter((r) => Number(r.charged_cents) > 0)).toHaveLength(5);
    expect(rows.filter((r) => r.status === 'failed' && r.error_message === QUOTA_MESSAGES.sms)).toHaveLength(15);
    const keys = await q(
      `select 1 from ledger_transactions t join sms_messages m on t.idempotency_key = 'sms:' || m.id
       where m.broadcast_id = $1`,
      [sent.body.id],
    );
    expect(keys).toHaveLength(5);
    const to = contacts.map((c) => `+1${String(c.phone).replace(/\D/g, '').slice(-10)}`);
    const accepted = t.deps.messaging.carrier!.acceptedMessages().map((m) => m.to);
    expect(
      accepted.filter((n) => to.includes(n)),
      JSON.stringify([to[0], accepted.slice(-2)]),
    ).toHaveLength(5);
  });

  it('eight sends at once through the route with 3 segments left: 3 sent, 5 refused with 403, nothing stored for them', async () => {
    const contacts = await Promise.all(Array.from({ length: 8 }, (_, i) => consenting(100 + i)));
    const used = await leave(3);
    const before = (await q<{ n: number }>('select count(*)::int as n from sms_messages'))[0].n;
    const res = await Promise.all(
      contacts.map((c) =>
        agent.post('/v1/sms/send_message', { contact_id: c.id, message_to: c.phone, message_content: 'Hello' }),
      ),
    );
    const codes = res.map((r) => r.status).sort();
    expect(codes).toEqual([201, 201, 201, 403, 403, 403, 403, 403]);
    for (const r of res.filter((x) => x.status === 403)) expect(r.body.errors.user[0]).toBeTruthy();
    expect((await quota()).used).toBe(used + 3);
    expect((await q<{ n: number }>('select count(*)::int as n from sms_messages'))[0].n).toBe(before + 3);
  });

  it('a reservation is made once per ref, released once, and refused for someone outside the company', async () => {
    const used = await leave(2);
    const one = {
      companyId,
      userId: agentId,
      kind: 'sms' as const,
      quantity: 2,
      ref: 'test:alloc:1',
      allocation: used + 2,
    };
    expect(await reserveUsage(t.database.db, one)).toEqual({ reserved: true });
    expect(await reserveUsage(t.database.db, one)).toEqual({ reserved: true });
    expect((await quota()).used).toBe(used + 2);
    expect(await reserveUsage(t.database.db, { ...one, ref: 'test:alloc:2', quantity: 1 })).toEqual({
      reserved: false,
    });
    expect(await releaseUsage(t.database.db, one)).toEqual({ released: 2 });
    expect(await releaseUsage(t.database.db, one)).toEqual({ released: 0 });
    expect((await quota()).used).toBe(used);
    await expect(
      reserveUsage(t.database.db, { ...one, companyId: companyId + 999, ref: 'test:alloc:3' }),
    ).rejects.toThrow(/not a user/);
  });
});
