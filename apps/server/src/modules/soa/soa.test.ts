import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp, waitForMail } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { grantPlan } from '../usage-plans/test-helpers.js';
import { balance, topUp } from '../wallet/test-helpers.js';

let t: TestApp;
let agent: Client;
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

/** A 1x1 PNG, the smallest drawn signature. */
const INK =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';
const DOMAIN = 'demo.harbor.test';

async function sendSoa(client: Client, body: Record<string, unknown> = {}) {
  const contact = await newContact(client, { first_name: 'Edna', last_name: 'Marsh', date_of_birth: '1960-07-15' });
  const res = await client.post('/v1/users/soa_requests', {
    contact_id: contact.id,
    channel: 'link',
    products_offered: ['medicare_advantage', 'part_d', 'medigap'],
    ...body,
  });
  expect(res.status).toBe(201);
  const token = String(res.body.link).split('/').pop()!;
  return { contact, soa: res.body, token };
}

const sign = (token: string, over: Record<string, unknown> = {}) =>
  new Client(t.app).post('/v1/soa_requests/submit', {
    domain_name: DOMAIN,
    token,
    products: ['medicare_advantage'],
    signature_name: 'Edna Marsh',
    signature_image: INK,
    address: '12 Bay St, Tampa FL',
    ...over,
  });

const appointment = (contactId: number, startsInHours: number, over: Record<string, unknown> = {}) => {
  const start = new Date(Date.now() + startsInHours * 3_600_000);
  return agent.post('/v1/events', {
    title: 'Medicare Advantage review',
    type: 'appointment',
    contact_id: contactId,
    products: ['medicare_advantage'],
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + 3_600_000).toISOString(),
    ...over,
  });
};

describe('sending and signing', () => {
  it('shows the public page the agent’s name and nothing else about the agency', async () => {
    const { soa, token } = await sendSoa(agent);
    expect(soa).toMatchObject({ status: 'sent', channel: 'link', user: { name: 'Angela Diaz' } });
    expect(soa.link).toMatch(new RegExp(`/soa/${DOMAIN}/[A-Za-z0-9_-]{40,}$`));
    const view = await new Client(t.app).get(`/v1/soa_requests/view?domain_name=${DOMAIN}&token=${token}`);
    expect(view.status).toBe(200);
    expect(Object.keys(view.body).sort()).toEqual(['agent_name', 'expires_at', 'products_offered', 'status']);
    expect(view.body).toMatchObject({ agent_name: 'Angela Diaz', status: 'open' });
    expect(JSON.stringify(view.body)).not.toMatch(/Harbor Demo|demo\.harbor|Edna/);
  });

  it('refuses another company’s domain, unknown and malformed links alike', async () => {
    const { token } = await sendSoa(agent);
    const anon = new Client(t.app);
    expect((await anon.get(`/v1/soa_requests/view?domain_name=recruit.harbor.test&token=${token}`)).status).toBe(404);
    const other = await anon.get(`/v1/soa_requests/view?domain_name=${DOMAIN}&token=${'x'.repeat(43)}`);
    expect(other.status).toBe(404);
    expect(other.body.errors.soa_request[0]).toMatch(/not valid/);
    expect((await anon.get(`/v1/soa_requests/view?domain_name=${DOMAIN}&token=bad!`)).status).toBe(422);
    expect((await sign(token, { domain_name: 'recruit.harbor.test' })).status).toBe(404);
  });

  it('records the signature (typed name, drawing, time, address, browser) once; bad input changes nothing', async () => {
    const { contact, soa, token } = await sendSoa(agent);
    for (const bad of [
      { signature_name: '' },
      { signature_name: ' ' },
      { products: [] },
      { products: ['cancer_heart_stroke'] },
      { signature_image: 'data:image/svg+xml;base64,PHN2Zz4=' },
      { extra: true },
    ]) {
      expect((await sign(token, bad)).status, JSON.stringify(bad)).toBe(422);
    }
    const [untouched] = await q<{ status: string }>('select status from soa_requests where id = $1', [soa.id]);
    expect(untouched.status).toBe('sent');
    const ok = await sign(token);
    expect(ok.status).toBe(200);
    expect(ok.body.status).toBe('signed');
    const again = await sign(token, { signature_name: 'Someone Else' });
    expect(again.status).toBe(409);
    const detail = await agent.get(`/v1/users/soa_requests/${soa.id}`);
    expect(detail.body).toMatchObject({
      status: 'signed',
      products: ['medicare_advantage'],
      signature_name: 'Edna Marsh',
      signature_image: INK,
      beneficiary_address: '12 Bay St, Tampa FL',
      signed_ip: '127.0.0.1',
      link: null,
    });
    expect(detail.body.signed_at).not.toBeNull();
    expect(detail.body.signed_user_agent).toBeDefined();
    const list = await agent.get('/v1/users/soa_requests?status=signed');
    expect(list.body.data.find((s: { id: number }) => s.id === soa.id).signature_image).toBeNull();
    const timeline = (await agent.get(`/v1/contacts/${contact.number}`)).body.timeline;
    expect(timeline[0]).toMatchObject({ kind: 'soa_signed', data: { signature_name: 'Edna Marsh' } });
    // Signed, the public page says so and offers nothing to sign.
    const view = await new Client(t.app).get(`/v1/soa_requests/view?domain_name=${DOMAIN}&token=${token}`);
    expect(view.body.status).toBe('signed');
  });

  it('refuses an expired link, changing nothing', async () => {
    const { soa, token } = await sendSoa(agent);
    await q(`update soa_requests set expires_at = now() - interval '1 minute' where id = $1`, [soa.id]);
    expect((await new Client(t.app).get(`/v1/soa_requests/view?domain_name=${DOMAIN}&token=${token}`)).status).toBe(
      410,
    );
    const res = await sign(token);
    expect(res.status).toBe(410);
    expect(res.body.errors.soa_request[0]).toMatch(/expired/);
    const [row] = await q<{ status: string; signed_at: Date | null }>(
      'select status, signed_at from soa_requests where id = $1',
      [soa.id],
    );
    expect(row).toEqual({ status: 'sent', signed_at: null });
    expect((await agent.get(`/v1/users/soa_requests/${soa.id}`)).body.status).toBe('expired');
  });

  it('mails the link when sent by email, and refuses email to a contact without one', async () => {
    const withMail = await newContact(agent, { first_name: 'Mail', last_name: 'Able', email: 'mail.able@example.com' });
    const res = await agent.post('/v1/users/soa_requests', { contact_id: withMail.id, channel: 'email' });
    expect(res.status).toBe(201);
    const mail = await waitForMail(t, 'mail.able@example.com', /Angela Diaz asks/);
    expect(mail.text).toContain(res.body.link);
    expect(mail.text).not.toMatch(/Harbor Demo Insurance/);
    const without = await newContact(agent, { first_name: 'No', last_name: 'Mail' });
    const refused = await agent.post('/v1/users/soa_requests', { contact_id: without.id, channel: 'email' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.channel).toBeDefined();
  });

  it('texts the link when sent by text (paid like any text); no mobile or an opt-out refuses it and records nothing', async () => {
    const [me] = await q<{ id: number; company_id: number }>('select id, company_id from users where email = $1', [
      DEMO('agent'),
    ]);
    await grantPlan(t.database.db, { companyId: me.company_id, userId: me.id, product: 'sms', allocation: 50 });
    await topUp(agent, 1_000);
    const before = await balance(agent);
    const mobile = await newContact(agent, { first_name: 'Text', last_name: 'Able', phone: '1-813-555-0177' });
    const res = await agent.post('/v1/users/soa_requests', { contact_id: mobile.id, channel: 'sms' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ channel: 'sms', sent_to: '18135550177' });
    const texts = await q<{ body: string }>('select body from sms_messages where contact_id = $1', [mobile.id]);
    expect(texts).toHaveLength(1);
    expect(texts[0].body).toContain(res.body.link);
    expect(texts[0].body).toMatch(/^Angela Diaz asks/);
    expect(await balance(agent)).toBeLessThan(before);

    const count = async (contactId: number) =>
      (await q('select 1 from soa_requests where contact_id = $1', [contactId])).length;
    const noPhone = await newContact(agent, { first_name: 'No', last_name: 'Phone' });
    const refused = await agent.post('/v1/users/soa_requests', { contact_id: noPhone.id, channel: 'sms' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.channel).toBeDefined();
    expect(await count(noPhone.id)).toBe(0);

    const optedOut = await newContact(agent, { first_name: 'Opted', last_name: 'Out', phone: '1-813-555-0178' });
    await q(
      `insert into contact_consents (contact_id, channel, sender_id, company_id, status, source)
       values ($1, 'sms', 0, $2, 'opted_out', 'agent')`,
      [optedOut.id, me.company_id],
    );
    const blocked = await agent.post('/v1/users/soa_requests', { contact_id: optedOut.id, channel: 'sms' });
    expect(blocked.status).toBe(422);
    expect(blocked.body.errors.message_to[0]).toMatch(/opted out/);
    expect(await count(optedOut.id)).toBe(0);
    expect(await q('select 1 from sms_messages where contact_id = $1', [optedOut.id])).toHaveLength(0);
  });
});

describe('the 48-hour rule on booking', () => {
  it('refuses an MA appointment within 48 hours of signing, explaining it, and allows it after', async () => {
    const { contact, soa, token } = await sendSoa(agent);
    expect((await sign(token)).status).toBe(200);
    const early = await appointment(contact.id, 2);
    expect(early.status).toBe(422);
    expect(early.body.errors.soa[0]).toMatch(/at least 48 hours after/);
    expect(early.body.errors.earliest_start_at[0]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const late = await appointment(contact.id, 49);
    expect(late.status).toBe(201);
    expect(late.body).toMatchObject({ soa_request_id: soa.id, soa_exception: null });
    // The clock moves on: once the signature is 48 hours old, an appointment two hours out is fine.
    await q(`update soa_requests set signed_at = signed_at - interval '48 hours' where id = $1`, [soa.id]);
    expect((await appointment(contact.id, 2)).status).toBe(201);
  });

  it('records the exception the agent claims; the last-four-days one only when it holds', async () => {
    const { contact, token } = await sendSoa(agent);
    expect((await sign(token)).status).toBe(200);
    const walkIn = await appointment(contact.id, 1, { soa_exception: 'walk_in' });
    expect(walkIn.status).toBe(201);
    expect(walkIn.body.soa_exception).toBe('walk_in');
    const [h] = await q<{ soa_exception: string }>('select soa_exception from calendar_events where id = $1', [
      walkIn.body.id,
    ]);
    expect(h.soa_exception).toBe('walk_in');
    // AEP's last four days (the next December 5th) hold; an ordinary day (60 days later, inside MA OEP) does not.
    const now = new Date();
    let dec5 = new Date(Date.UTC(now.getUTCFullYear(), 11, 5, 16));
    if (dec5.getTime() < now.getTime() + 3_600_000) dec5 = new Date(Date.UTC(now.getUTCFullYear() + 1, 11, 5, 16));
    const at = (d: Date) => ({ start_at: d.toISOString(), end_at: new Date(d.getTime() + 3_600_000).toISOString() });
    const claim = { soa_exception: 'enrollment_period_end' };
    const held = await appointment(contact.id, 0, { ...claim, ...at(dec5) });
    expect(held.status).toBe(201);
    expect(held.body.soa_exception).toBe('enrollment_period_end');
    const feb = new Date(dec5.getTime() + 60 * 86_400_000);
    const refused = await appointment(contact.id, 0, { ...claim, ...at(feb) });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.soa[0]).toMatch(/last four days/);
  });

  it('needs a signed SOA at all, and leaves other products alone', async () => {
    const bare = await newContact(agent, { first_name: 'No', last_name: 'Scope' });
    const refused = await appointment(bare.id, 72);
    expect(refused.status).toBe(422);
    expect(refused.body.errors.soa[0]).toMatch(/needs a signed scope of appointment/);
    expect((await appointment(bare.id, 1, { products: ['medigap'] })).status).toBe(201);
    expect((await appointment(bare.id, 1, { type: 'follow_up' })).status).toBe(201);
    const noContact = await appointment(bare.id, 72, { contact_id: null });
    expect(noContact.status).toBe(422);
    expect(noContact.body.errors.contact_id).toBeDefined();
  });
});

describe('the agent’s list', () => {
  it('completes a signed request and rejects an open one, refusing the wrong moves', async () => {
    const a = await sendSoa(agent);
    expect((await agent.patch(`/v1/users/soa_requests/${a.soa.id}/complete`)).status).toBe(409);
    await sign(a.token);
    const done = await agent.patch(`/v1/users/soa_requests/${a.soa.id}/complete`);
    expect(done.status).toBe(200);
    expect(done.body.status).toBe('completed');
    expect((await agent.patch(`/v1/users/soa_requests/${a.soa.id}/reject`, {})).status).toBe(409);
    const b = await sendSoa(agent);
    const rejected = await agent.patch(`/v1/users/soa_requests/${b.soa.id}/reject`, { reason: 'Sent by mistake' });
    expect(rejected.body).toMatchObject({ status: 'rejected', reject_reason: 'Sent by mistake', link: null });
    expect((await sign(b.token)).status).toBe(410);
  });

  it('shows a manager their downline’s requests; others get 404', async () => {
    const { soa } = await sendSoa(agent);
    const manager = await signIn(t.app, DEMO('manager'));
    expect((await manager.get(`/v1/users/soa_requests/${soa.id}`)).status).toBe(200);
    const district = await signIn(t.app, DEMO('district_manager'));
    expect((await district.get(`/v1/users/soa_requests/${soa.id}`)).status).toBe(404);
    expect((await district.patch(`/v1/users/soa_requests/${soa.id}/reject`, {})).status).toBe(404);
    const other = await signIn(t.app, RECRUIT('admin'));
    expect((await other.get(`/v1/users/soa_requests/${soa.id}`)).status).toBe(404);
    expect((await other.patch(`/v1/users/soa_requests/${soa.id}/complete`)).status).toBe(404);
    const foreignContact = (await other.get('/v1/users/soa_requests')).body.data[0];
    expect(foreignContact).toBeDefined();
    const send = await agent.post('/v1/users/soa_requests', { contact_id: foreignContact.contact.id, channel: 'link' });
    expect(send.status).toBe(422);
  });

  it('records the agent’s Medicare registration', async () => {
    const first = await agent.patch('/v1/users/medicare_registered', { medicare_registered: true, npn: '1234567' });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ medicare_registered: true, npn: '1234567' });
    const again = await agent.patch('/v1/users/medicare_registered', { medicare_registered: true, plan_year: 2027 });
    expect(again.body.registered_at).toBe(first.body.registered_at);
    expect((await agent.patch('/v1/users/medicare_registered', { medicare_registered: 'yes' })).status).toBe(422);
    expect((await agent.patch('/v1/users/medicare_registered', { medicare_registered: true, npn: 'ABC' })).status).toBe(
      422,
    );
    const off = await agent.patch('/v1/users/medicare_registered', { medicare_registered: false });
    expect(off.body).toMatchObject({ medicare_registered: false, registered_at: null });
  });
});

describe('public rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await createTestApp({ limits: { soa_public: 3 } });
  });
  afterAll(() => limited.close());

  it('limits the public SOA pages per address', async () => {
    const anon = new Client(limited.app);
    const url = `/v1/soa_requests/view?domain_name=${DOMAIN}&token=${'y'.repeat(43)}`;
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await anon.get(url)).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
    const elsewhere = new Client(limited.app);
    elsewhere.ip = '198.51.100.9';
    expect((await elsewhere.get(url)).status).toBe(404);
  });
});
