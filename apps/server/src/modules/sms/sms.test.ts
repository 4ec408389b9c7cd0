/**
 * Texting end to end through the loopback carrier, driven by the real twilio client: buying a number (A2P status),
 * sending (consent, line type, plan, wallet: one debit per message), status callbacks signed and verified (out of
 * order and repeated: one row, status monotone), inbound replies (stored once, unread counts, live on SmsChannel),
 * opt-out in any wording with one confirmation, and the refusals of issue 12.
 */
import { SMS_CHANNEL } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp, until } from '../../../test/harness.js';
import { cappedPageMeta, countUpTo } from '../../platform/http/paging.js';
import { newContact } from '../contacts/test-helpers.js';
import { grantPlan } from '../usage-plans/test-helpers.js';
import { balance, topUp } from '../wallet/test-helpers.js';
import { STOP_CONFIRMATION } from './opt-out.js';
import { smsStream } from './store.js';

let t: TestApp;
let admin: Client;
let agent: Client;
let agentId: number;
let companyId: number;
let ourNumber: string;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

const carrier = () => t.deps.messaging.carrier!;
const authToken = () => t.deps.messaging.port.authToken;

/** A callback exactly as Twilio would post it (signed with the account's token over the public URL). */
async function twilioPost(topic: string, params: Record<string, string>, signature?: string) {
  const url = `http://localhost:3000/v1/webhooks/twilio/${topic}`;
  return t.app.inject({
    method: 'POST',
    url: `/v1/webhooks/twilio/${topic}`,
    payload: new URLSearchParams(params).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': signature ?? twilio.getExpectedTwilioSignature(authToken(), url, params),
    },
  });
}

async function openGate(email: string) {
  await q(`update users set max_plus_active = true, max_plus_plan = 'premium' where email = $1`, [email]);
  const [u] = await q<{ id: number; company_id: number }>('select id, company_id from users where email = $1', [email]);
  return { id: Number(u.id), companyId: Number(u.company_id) };
}

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent] = await Promise.all([signIn(t.app, DEMO('admin')), signIn(t.app, DEMO('agent'))]);
  ({ id: agentId, companyId } = await openGate(DEMO('agent')));
  // The demo seed gives the agent a number; these tests start from none.
  await q('delete from sms_numbers');
});
afterAll(() => t.close());

describe('the gate and the number', () => {
  it('closes texting without premium Max Plus, and to a basic user', async () => {
    const manager = await signIn(t.app, DEMO('manager'));
    const closed = await manager.post('/v1/sms/fetch_conversations', {});
    expect(closed.status).toBe(403);
    expect(JSON.stringify(closed.body.errors)).toMatch(/Max Plus/i);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await basic.post('/v1/sms/fetch_conversations', {})).status).toBe(403);
  });

  it('refuses to send before the agent has a number, then buys one (paid from the wallet) whose registration is approved', async () => {
    await grantPlan(t.database.db, { companyId, userId: agentId, product: 'sms', allocation: 50, unitPrice: 3 });
    await topUp(agent, 2_000);
    const c = await newContact(agent, { first_name: 'Rosa', last_name: 'Diaz', phone: '1-813-555-0142' });
    const none = await agent.post('/v1/sms/send_message', {
      contact_id: c.id,
      message_to: c.phone,
      message_content: 'Hi',
    });
    expect(none.status).toBe(409);
    expect(none.body.errors.user[0]).toMatch(/no number/);
    expect(await q('select 1 from sms_messages')).toHaveLength(0);

    expect((await agent.get('/v1/users/phone_numbers/search?area_code=81')).status).toBe(422);
    const found = await agent.get('/v1/users/phone_numbers/search?area_code=813');
    expect(found.status).toBe(200);
    ourNumber = found.body.data[0].phone_number;
    expect(ourNumber).toMatch(/^1813555\d{4}$/);
    const before = await balance(agent);
    const bought = await agent.post('/v1/users/phone_numbers/purchase', {
      phone_number: ourNumber,
      pay_from_wallet: true,
    });
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    expect(await balance(agent)).toBe(before - 150);
    expect((await agent.post('/v1/users/phone_numbers/purchase', { phone_number: ourNumber })).status).toBe(422);
    const mine = await agent.get('/v1/users/phone_numbers');
    expect(mine.body.data[0]).toMatchObject({ phone: ourNumber, registration_status: 'approved' });
    expect((await agent.get('/v1/admin/sms/numbers')).status).toBe(403);
    const list = await admin.get('/v1/admin/sms/numbers');
    expect(list.body.data.map((n: any) => n.phone)).toContain(ourNumber);
    expect(list.body.meta.total_count).toBe(1);
  });
});

describe('sending', () => {
  it('texts a mobile once, debits one segment at the plan price, and follows the signed status callbacks to delivered', async () => {
    const c = await newContact(agent, { first_name: 'Ana', last_name: 'Lopez', phone: '1-813-555-0150' });
    const before = await balance(agent);
    const res = await agent.post('/v1/sms/send_message', {
      contact_id: c.id,
      message_to: '18135550150',
      message_content: 'Hi Ana, AEP opens Oct 15.',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ direction: 'outbound', segments: 1, to: '18135550150', from: ourNumber });
    const id = res.body.id;
    await until(
      async () => (await q('select status from sms_messages where id = $1', [id]))[0].status === 'delivered',
      'delivered',
    );
    const [m] = await q('select sid, charged_cents from sms_messages where id = $1', [id]);
    // One segment at the price of the plan covering the agent (the demo team plan's, else the test grant's).
    expect([2, 3]).toContain(m.charged_cents);
    expect(await balance(agent)).toBe(before - m.charged_cents);
    expect(await q('select 1 from ledger_transactions where idempotency_key = $1', [`sms:${id}`])).toHaveLength(1);
    expect(
      carrier()
        .phone('+18135550150')
        .map((e) => e.body),
    ).toEqual(['Hi Ana, AEP opens Oct 15.']);
    const conv = await agent.post('/v1/sms/fetch_conversations', {});
    expect(conv.body.data[0]).toMatchObject({ contact: { id: c.id, name: 'Ana Lopez' }, unread_count: 0 });

    // The same callbacks again, and out of order: one webhook row each, the status never goes back.
    const sent = {
      MessageSid: m.sid,
      MessageStatus: 'sent',
      AccountSid: 'AC',
      From: `+${ourNumber}`,
      To: '+18135550150',
    };
    for (let i = 0; i < 3; i++) expect((await twilioPost('sms-status', sent)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect((await q('select status from sms_messages where id = $1', [id]))[0].status).toBe('delivered');
    expect(await q(`select 1 from webhook_events where event_id = $1`, [`${m.sid}:sent`])).toHaveLength(1);
    expect((await twilioPost('sms-status', sent, 'forged')).statusCode).toBe(401);
  });

  it('refuses a landline, an over-long text, a picture of a wrong type, a number not the contact’s and another company’s contact, storing and charging nothing', async () => {
    const land = await newContact(agent, { first_name: 'Lee', last_name: 'Land', phone: '1-813-555-9001' });
    const before = await balance(agent);
    const count = (await q('select count(*)::int as n from sms_messages'))[0].n;
    const r1 = await agent.post('/v1/sms/send_message', {
      contact_id: land.id,
      message_to: '18135559001',
      message_content: 'Hi',
    });
    expect(r1.status).toBe(422);
    expect(r1.body.errors.message_to[0]).toMatch(/landline/);
    const mob = await newContact(agent, { first_name: 'Max', last_name: 'Long', phone: '1-813-555-0160' });
    const long = await agent.post('/v1/sms/send_message', {
      contact_id: mob.id,
      message_to: '18135550160',
      message_content: 'a'.repeat(1531),
    });
    expect(long.status).toBe(422);
    expect(long.body.errors.message_content[0]).toMatch(/11 segments/);
    expect(
      (await agent.post('/v1/sms/send_message', { contact_id: mob.id, message_to: '18135550160', message_content: '' }))
        .status,
    ).toBe(422);
    expect(
      (
        await agent.post('/v1/sms/send_message', {
          contact_id: mob.id,
          message_to: '18135550199',
          message_content: 'x',
        })
      ).body.errors.message_to[0],
    ).toMatch(/not one of this contact/);
    const boundary = 'xxBOUNDARYxx';
    const part = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const payload = Buffer.concat([
      Buffer.from(
        part('contact_id', String(mob.id)) +
          part('message_to', '18135550160') +
          part('message_content', 'see attached') +
          part('mms', 'true'),
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="x.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 test\r\n--${boundary}--\r\n`,
      ),
    ]);
    const pdf = await agent.request('POST', '/v1/sms/send_message', payload, {
      'content-type': `multipart/form-data; boundary=${boundary}`,
    });
    expect(pdf.status).toBe(422);
    expect(pdf.body.errors.file[0]).toMatch(/picture/);
    const recruit = await signIn(t.app, RECRUIT('admin'));
    const other = await newContact(recruit, { first_name: 'Other', last_name: 'Co', phone: '1-813-555-0170' });
    expect(
      (
        await agent.post('/v1/sms/send_message', {
          contact_id: other.id,
          message_to: '18135550170',
          message_content: 'x',
        })
      ).status,
    ).toBe(404);
    expect((await q('select count(*)::int as n from sms_messages'))[0].n).toBe(count);
    expect(await balance(agent)).toBe(before);
  });

  it('refuses a send the wallet cannot pay, before it leaves', async () => {
    const c = await newContact(agent, { first_name: 'Poor', last_name: 'Wallet', phone: '1-813-555-0171' });
    const bal = await balance(agent);
    // 10 segments at 3 cents each = 30 cents: spend all but 20.
    await q(`update usage_plans set unit_price = $1 where company_id = $2 and product = 'sms'`, [bal, companyId]);
    await q(`update plan_subscriptions set unit_price = $1 where company_id = $2 and product = 'sms'`, [
      bal + 1,
      companyId,
    ]);
    const res = await agent.post('/v1/sms/send_message', {
      contact_id: c.id,
      message_to: '18135550171',
      message_content: 'Hello',
    });
    expect(res.status).toBe(402);
    expect(res.body.errors.wallet[0]).toMatch(/does not cover/);
    expect(await q('select 1 from sms_messages where contact_id = $1', [c.id])).toHaveLength(0);
    await q(`update usage_plans set unit_price = 3 where company_id = $1 and product = 'sms'`, [companyId]);
    await q(`update plan_subscriptions set unit_price = 3 where company_id = $1 and product = 'sms'`, [companyId]);
  });
});

describe('replies', () => {
  it('stores a reply once, counts it unread, and publishes it on the SMS channel', async () => {
    const c = await newContact(agent, { first_name: 'Rita', last_name: 'Reply', phone: '1-813-555-0180' });
    const heard: any[] = [];
    const off = await t.deps.bus.subscribe(smsStream(agentId), (m) => heard.push(m));
    await carrier().reply('+18135550180', `+${ourNumber}`, 'Yes, Tuesday works');
    const live = await until(async () => heard.find((m) => m.type === 'sms_inbound'), 'the live message');
    expect(live).toMatchObject({
      phone_number: '1-813-555-0180',
      contact_id: c.id,
      message: { body: 'Yes, Tuesday works' },
    });
    expect(SMS_CHANNEL).toBe('SmsChannel');
    await off();
    const [m] = await q<{ sid: string }>(`select sid from sms_messages where contact_id = $1`, [c.id]);
    const params = {
      MessageSid: m.sid,
      AccountSid: 'AC',
      From: '+18135550180',
      To: `+${ourNumber}`,
      Body: 'Yes, Tuesday works',
      SmsStatus: 'received',
      NumMedia: '0',
    };
    for (let i = 0; i < 3; i++) expect((await twilioPost('sms-inbound', params)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(await q('select 1 from sms_messages where contact_id = $1', [c.id])).toHaveLength(1);
    const list = await agent.post('/v1/sms/fetch_conversations', { unread: true });
    expect(list.body.data[0]).toMatchObject({
      contact: { id: c.id },
      unread_count: 1,
      last_message: { direction: 'inbound' },
    });
    // A small inbox is counted exactly; a count that stops at its cap says total_at_least.
    expect(list.body.meta.total_count).toBe(list.body.data.length);
    expect(list.body.meta).not.toHaveProperty('total_at_least');
    const [{ n }] = await q<{ n: number }>('select count(*)::int as n from sms_conversations');
    expect(n).toBeGreaterThan(1);
    const rows = sql`select 1 from sms_conversations`;
    expect(await countUpTo(t.database.db, rows, n)).toEqual({ count: n, atLeast: false });
    expect(await countUpTo(t.database.db, rows, n - 1)).toEqual({ count: n - 1, atLeast: true });
    expect(cappedPageMeta(1, 1, { count: n - 1, atLeast: true })).toMatchObject({ total_at_least: true });
    expect((await agent.post('/v1/sms/fetch_conversations', { q: 'Rita' })).body.data).toHaveLength(1);
    expect((await agent.post('/v1/sms/fetch_conversations', { q: '0180' })).body.data).toHaveLength(1);
    const read = await agent.post('/v1/sms/read_conversation', { contact_id: c.id });
    expect(read.body.unread_count).toBe(0);
    const show = await agent.get(`/v1/sms/show_conversation?contact_id=${c.id}`);
    expect(show.body).toMatchObject({
      can_text: true,
      messages: [{ body: 'Yes, Tuesday works', direction: 'inbound' }],
    });
    expect((await agent.post('/v1/sms/fetch_messages', { contact_id: c.id, limit: 0 })).status).toBe(422);
    const manager = await signIn(t.app, RECRUIT('agent'));
    expect((await manager.get(`/v1/sms/show_conversation?contact_id=${c.id}`)).status).toBe(403);
  });

  it('records "Por favor no me escriban más" as an opt-out at once, confirms once, and refuses the next text; START resubscribes', async () => {
    const c = await newContact(agent, { first_name: 'Elena', last_name: 'Baja', phone: '1-813-555-0190' });
    await carrier().reply('+18135550190', `+${ourNumber}`, 'Por favor no me escriban más');
    await until(
      async () =>
        (
          await q(`select 1 from contact_consents where contact_id = $1 and channel = 'sms' and status = 'opted_out'`, [
            c.id,
          ])
        ).length,
      'the opt-out',
    );
    await until(
      async () =>
        carrier()
          .phone('+18135550190')
          .some((e) => e.body === STOP_CONFIRMATION),
      'the confirmation',
    );
    await carrier().reply('+18135550190', `+${ourNumber}`, 'STOP');
    await new Promise((r) => setTimeout(r, 400));
    expect(
      carrier()
        .phone('+18135550190')
        .filter((e) => e.body === STOP_CONFIRMATION),
    ).toHaveLength(1);
    const refused = await agent.post('/v1/sms/send_message', {
      contact_id: c.id,
      message_to: '18135550190',
      message_content: 'Hola',
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.message_to[0]).toMatch(/opted out/);
    const show = await agent.get(`/v1/sms/show_conversation?contact_id=${c.id}`);
    expect(show.body).toMatchObject({ can_text: false, conversation: { opted_out: true } });
    await carrier().reply('+18135550190', `+${ourNumber}`, 'START');
    await until(
      async () =>
        (
          await q(`select 1 from contact_consents where contact_id = $1 and channel = 'sms' and status = 'allowed'`, [
            c.id,
          ])
        ).length,
      'the opt-in',
    );
  });

  it('flags an ambiguous reply for the agent, who settles it', async () => {
    const c = await newContact(agent, { first_name: 'Amy', last_name: 'Biguous', phone: '1-813-555-0191' });
    await carrier().reply('+18135550191', `+${ourNumber}`, 'Can you stop by tomorrow?');
    const conv = await until(
      async () => (await agent.post('/v1/sms/fetch_conversations', { q: 'Biguous' })).body.data[0],
      'the conversation',
    );
    expect(conv).toMatchObject({ flagged: true, opted_out: false });
    expect((await agent.post('/v1/sms/update_permission', { contact_id: c.id, status: 'maybe' })).status).toBe(422);
    const settled = await agent.post('/v1/sms/update_permission', {
      contact_id: c.id,
      status: 'allowed',
      clear_flag: true,
    });
    expect(settled.status).toBe(200);
    expect(settled.body).toMatchObject({ flagged: false, opted_out: false });
  });
});

describe('mobile validation', () => {
  it('looks numbers up once (paid), lists them, quotes and validates a selection', async () => {
    const single = await agent.post('/v1/sms/mobile_validation_single', { phone: '1-727-555-9123' });
    expect(single.body).toMatchObject({ phone: '17275559123', line_type: 'landline' });
    expect((await agent.post('/v1/sms/mobile_validation_single', { phone: '12' })).status).toBe(422);
    const a = await newContact(agent, { first_name: 'V', last_name: 'One', phone: '1-727-555-0101' });
    const b = await newContact(agent, { first_name: 'V', last_name: 'Two', phone: '1-727-555-9102' });
    const quote = await agent.post('/v1/sms/mobile_validation_purchase', { contact_ids: [a.id, b.id] });
    expect(quote.body).toMatchObject({ numbers: 2, cost: 2, affordable: true });
    const bulk = await agent.post('/v1/sms/mobile_validation_bulk', { contact_ids: [a.id, b.id] });
    expect(bulk.body).toMatchObject({ looked_up: 2, counts: { mobile: 1, landline: 1 } });
    expect((await agent.post('/v1/sms/mobile_validation_purchase', { contact_ids: [a.id, b.id] })).body.numbers).toBe(
      0,
    );
    const list = await agent.get('/v1/sms/phone_verifications?q=727&limit=10');
    expect(list.body.meta.total_count).toBe(3);
    expect((await agent.get('/v1/sms/phone_verifications?order_field=nope')).status).toBe(422);
  });
});
