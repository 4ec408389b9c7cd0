/**
 * Campaign triggers: the admin's CRUD with every field of spec document 2 §3 (JSON and multipart with a file), the
 * rules across fields, the agent's lists, and the automatic daily run (a birthday, once a day whatever happens).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { broadcastChannels } from '../broadcasts/channels.js';
import { newContact } from '../contacts/test-helpers.js';
import { easternDay, runTriggersFor } from './auto.js';

let t: TestApp;
let admin: Client;
let agent: Client;
let emailId: number;
let companyId: number;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
/** A 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent] = await Promise.all([signIn(t.app, DEMO('admin')), signIn(t.app, DEMO('agent'))]);
  [{ company_id: companyId }] = await q<{ company_id: number }>(
    "select company_id from users where email = 'admin@demo.harbor.test'",
  );
  [{ id: emailId }] = await q<{ id: number }>(
    `insert into email_templates (company_id, name, subject, body_html) values ($1, 'Birthday', 'Happy birthday, {{first_name}}!', '<p>Hi</p>') returning id`,
    [companyId],
  );
  emailId = Number(emailId);
});
afterAll(() => t.close());

function multipart(fields: Record<string, string>, file?: { name: string; type: string; data: Buffer }) {
  const boundary = '----harbor-test';
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields)) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  if (file) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.data,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const birthday = {
  name: 'Birthday wishes',
  description: 'A note on every client’s birthday',
  tags: ['birthday', 'retention'],
  trigger_type: 'email',
  category: 'birthday',
  trigger: 'birthday',
  enabled: true,
  compliant: true,
  global: true,
  auto_trigger: true,
  show_on_bulk: true,
  show_on_conversation: false,
  show_on_event: true,
  recurrence: 'yearly',
};

describe('admin CRUD', () => {
  it('creates a trigger with every field from JSON, lists, shows, updates and deletes it', async () => {
    const res = await admin.post('/v1/admin/campaign_triggers', { ...birthday, all_email_ids: [emailId] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      ...birthday,
      all_email_ids: [emailId],
      emails: [{ id: emailId, name: 'Birthday', subject: 'Happy birthday, {{first_name}}!' }],
      corporation_ids: [],
      all_sms_trigger_ids: [],
      file: null,
      created_by: { name: 'Alicia Grant' },
    });
    const id = res.body.id;
    const list = await admin.get('/v1/admin/campaign_triggers?q=Birthday');
    expect(list.body.data.map((x: any) => x.id)).toContain(id);
    const patched = await admin.patch(`/v1/admin/campaign_triggers/${id}`, { compliant: false, tags: ['b'] });
    expect(patched.body).toMatchObject({ compliant: false, tags: ['b'], name: 'Birthday wishes' });
    expect((await admin.delete(`/v1/admin/campaign_triggers/${id}`)).status).toBe(204);
    expect((await admin.get(`/v1/admin/campaign_triggers/${id}`)).status).toBe(404);
  });

  it('takes multipart with a file of an allowed type, refuses another type, and drops the file on request', async () => {
    const sms = await admin.post('/v1/admin/campaign_triggers', {
      name: 'Text follow-up',
      trigger_type: 'sms',
      body: 'Hi {{first_name}}, happy birthday from {{agent_name}}!',
      compliant: true,
    });
    expect(sms.status, JSON.stringify(sms.body)).toBe(201);
    const form = multipart(
      {
        name: 'AEP flyer',
        trigger_type: 'email',
        all_email_ids: String(emailId),
        all_sms_trigger_ids: JSON.stringify([sms.body.id]),
        tags: 'aep, flyer',
        compliant: 'true',
        show_on_bulk: 'true',
      },
      { name: 'flyer.png', type: 'image/png', data: PNG },
    );
    const res = await admin.request('POST', '/v1/admin/campaign_triggers', form.body, form.headers);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({
      tags: ['aep', 'flyer'],
      compliant: true,
      sms_triggers: [{ id: sms.body.id, name: 'Text follow-up' }],
      file: { name: 'flyer.png', content_type: 'image/png', size: PNG.length },
    });
    const dl = await agent.get(res.body.file.url);
    expect(dl.status).toBe(200);
    const exe = multipart(
      { name: 'Bad', trigger_type: 'email', all_email_ids: String(emailId) },
      {
        name: 'flyer.png',
        type: 'image/png',
        data: Buffer.from('MZ\x90\x00 not an image'),
      },
    );
    const bad = await admin.request('POST', '/v1/admin/campaign_triggers', exe.body, exe.headers);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.file).toBeDefined();
    const txt = multipart(
      { name: 'Txt', trigger_type: 'email', all_email_ids: String(emailId) },
      {
        name: 'notes.txt',
        type: 'text/plain',
        data: Buffer.from('hello'),
      },
    );
    const wrongType = await admin.request('POST', '/v1/admin/campaign_triggers', txt.body, txt.headers);
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors.file[0]).toMatch(/pdf, png, jpg, gif/);
    const dropped = await admin.patch(`/v1/admin/campaign_triggers/${res.body.id}`, { remove_file: true });
    expect(dropped.body.file).toBeNull();
  });

  it('refuses fields that do not hold together, and ids of records that are not the company’s', async () => {
    const post = (b: Record<string, unknown>) => admin.post('/v1/admin/campaign_triggers', b);
    const errs = async (b: Record<string, unknown>) => {
      const r = await post(b);
      expect(r.status).toBe(422);
      return r.body.errors;
    };
    expect(await errs({ name: 'x', trigger_type: 'email' })).toHaveProperty('all_email_ids');
    expect(await errs({ name: 'x', trigger_type: 'sms' })).toHaveProperty('body');
    expect(
      await errs({ name: 'x', trigger_type: 'email', all_email_ids: [emailId], auto_trigger: true }),
    ).toHaveProperty('trigger');
    expect(
      await errs({ name: 'x', trigger_type: 'email', all_email_ids: [emailId], recurrence: 'yearly' }),
    ).toHaveProperty('recurrence');
    expect(await errs({ name: 'x', trigger_type: 'email', all_email_ids: [999999] })).toHaveProperty('all_email_ids');
    expect(await errs({ name: 'x', trigger_type: 'email', all_email_ids: [emailId], global: false })).toHaveProperty(
      'corporation_ids',
    );
    expect(await errs({ name: '', trigger_type: 'email' })).toHaveProperty('name');
    expect(await errs({ name: 'x', trigger_type: 'fax' })).toHaveProperty('trigger_type');
    expect(
      (await agent.post('/v1/admin/campaign_triggers', { name: 'x', trigger_type: 'sms', body: 'hi' })).status,
    ).toBe(403);
  });
});

describe('what agents see', () => {
  it('lists only enabled, compliant, global triggers of the type, where they are shown', async () => {
    const mk = async (name: string, over: Record<string, unknown>) =>
      (
        await admin.post('/v1/admin/campaign_triggers', {
          name,
          trigger_type: 'email',
          all_email_ids: [emailId],
          compliant: true,
          ...over,
        })
      ).body.id;
    const ok = await mk('Usable bulk', { show_on_bulk: true });
    const eventOnly = await mk('Event only', { show_on_bulk: false, show_on_event: true });
    const draft = await mk('Not reviewed', { compliant: false });
    const off = await mk('Disabled', { enabled: false });
    const all = (await agent.get('/v1/contacts/email_campaign_triggers')).body.data.map((x: any) => x.id);
    expect(all).toEqual(expect.arrayContaining([ok, eventOnly]));
    expect(all).not.toContain(draft);
    expect(all).not.toContain(off);
    const bulk = (await agent.get('/v1/contacts/email_campaign_triggers?show_on=bulk')).body.data.map((x: any) => x.id);
    expect(bulk).toContain(ok);
    expect(bulk).not.toContain(eventOnly);
    const sms = (await agent.get('/v1/contacts/sms_campaign_triggers')).body.data;
    expect(sms.every((x: any) => !all.includes(x.id))).toBe(true);
  });
});

describe('automatic runs', () => {
  it('starts one broadcast per trigger and day for the contacts whose birthday it is, from each contact’s owner', async () => {
    // A recording SMS channel: the automatic run's machinery, without the email area.
    broadcastChannels(t.deps).register(
      {
        channel: 'sms',
        throttle: () => ({ key: 'test', rule: { perSecond: 1000 } }),
        contentFor: async (_c, trigger) => ({ content: { text: trigger.body }, title: trigger.name }),
        send: async ({ recipients }) => recipients.map((r) => ({ contactId: r.contactId, outcome: 'sent' as const })),
      },
      { replace: true },
    );
    const day = easternDay(new Date());
    const [, m, d] = day.split('-');
    const born = await newContact(agent, {
      first_name: 'Bea',
      last_name: 'Born',
      date_of_birth: `1958-${m}-${d}`,
      phone: '813-555-4001',
    });
    const notToday = await newContact(agent, {
      first_name: 'Not',
      last_name: 'Today',
      date_of_birth: '1958-01-01' === `1958-${m}-${d}` ? '1958-01-02' : '1958-01-01',
    });
    const trig = await admin.post('/v1/admin/campaign_triggers', {
      name: 'Birthday text',
      trigger_type: 'sms',
      body: 'Happy birthday {{first_name}}!',
      trigger: 'birthday',
      auto_trigger: true,
      recurrence: 'yearly',
      compliant: true,
    });
    expect(trig.status, JSON.stringify(trig.body)).toBe(201);
    expect(await runTriggersFor(t.deps, day)).toBeGreaterThanOrEqual(1);
    expect(await runTriggersFor(t.deps, day)).toBe(0);
    const rows = await q(
      'select b.id, r.contact_id, r.sender_id from broadcasts b join broadcast_recipients r on r.broadcast_id = b.id where b.trigger_id = $1',
      [trig.body.id],
    );
    // The demo book may hold other contacts born on this day: each of them, and no one else, is a recipient.
    const ids = rows.map((r) => Number(r.contact_id));
    expect(ids).toContain(born.id);
    expect(ids).not.toContain(notToday.id);
    const born_today = await q(
      `select id, owner_id from contacts where company_id = (select company_id from contacts where id = $1)
         and deleted_at is null and to_char(date_of_birth, 'MM-DD') = $2`,
      [born.id, `${m}-${d}`],
    );
    expect(ids.sort()).toEqual(born_today.map((r) => Number(r.id)).sort());
    const owners = new Map(born_today.map((r) => [Number(r.id), r.owner_id]));
    for (const r of rows) expect(r.sender_id).toBe(owners.get(Number(r.contact_id)));
    expect((await admin.get(`/v1/admin/campaign_triggers/${trig.body.id}`)).body.last_run_on).toBe(day);
  });
});
