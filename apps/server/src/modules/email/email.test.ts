/**
 * Email end to end against the local SMTP stand-in: templates (sanitised, merge fields checked), a broadcast to a
 * selection with one opted-out recipient (nothing reaches them), RFC 8058 headers and one-click unsubscribe, bounce
 * and complaint suppression from the stand-in's signed events (real verification and dedup), one email to a contact
 * with its history and log, and the bad inputs of issue 11.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp, until as waitUntil } from '../../../test/harness.js';
import type { LocalInbox } from '../../integrations/mail/local-inbox.js';
import { newContact } from '../contacts/test-helpers.js';
import { handleEmailEvent } from './events.js';

let t: TestApp;
let admin: Client;
let agent: Client;
let templateId: number;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

/** The harness's wait, with the 30 s this file's durable sends may need on a loaded runner. */
const until = <T>(probe: () => Promise<T | null | undefined | false>, what: string, ms = 30_000) =>
  waitUntil(probe, what, ms);
const mailsTo = (to: string) => q('select * from dev_mails where "to" = $1 order by id', [to]);
const statusOf = async (id: number) => (await q('select status from email_messages where id = $1', [id]))[0]?.status;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent] = await Promise.all([signIn(t.app, DEMO('admin')), signIn(t.app, DEMO('agent'))]);
  const res = await admin.post('/v1/admin/emails', {
    name: 'AEP reminder',
    subject: 'AEP opens soon, {{first_name}}',
    body_html: '<p>Hi {{first_name}},</p><p>AEP opens October 15. Call me: {{agent_phone}}.</p><p>{{agent_name}}</p>',
    category: 'medicare',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  templateId = res.body.id;
});
afterAll(() => t.close());

describe('templates', () => {
  it('refuses a script, an unknown or unclosed merge field, and sanitises what it keeps', async () => {
    const post = (b: Record<string, unknown>) => admin.post('/v1/admin/emails', { name: 'x', subject: 'Hello', ...b });
    const script = await post({ body_html: '<p>Hi</p><script>alert(1)</script>' });
    expect(script.status).toBe(422);
    expect(script.body.errors.body_html[0]).toMatch(/script/);
    expect((await post({ body_html: '<p onclick="x()">Hi</p>' })).status).toBe(422);
    expect((await post({ body_html: '<a href="javascript:alert(1)">x</a>' })).status).toBe(422);
    const unknown = await post({ body_html: '<p>Hi {{frist_name}}</p>' });
    expect(unknown.body.errors.body_html[0]).toMatch(/\{\{frist_name\}\} is not a merge field/);
    expect((await post({ subject: 'Hi {{first_name', body_html: '<p>x</p>' })).body.errors.subject[0]).toMatch(
      /not closed/,
    );
    const ok = await post({
      body_html: '<p style="position:fixed">Hi <img src="http://x/y.png"> <b>{{first_name}}</b></p>',
    });
    expect(ok.status).toBe(201);
    expect(ok.body.body_html).toBe('<p>Hi <img /> <b>{{first_name}}</b></p>');
  });

  it('bulk updates with old and new values, hides inactive templates from agents, and previews with a contact', async () => {
    const extra = (await admin.post('/v1/admin/emails', { name: 'Old', subject: 's', body_html: '<p>x</p>' })).body.id;
    const bulk = await admin.post('/v1/admin/emails/bulk_update', { ids: [extra, templateId], active: false });
    expect(bulk.body.changes).toEqual([
      { id: templateId, from: { active: true }, to: { active: false } },
      { id: extra, from: { active: true }, to: { active: false } },
    ]);
    expect((await agent.get('/v1/contacts/emails')).body.data.map((e: any) => e.id)).not.toContain(templateId);
    await admin.post('/v1/admin/emails/bulk_update', { ids: [templateId], active: true });
    expect((await agent.get('/v1/contacts/emails')).body.data.map((e: any) => e.id)).toContain(templateId);
    expect((await admin.post('/v1/admin/emails/bulk_update', { ids: [999999], active: true })).status).toBe(404);
    const c = await newContact(agent, { first_name: 'Rosa', last_name: 'Diaz', email: 'rosa@example.com' });
    const tpl = (await admin.get(`/v1/admin/emails/${templateId}`)).body;
    const pv = await agent.post('/v1/contacts/email_preview', {
      subject: tpl.subject,
      body_html: tpl.body_html,
      contact_id: c.id,
    });
    expect(pv.body.subject).toBe('AEP opens soon, Rosa');
    expect(pv.body.html).toContain('Angela Diaz');
    expect((await agent.post('/v1/admin/emails', { name: 'x', subject: 'y', body_html: '<p>z</p>' })).status).toBe(403);
  });
});

describe('a broadcast to a selection', () => {
  it('reaches each allowed recipient once, nobody opted out, with unsubscribe headers; bounces and complaints suppress', {
    timeout: 180_000,
  }, async () => {
    const ok = await newContact(agent, { first_name: 'Olga', last_name: 'Ok', email: 'olga@example.com' });
    const out = await newContact(agent, { first_name: 'Otto', last_name: 'Out', email: 'otto@example.com' });
    const bounce = await newContact(agent, { first_name: 'Bo', last_name: 'Bounce', email: 'bounce-bo@example.com' });
    const spam = await newContact(agent, {
      first_name: 'Cy',
      last_name: 'Complaint',
      email: 'complaint-cy@example.com',
    });
    await agent.post(`/v1/contacts/${out.number}/consent`, { channels: ['email'], status: 'opted_out' });
    const ids = [ok.id, out.id, bounce.id, spam.id];
    const preview = await agent.post('/v1/broadcasts/preview', { channel: 'email', ids });
    expect(preview.body).toMatchObject({ total: 4, receive: 3, removed: [{ reason: 'opted_out', count: 1 }] });
    const res = await agent.post('/v1/contacts/send_broadcast_email', { email_id: templateId, ids });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const again = await agent.post('/v1/contacts/send_broadcast_email', { email_id: templateId, ids });
    expect(again.status).toBe(409);
    await t.deps.jobs.drain(60_000);
    const b = (await agent.get(`/v1/broadcasts/${res.body.id}`)).body;
    expect(b).toMatchObject({ status: 'completed', sent: 3, removed: 1 });
    expect(await mailsTo('otto@example.com')).toEqual([]);
    const [mail] = await mailsTo('olga@example.com');
    expect(await mailsTo('olga@example.com')).toHaveLength(1);
    expect(mail.subject).toBe('AEP opens soon, Olga');
    expect(mail.headers['list-unsubscribe']).toMatch(/^<http:\/\/localhost:3000\/v1\/unsubscribe\/[\w.-]+>$/);
    expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.return_path).toMatch(/^bounces\+m\d+@harbor\.test$/);
    expect(mail.html).toContain('/unsubscribe/');
    expect(mail.text).toContain('AEP');
    // Our message id, the one the VERP return path and the provider's events name.
    expect(mail.headers['message-id']).toBe(`<harbor-${/^bounces\+m(\d+)@/.exec(mail.return_path)![1]}@harbor.test>`);
    // The stand-in's signed events: delivered; the bounce found by its VERP return path; the complaint an opt-out.
    const [olgaMsg] = await q('select id from email_messages where contact_id = $1', [ok.id]);
    await until(async () => (await statusOf(olgaMsg.id)) === 'delivered', 'delivered');
    const [bounceMsg] = await q('select id from email_messages where contact_id = $1', [bounce.id]);
    await until(async () => (await statusOf(bounceMsg.id)) === 'bounced', 'bounced');
    const [spamMsg] = await q('select id from email_messages where contact_id = $1', [spam.id]);
    await until(async () => (await statusOf(spamMsg.id)) === 'complained', 'complained');
    const v = await agent.post('/v1/broadcasts/preview', { channel: 'email', ids: [bounce.id, spam.id] });
    expect(v.body.removed.map((r: any) => r.reason).sort()).toEqual(['bounced', 'opted_out']);
    const rec = (await agent.get(`/v1/contacts/${spam.number}/consent`)).body;
    expect(rec.channels[0]).toMatchObject({ status: 'opted_out', source: 'complaint' });
  });

  it('takes duplicated and out-of-order provider events once, and never moves a status backwards', async () => {
    const c = await newContact(agent, { first_name: 'Eve', last_name: 'Events', email: 'eve@example.com' });
    const res = await agent.post(`/v1/contacts/${c.number}/send_email`, { subject: 'Hello', email_body: '<p>Hi</p>' });
    const id = res.body.id;
    await until(async () => (await statusOf(id)) === 'delivered', 'delivered');
    const inbox = t.deps.mail as LocalInbox;
    const ev = (event: string, n: string, extra = {}) => ({
      email: 'eve@example.com',
      event,
      timestamp: Math.floor(Date.now() / 1000),
      sg_event_id: `test-${id}-${n}`,
      harbor_message_id: String(id),
      company_id: String((res.body as any).company_id ?? ''),
      ...extra,
    });
    const batch = [
      ev('open', 'o1'),
      ev('open', 'o2'),
      ev('processed', 'p1'),
      ev('click', 'c1', { url: 'https://example.com' }),
      ev('delivered', 'd2'),
    ];
    for (let i = 0; i < 3; i++) {
      const { body, headers } = inbox.sign([...batch].reverse());
      const r = await t.app.inject({ method: 'POST', url: '/v1/webhooks/sendgrid', payload: body, headers });
      expect(r.statusCode).toBe(200);
    }
    const forged = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/sendgrid',
      payload: JSON.stringify([ev('spamreport', 'x')]),
      headers: {
        'content-type': 'application/json',
        'x-twilio-email-event-webhook-signature': 'MEUCIQ==',
        'x-twilio-email-event-webhook-timestamp': '1',
      },
    });
    expect(forged.statusCode).toBe(401);
    await t.deps.jobs.drain(60_000);
    expect(await statusOf(id)).toBe('clicked');
    const log = await q('select event, count from email_events where message_id = $1 order by event', [id]);
    expect(log).toEqual([
      { event: 'click', count: 1 },
      { event: 'delivered', count: 2 },
      { event: 'open', count: 2 },
      { event: 'processed', count: 1 },
    ]);
    // The batch handler took them above; the one-event handler (the ingress's fallback when a batch fails) agrees.
    const [stored] = await q('select * from webhook_events where event_id = $1', [`test-${id}-o1`]);
    await t.database.db.transaction((tx) =>
      handleEmailEvent(
        {
          ...stored,
          companyId: null,
          receivedAt: new Date(),
          payload: { ...ev('open', 'o3'), company_id: '' },
        } as never,
        tx,
      ),
    );
    expect(await q(`select count from email_events where message_id = $1 and event = 'open'`, [id])).toEqual([
      { count: 3 },
    ]);
    expect(await statusOf(id)).toBe('clicked');
  });
});

describe('unsubscribe', () => {
  it('works by one click without a session, idempotently, and lets the person choose this agent only', async () => {
    const c = await newContact(agent, { first_name: 'Una', last_name: 'Sub', email: 'una@example.com' });
    await agent.post(`/v1/contacts/${c.number}/send_email`, {
      subject: 'Plan review',
      email_body: '<p>Shall we talk?</p>',
    });
    const [mail] = await until(async () => {
      const m = await mailsTo('una@example.com');
      return m.length ? m : null;
    }, 'mail');
    const url = /<([^>]+)>/.exec(mail.headers['list-unsubscribe'])![1].replace('http://localhost:3000', '');
    const token = url.split('/').pop()!;
    const page = await t.app.inject({ method: 'GET', url: `/v1/unsubscribe/${token}` });
    expect(page.json()).toMatchObject({ agent_name: 'Angela Diaz', email: 'u••@example.com', opted_out_all: false });
    const agentOnly = await t.app.inject({ method: 'POST', url, payload: { scope: 'agent' } });
    expect(agentOnly.json()).toEqual({ unsubscribed: true, scope: 'agent' });
    for (let i = 0; i < 2; i++) {
      const oneClick = await t.app.inject({
        method: 'POST',
        url,
        payload: 'List-Unsubscribe=One-Click',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(oneClick.statusCode).toBe(200);
    }
    const rec = (await agent.get(`/v1/contacts/${c.number}/consent`)).body;
    expect(rec.channels[0]).toMatchObject({
      status: 'opted_out',
      source: 'unsubscribe',
      senders_opted_out: [{ name: 'Angela Diaz' }],
    });
    expect(rec.history.filter((e: any) => e.channel === 'email')).toHaveLength(2);
    expect((await t.app.inject({ method: 'POST', url: '/v1/unsubscribe/abc.defghijklmnop' })).statusCode).toBe(404);
    const res = await agent.post(`/v1/contacts/${c.number}/send_email`, { subject: 'Again', email_body: '<p>x</p>' });
    expect(res.status).toBe(422);
    expect(res.body.errors.email[0]).toMatch(/opted out/);
  });
});

describe('one email to a contact', () => {
  it('sends it, shows it in the history, and the log (5 by default, more on demand) tells what happened', async () => {
    const c = await newContact(agent, { first_name: 'Lou', last_name: 'Log', email: 'lou@example.com' });
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await agent.post(`/v1/contacts/${c.number}/send_email`, {
        subject: `Note ${i}`,
        email_body: `<p>Body ${i}</p>`,
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      ids.push(r.body.id);
    }
    const dup = await agent.post(`/v1/contacts/${c.number}/send_email`, {
      subject: 'Note 2',
      email_body: '<p>Body 2</p>',
    });
    expect(dup.status).toBe(409);
    for (const id of ids) await until(async () => (await statusOf(id)) === 'delivered', 'delivered');
    expect(await mailsTo('lou@example.com')).toHaveLength(3);
    const history = await agent.post(`/v1/contacts/${c.number}/email_history`, {});
    expect(history.body.data.map((m: any) => m.subject)).toEqual(['Note 2', 'Note 1', 'Note 0']);
    expect(history.body.data[0]).toMatchObject({
      status: 'delivered',
      from: { name: 'Angela Diaz' },
      consent_basis: 'unknown',
    });
    const log = await agent.get(`/v1/contacts/${c.number}/email_logs`);
    expect(log.body.data).toHaveLength(3);
    expect(log.body.data[0]).toMatchObject({ event: 'delivered', label: 'Delivered', subject: 'Note 2' });
    const two = await agent.get(`/v1/contacts/${c.number}/email_logs?limit=2`);
    expect(two.body.has_more).toBe(true);
    const more = await agent.get(`/v1/contacts/${c.number}/email_logs?limit=2&before=${two.body.data[1].id}`);
    expect(more.body.data).toHaveLength(1);
  });

  it('refuses bad input clearly and sends nothing: script, no email, another company, a past send_at, the log flag off', async () => {
    const c = await newContact(agent, { first_name: 'Bad', last_name: 'Input', email: 'bad-input@example.com' });
    const noEmail = await newContact(agent, { first_name: 'No', last_name: 'Email' });
    expect(
      (await agent.post(`/v1/contacts/${c.number}/send_email`, { subject: 'x', email_body: '<script>1</script>' }))
        .status,
    ).toBe(422);
    const none = await agent.post(`/v1/contacts/${noEmail.number}/send_email`, {
      subject: 'x',
      email_body: '<p>x</p>',
    });
    expect(none.body.errors.email[0]).toMatch(/no email address/);
    const past = await agent.post('/v1/contacts/send_broadcast_email', {
      email_id: templateId,
      ids: [c.id],
      send_now: false,
      send_at: new Date(Date.now() - 3_600_000).toISOString(),
    });
    expect(past.status).toBe(422);
    expect(past.body.errors.send_at[0]).toMatch(/past/);
    expect((await agent.post('/v1/contacts/send_broadcast_email', { ids: [c.id] })).status).toBe(422);
    expect((await agent.post('/v1/contacts/send_broadcast_email', { email_id: 999999, ids: [c.id] })).status).toBe(404);
    const [{ id: otherUser }] = await q("select id from users where email = 'agent@recruit.harbor.test'");
    const foreign = await admin.post('/v1/contacts/send_broadcast_email', {
      email_id: templateId,
      all: true,
      contacts_scope: { downline_user_id: otherUser },
    });
    expect(foreign.status).toBe(404);
    await t.deps.jobs.drain(30_000);
    expect(await mailsTo('bad-input@example.com')).toEqual([]);
    const [{ company_id }] = await q("select company_id from users where email = 'agent@demo.harbor.test'");
    await q(`update companies set features = features || '{"email_log": false}' where id = $1`, [company_id]);
    try {
      expect((await agent.get(`/v1/contacts/${c.number}/email_logs`)).status).toBe(403);
    } finally {
      await q(`update companies set features = features - 'email_log' where id = $1`, [company_id]);
    }
  });

  it('sends a test to the sender with a contact’s data', async () => {
    const c = await newContact(agent, { first_name: 'Tess', last_name: 'Test', email: 'tess@example.com' });
    const res = await agent.post('/v1/contacts/send_test_email', { email_id: templateId, ids: [c.id] });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body).toEqual({ sent_to: 'agent@demo.harbor.test', subject: '[Test] AEP opens soon, Tess' });
    await until(
      async () => (await mailsTo('agent@demo.harbor.test')).some((m) => m.subject.startsWith('[Test]')),
      'test mail',
    );
    expect(await mailsTo('tess@example.com')).toEqual([]);
  });
});
