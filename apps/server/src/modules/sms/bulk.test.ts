/**
 * Texting a selection (issue 12): the preview removes an opted-out contact, a contact without consent and a landline,
 * counts who waits for their morning, and prices it; the broadcast then sends exactly one text to each allowed
 * recipient through the loopback carrier (none to the opted-out or the landline), one debit each. Line-type lookups
 * of a selection are paid one by one from the wallet, as far as it pays.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, clockAt, createTestApp, DEMO, signIn, type TestApp, until } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { balance, topUp } from '../wallet/test-helpers.js';
import { chargeUsage } from '../wallet/usage.js';
import { quietUntil, zoneOfState } from './quiet-hours.js';
import { completedBroadcast } from './test-helpers.js';

let t: TestApp;
let agent: Client;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

/**
 * The app's clock says 9:30 p.m. Eastern: Florida is in its quiet hours, Texas (8:30 p.m.) is not. Real clocks give
 * no state an awake hour between 07:00 and 13:00 UTC, so the test sets the hour it is about.
 */
const clock = clockAt('America/New_York', 21, 30);
const awake = 'TX';
const asleep = 'FL';

beforeAll(async () => {
  t = await createTestApp({ clock });
  agent = await signIn(t.app, DEMO('agent'));
  await topUp(agent, 1_000);
});
afterAll(() => t.close());

async function consenting(body: Record<string, unknown>) {
  const c = await newContact(agent, body);
  const r = await agent.post('/v1/sms/update_permission', {
    contact_id: c.id,
    status: 'allowed',
    detail: 'Signed the texting form',
  });
  expect(r.status).toBe(200);
  return c;
}

describe('text broadcasts', () => {
  it('previews who is removed and why, who waits for morning, and the cost; sends once to each allowed recipient', async () => {
    const a = await consenting({ first_name: 'Ann', last_name: 'Awake', phone: '1-305-555-0111', state: awake });
    const opted = await consenting({ first_name: 'Otto', last_name: 'Out', phone: '1-305-555-0112', state: awake });
    await agent.post('/v1/sms/update_permission', { contact_id: opted.id, status: 'opted_out' });
    const land = await consenting({ first_name: 'Lana', last_name: 'Line', phone: '1-305-555-9113', state: awake });
    expect((await agent.post('/v1/sms/mobile_validation_single', { phone: '1-305-555-9113' })).body.line_type).toBe(
      'landline',
    );
    const none = await newContact(agent, {
      first_name: 'Nora',
      last_name: 'Noconsent',
      phone: '1-305-555-0114',
      state: awake,
    });
    const ids = [a.id, opted.id, land.id, none.id];
    expect(quietUntil(zoneOfState(awake), clock())).toBeNull();
    expect(quietUntil(zoneOfState(asleep), clock())).not.toBeNull();
    const extra = [await consenting({ first_name: 'Sam', last_name: 'Sleep', phone: '1-305-555-0115', state: asleep })];

    const pv = await agent.post('/v1/contacts/sms_broadcast_preview', {
      ids: [...ids, ...extra.map((c) => c.id)],
      message: 'AEP opens Oct 15. Reply STOP to opt out.',
    });
    expect(pv.status, JSON.stringify(pv.body)).toBe(200);
    expect(pv.body.total).toBe(4 + extra.length);
    expect(pv.body.receive).toBe(1 + extra.length);
    expect(Object.fromEntries(pv.body.removed.map((r: any) => [r.reason, r.count]))).toEqual({
      opted_out: 1,
      no_consent: 1,
      landline: 1,
    });
    expect(pv.body.waiting_for_morning).toBe(extra.length);
    expect(pv.body.segments).toBe(1);
    expect(pv.body.cost).toBe((1 + extra.length) * pv.body.unit_price);
    expect(pv.body.affordable).toBe(true);

    const before = (await q<{ n: number }>('select count(*)::int as n from sms_messages'))[0].n;
    const sent = await agent.post('/v1/contacts/send_broadcast_sms', {
      ids,
      message: 'AEP opens Oct 15. Reply STOP to opt out.',
    });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const b = await completedBroadcast(agent, sent.body.id, 20_000);
    expect(b).toMatchObject({ total: 4, sent: 1, removed: 2, failed: 1 });
    const rows = await q<{ contact_id: number; to_phone: string }>(
      'select contact_id, to_phone from sms_messages where broadcast_id = $1',
      [sent.body.id],
    );
    expect(rows.map((r) => Number(r.contact_id))).toEqual([a.id]);
    expect((await q<{ n: number }>('select count(*)::int as n from sms_messages'))[0].n).toBe(before + 1);
    const [m] = await q<{ id: number }>('select id from sms_messages where broadcast_id = $1', [sent.body.id]);
    expect(await q('select 1 from ledger_transactions where idempotency_key = $1', [`sms:${m.id}`])).toHaveLength(1);
    await until(async () => t.deps.messaging.carrier!.phone('+13055550111').length === 1, 'the delivery', 20_000);
    expect(t.deps.messaging.carrier!.phone('+13055559113')).toHaveLength(0);
    expect(t.deps.messaging.carrier!.phone('+13055550112')).toHaveLength(0);
  });

  it('holds a recipient in their quiet hours until their morning on the real clock, not on the shifted one', async () => {
    const sam = await consenting({ first_name: 'Sal', last_name: 'Early', phone: '1-305-555-0116', state: asleep });
    // 7:59 a.m. in Florida two days ago: their morning is a minute away on this clock and long past on the real one
    // (browser flows shift the clock back like this). A hold written on the shifted clock was due at once, every turn.
    const saved = t.deps.clock;
    const early = clockAt('America/New_York', 7, 59);
    t.deps.clock = () => new Date(early().getTime() - 2 * 86_400_000);
    try {
      const sent = await agent.post('/v1/contacts/send_broadcast_sms', { ids: [sam.id], message: 'Good morning' });
      expect(sent.status, JSON.stringify(sent.body)).toBe(201);
      const held = await until(async () => {
        const [r] = await q<{ due_in: number | null }>(
          `select extract(epoch from retry_at - now())::float as due_in from broadcast_recipients
            where broadcast_id = $1 and status = 'pending' and retry_at is not null`,
          [sent.body.id],
        );
        return r ?? false;
      }, 'the hold');
      expect(held.due_in).toBeGreaterThan(0);
      expect(held.due_in).toBeLessThanOrEqual(61);
      expect(await q('select 1 from sms_messages where broadcast_id = $1', [sent.body.id])).toHaveLength(0);
      expect((await agent.post(`/v1/broadcasts/${sent.body.id}/cancel`, {})).status).toBe(200);
    } finally {
      t.deps.clock = saved;
    }
  });

  it('refuses an empty or over-long text, and a basic user', async () => {
    const c = await consenting({ first_name: 'Bad', last_name: 'Input', phone: '1-305-555-0120' });
    expect((await agent.post('/v1/contacts/send_broadcast_sms', { ids: [c.id] })).body.errors.message[0]).toMatch(
      /blank/,
    );
    const long = await agent.post('/v1/contacts/sms_group', { ids: [c.id], message: 'a'.repeat(1531) });
    expect(long.status).toBe(422);
    expect(long.body.errors.message[0]).toMatch(/11 segments/);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await basic.post('/v1/contacts/sms_group', { ids: [c.id], message: 'hi' })).status).toBe(403);
    const test = await agent.post('/v1/contacts/send_test_sms', { to: '1-305-555-0130', message: 'Testing' });
    expect(test.status, JSON.stringify(test.body)).toBe(201);
    expect(test.body.body).toBe('[Test] Testing');
    expect((await agent.post('/v1/contacts/send_test_sms', { to: '1-305-555-9130', message: 'Testing' })).status).toBe(
      422,
    );
  });
});

describe('bulk_sms_verification_group', () => {
  const day = () => new Date().toISOString().slice(0, 10);
  const who = async () => {
    const [u] = await q<{ id: number; company_id: number }>('select id, company_id from users where email = $1', [
      DEMO('agent'),
    ]);
    return { userId: Number(u.id), companyId: Number(u.company_id) };
  };

  it('looks up each unknown number once, each paid from the wallet under its own key; refuses a basic user, an empty or foreign selection', async () => {
    const { userId } = await who();
    const list = [
      await newContact(agent, { first_name: 'Vera', last_name: 'One', phone: '1-305-555-0201' }),
      await newContact(agent, { first_name: 'Vera', last_name: 'Two', phone: '1-305-555-9202' }),
      await newContact(agent, { first_name: 'Vera', last_name: 'Three', phone: '1-305-555-0203' }),
    ];
    const ids = list.map((c) => c.id);
    const before = await balance(agent);
    const res = await agent.post('/v1/contacts/bulk_sms_verification_group', { ids });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ looked_up: 3, not_paid: 0, cost: 3 });
    expect(await balance(agent)).toBe(before - 3);
    const found = await q<{ phone: string; line_type: string }>(
      `select phone, line_type from phone_verifications where phone like '1305555020%' or phone = '13055559202' order by phone`,
    );
    expect(found.map((f) => [f.phone, f.line_type])).toEqual([
      ['13055550201', 'mobile'],
      ['13055550203', 'mobile'],
      ['13055559202', 'landline'],
    ]);
    for (const phone of ['13055550201', '13055559202', '13055550203']) {
      expect(
        await q('select 1 from ledger_transactions where idempotency_key = $1', [`lookup:${phone}:${day()}:${userId}`]),
      ).toHaveLength(1);
    }
    // Known now: nothing looked up or paid again.
    expect((await agent.post('/v1/contacts/bulk_sms_verification_group', { ids })).body).toMatchObject({
      looked_up: 0,
      cost: 0,
    });
    expect(await balance(agent)).toBe(before - 3);

    expect((await agent.post('/v1/contacts/bulk_sms_verification_group', { ids: [] })).status).toBe(422);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await basic.post('/v1/contacts/bulk_sms_verification_group', { ids })).status).toBe(403);
    const manager = await signIn(t.app, DEMO('manager'));
    const theirs = await newContact(manager, { first_name: 'Not', last_name: 'Yours', phone: '1-305-555-0204' });
    const foreign = await agent.post('/v1/contacts/bulk_sms_verification_group', { ids: [theirs.id] });
    expect(foreign.status).toBe(404);
    expect(await q(`select 1 from phone_verifications where phone = '13055550204'`)).toHaveLength(0);
    expect(await balance(agent)).toBe(before - 3);
  });

  it('looks up as many as the wallet pays for, then refuses with 402 and looks up nothing', async () => {
    const { userId, companyId } = await who();
    // Leave exactly two lookups' worth in the wallet.
    const left = await balance(agent);
    const drain = await chargeUsage(t.deps, {
      companyId,
      userId,
      usageType: 'phone_validation',
      quantity: left - 2,
      idempotencyKey: 'test:drain',
    });
    expect(drain.ok).toBe(true);
    const list = [];
    for (const n of ['0211', '0212', '0213', '0214'])
      list.push(await newContact(agent, { first_name: 'Poor', last_name: n, phone: `1-305-555-${n}` }));
    const res = await agent.post('/v1/contacts/bulk_sms_verification_group', { ids: list.map((c) => c.id) });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ looked_up: 2, not_paid: 2, cost: 2 });
    expect(await balance(agent)).toBe(0);
    expect(await q(`select 1 from phone_verifications where phone like '1305555021_'`)).toHaveLength(2);

    const broke = await agent.post('/v1/contacts/bulk_sms_verification_group', { ids: list.map((c) => c.id) });
    expect(broke.status).toBe(402);
    expect(broke.body.errors.wallet[0]).toMatch(/top up/i);
    expect(await q(`select 1 from phone_verifications where phone like '1305555021_'`)).toHaveLength(2);
    expect(await balance(agent)).toBe(0);
  });
});
