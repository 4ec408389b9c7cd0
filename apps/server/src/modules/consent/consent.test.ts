/**
 * The consent record through HTTP (read, two-click opt-out, consent with a note, permission to contact) and the
 * one function every send path asks (checkConsent), with the opt-outs of other channels recorded through
 * recordConsent as the SMS STOP handling and the dialer's do-not-call will.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact, userId } from '../contacts/test-helpers.js';
import { checkConsent, recordConsent, suppressAddresses } from './index.js';

let t: TestApp;
let agent: Client;
let manager: Client;
let companyId: number;
let agentId: number;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp();
  [agent, manager] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('manager'))]);
  agentId = await userId(t, DEMO('agent'));
  [{ company_id: companyId }] = await q<{ company_id: number }>('select company_id from users where id = $1', [
    agentId,
  ]);
});
afterAll(() => t.close());

const record = (n: number) => agent.get(`/v1/contacts/${n}/consent`);
const state = (body: any, channel: string) => body.channels.find((c: any) => c.channel === channel);
const ask = (contactIds: number[], o: Record<string, unknown> = {}) =>
  checkConsent(t.database.db, { companyId, channel: 'email', purpose: 'marketing', contactIds, ...o } as never);

describe('the consent record on a contact', () => {
  it('starts unknown on every channel and shows the addresses each channel uses', async () => {
    const c = await newContact(agent, { email: 'Ruth.Fox@Example.com', phone: '813-555-0101' });
    const res = await record(c.number);
    expect(res.status).toBe(200);
    expect(res.body.channels.map((s: any) => [s.channel, s.status, s.address])).toEqual([
      ['email', 'unknown', 'ruth.fox@example.com'],
      ['sms', 'unknown', '18135550101'],
      ['voice', 'unknown', '18135550101'],
    ]);
    expect(res.body.permission_to_contact).toBeNull();
    expect(res.body.history).toEqual([]);
  });

  it('records an opt-out from a phone call in one request, names who recorded it, and repeats harmlessly', async () => {
    const c = await newContact(agent, { phone: '813-555-0102', email: 'amos@example.com' });
    const body = { channels: ['voice', 'sms'], status: 'opted_out', source: 'call' };
    const res = await agent.post(`/v1/contacts/${c.number}/consent`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    for (const ch of ['voice', 'sms']) {
      expect(state(res.body, ch)).toMatchObject({
        status: 'opted_out',
        source: 'call',
        recorded_by: { id: agentId, name: 'Angela Diaz' },
        suppressed: { reason: 'opted_out' },
      });
    }
    expect(state(res.body, 'email').status).toBe('unknown');
    expect(res.body.history).toHaveLength(2);
    const again = await agent.post(`/v1/contacts/${c.number}/consent`, body);
    expect(again.body.history).toHaveLength(2);
    const timeline = await q("select data from contact_events where contact_id = $1 and kind = 'consent_changed'", [
      c.id,
    ]);
    expect(timeline.map((e) => e.data.to)).toEqual(['opted_out', 'opted_out']);
  });

  it('asks how a consent was given, and refuses bad input with a clear 422', async () => {
    const c = await newContact(agent, { phone: '813-555-0103' });
    const bare = await agent.post(`/v1/contacts/${c.number}/consent`, { channels: ['sms'], status: 'allowed' });
    expect(bare.status).toBe(422);
    expect(bare.body.errors.note[0]).toMatch(/how the person gave consent/);
    for (const bad of [
      { channels: [], status: 'opted_out' },
      { channels: ['fax'], status: 'opted_out' },
      { channels: ['sms'], status: 'unknown' },
      { channels: ['sms'], status: 'opted_out', extra: 1 },
    ]) {
      expect((await agent.post(`/v1/contacts/${c.number}/consent`, bad)).status).toBe(422);
    }
    const ok = await agent.post(`/v1/contacts/${c.number}/consent`, {
      channels: ['sms'],
      status: 'allowed',
      source: 'form',
      note: 'Checked "text me" on the website form',
    });
    expect(state(ok.body, 'sms')).toMatchObject({
      status: 'allowed',
      source: 'form',
      detail: expect.stringMatching(/website/),
    });
    expect((await q('select count(*)::int n from consent_events where contact_id = $1', [c.id]))[0].n).toBe(1);
  });

  it('answers 404 for a contact the caller cannot see, and lets a manager see the downline’s record', async () => {
    const mine = await newContact(manager, { first_name: 'Only', last_name: 'Manager' });
    expect((await record(mine.number)).status).toBe(404);
    expect(
      (await agent.post(`/v1/contacts/${mine.number}/consent`, { channels: ['sms'], status: 'opted_out' })).status,
    ).toBe(404);
    const agents = await newContact(agent, { first_name: 'Agent', last_name: 'Owned' });
    expect((await manager.get(`/v1/contacts/${agents.number}/consent`)).status).toBe(200);
  });
});

describe('Medicare permission to contact', () => {
  it('lasts twelve months for the products named, can be withdrawn, and refuses impossible dates', async () => {
    const c = await newContact(agent, { phone: '813-555-0104', date_of_birth: '1959-05-02' });
    const url = `/v1/contacts/${c.number}/permission_to_contact`;
    const given = new Date(Date.now() - 30 * 86_400_000);
    const res = await agent.post(url, {
      products: ['medicare_advantage', 'part_d'],
      source: 'form',
      granted_at: given.toISOString(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const ptc = res.body.permission_to_contact;
    expect(ptc).toMatchObject({ state: 'active', products: ['medicare_advantage', 'part_d'], source: 'form' });
    const expected = new Date(given);
    expected.setMonth(expected.getMonth() + 12);
    expect(Math.abs(new Date(ptc.expires_at).getTime() - expected.getTime())).toBeLessThan(2 * 86_400_000);
    expect((await agent.post(url, { products: [] })).status).toBe(422);
    expect((await agent.post(url, { products: ['cars'] })).status).toBe(422);
    const future = await agent.post(url, {
      products: ['part_d'],
      granted_at: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect(future.status).toBe(422);
    expect(future.body.errors.granted_at[0]).toMatch(/future/);
    const old = await agent.post(url, {
      products: ['part_d'],
      granted_at: new Date(Date.now() - 400 * 86_400_000).toISOString(),
    });
    expect(old.body.errors.granted_at[0]).toMatch(/already expired/);
    const revoked = await agent.delete(url);
    expect(revoked.body.permission_to_contact.state).toBe('revoked');
    expect(revoked.body.history.map((e: any) => e.to_status)).toEqual(['revoked', 'granted']);
  });

  it('is closed with the Medicare center turned off', async () => {
    const c = await newContact(agent, {});
    await q(`update companies set features = features || '{"medicare_center": false}' where id = $1`, [companyId]);
    try {
      const res = await agent.post(`/v1/contacts/${c.number}/permission_to_contact`, { products: ['part_d'] });
      expect(res.status).toBe(403);
      expect(res.body.errors.feature[0]).toMatch(/Medicare center/);
    } finally {
      await q(`update companies set features = features - 'medicare_center' where id = $1`, [companyId]);
    }
  });
});

describe('checkConsent: the question every send path asks', () => {
  it('lets email reach unknown contacts but removes opt-outs, bounces, complaints and missing or invalid addresses', async () => {
    const ok = await newContact(agent, { email: 'ok@example.com' });
    const out = await newContact(agent, { email: 'out@example.com' });
    const none = await newContact(agent, {});
    const bad = await newContact(agent, { email: 'bad@example.com' });
    const bounced = await newContact(agent, { email: 'Bounced@example.com' });
    const twin = await newContact(agent, { email: 'bounced@example.com', first_name: 'Twin' });
    const deleted = await newContact(agent, { email: 'gone@example.com' });
    await q("update contacts set email_status = 'invalid' where id = $1", [bad.id]);
    await q('update contacts set deleted_at = now() where id = $1', [deleted.id]);
    await agent.post(`/v1/contacts/${out.number}/consent`, { channels: ['email'], status: 'opted_out' });
    await suppressAddresses(t.database.db, {
      companyId,
      channel: 'email',
      addresses: ['bounced@example.com'],
      reason: 'bounced',
    });
    const v = await ask([ok.id, out.id, none.id, bad.id, bounced.id, twin.id, deleted.id, 999_999_999]);
    expect(v.map((x) => x.reason)).toEqual([
      null,
      'opted_out',
      'no_address',
      'invalid_address',
      'bounced',
      'bounced',
      'deleted',
      'deleted',
    ]);
    expect(v[0]).toMatchObject({ allowed: true, address: 'ok@example.com', status: 'unknown', basis: 'unknown' });
    // A complaint outranks the bounce it replaces; a weaker reason never replaces a stronger one.
    await suppressAddresses(t.database.db, {
      companyId,
      channel: 'email',
      addresses: ['bounced@example.com'],
      reason: 'complained',
    });
    await suppressAddresses(t.database.db, {
      companyId,
      channel: 'email',
      addresses: ['bounced@example.com'],
      reason: 'bounced',
    });
    expect((await ask([twin.id]))[0].reason).toBe('complained');
  });

  it('honours an opt-out from one agent’s emails only for that agent', async () => {
    const c = await newContact(agent, { email: 'picky@example.com' });
    await recordConsent(t.database.db, {
      companyId,
      channel: 'email',
      status: 'opted_out',
      source: 'unsubscribe',
      senderId: agentId,
      contactIds: [c.id],
    });
    const managerId = await userId(t, DEMO('manager'));
    expect((await ask([c.id], { senderId: agentId }))[0].reason).toBe('opted_out_sender');
    expect((await ask([c.id], { senderId: managerId }))[0].allowed).toBe(true);
    const rec = (await record(c.number)).body;
    expect(state(rec, 'email')).toMatchObject({
      status: 'unknown',
      senders_opted_out: [{ id: agentId, name: 'Angela Diaz' }],
    });
  });

  it('needs consent on record for marketing texts and calls, and Medicare permission naming the product', async () => {
    const c = await newContact(agent, { phone: '813-555-0105' });
    const sms = (o: Record<string, unknown>) => ask([c.id], { channel: 'sms', ...o }).then((v) => v[0]);
    expect((await sms({ purpose: 'marketing' })).reason).toBe('no_consent');
    expect((await sms({ purpose: 'conversation' })).allowed).toBe(true);
    await agent.post(`/v1/contacts/${c.number}/consent`, {
      channels: ['sms', 'voice'],
      status: 'allowed',
      note: 'Asked for texts on the phone',
    });
    expect(await sms({ purpose: 'marketing' })).toMatchObject({ allowed: true, basis: 'allowed:agent' });
    const products = ['medicare_advantage'];
    expect((await sms({ purpose: 'marketing', products })).reason).toBe('no_permission_to_contact');
    // A call by hand is not refused for want of permission; it warns (issue 14).
    const call = (p: string[]) =>
      ask([c.id], { channel: 'voice', purpose: 'conversation', products: p }).then((v) => v[0]);
    expect(await call(products)).toMatchObject({ allowed: true, warnings: ['ptc_missing'] });
    await agent.post(`/v1/contacts/${c.number}/permission_to_contact`, { products: ['part_d'] });
    expect((await call(products)).warnings).toEqual(['ptc_not_covering']);
    expect((await call(['part_d'])).warnings).toEqual([]);
    expect((await sms({ purpose: 'marketing', products: ['part_d'] })).allowed).toBe(true);
    const later = new Date(Date.now() + 400 * 86_400_000);
    expect(
      (await ask([c.id], { channel: 'voice', purpose: 'conversation', products: ['part_d'], at: later }))[0].warnings,
    ).toEqual(['ptc_expired']);
    // Email never needs the permission (42 CFR 422.2264(a)); transactional messages never warn.
    expect((await ask([c.id], { products })).length).toBe(1);
    expect((await ask([c.id], { channel: 'sms', purpose: 'transactional', products }))[0].warnings).toEqual([]);
  });
});

describe('recordConsent by address: the SMS STOP and START, the dialer’s do-not-call', () => {
  it('opts out every contact holding the number, keeps evidence for a number nobody holds, and START lifts it', async () => {
    const a = await newContact(agent, { phone: '813-555-0106', first_name: 'Ann' });
    const b = await newContact(manager, { phone: '(813) 555-0106', first_name: 'Ann B' });
    const stop = await recordConsent(t.database.db, {
      companyId,
      channel: 'sms',
      status: 'opted_out',
      source: 'reply',
      detail: 'Replied STOP',
      address: '+1 813-555-0106',
    });
    expect(stop.changed.sort()).toEqual([a.id, b.id].sort());
    expect((await ask([a.id, b.id], { channel: 'sms', purpose: 'conversation' })).map((v) => v.reason)).toEqual([
      'opted_out',
      'opted_out',
    ]);
    const unknown = await recordConsent(t.database.db, {
      companyId,
      channel: 'sms',
      status: 'opted_out',
      source: 'reply',
      detail: 'Replied STOP',
      address: '8135559999',
    });
    expect(unknown).toEqual({ changed: [], addressChanged: true });
    const [ev] = await q("select contact_id, address, to_status from consent_events where address = '18135559999'");
    expect(ev).toEqual({ contact_id: null, address: '18135559999', to_status: 'opted_out' });
    // A contact created later with that number is removed from sends too: the address is suppressed.
    const later = await newContact(agent, { phone: '813-555-9999' });
    expect((await ask([later.id], { channel: 'sms', purpose: 'conversation' }))[0].reason).toBe('opted_out');
    await recordConsent(t.database.db, {
      companyId,
      channel: 'sms',
      status: 'allowed',
      source: 'reply',
      detail: 'Replied START',
      address: '18135550106',
    });
    expect((await ask([a.id, b.id], { channel: 'sms', purpose: 'marketing' })).map((v) => v.allowed)).toEqual([
      true,
      true,
    ]);
  });
});

describe('the record travels with the contact', () => {
  it('keeps the opt-out when the opted-out duplicate is merged away, and exports each channel’s consent', async () => {
    const kept = await newContact(agent, { first_name: 'Cora', last_name: 'Lane', email: 'cora@example.com' });
    const dup = await newContact(agent, { first_name: 'Cora', last_name: 'Lane', phone: '813-555-0107' });
    await agent.post(`/v1/contacts/${dup.number}/consent`, {
      channels: ['voice'],
      status: 'opted_out',
      source: 'call',
    });
    await agent.post(`/v1/contacts/${kept.number}/consent`, {
      channels: ['voice'],
      status: 'allowed',
      note: 'said yes in 2024',
    });
    const merged = await agent.patch('/v1/contacts/merge', { kept_id: kept.id, ids: [dup.id] });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    const rec = (await record(kept.number)).body;
    expect(state(rec, 'voice').status).toBe('opted_out');
    await agent.post(`/v1/contacts/${kept.number}/permission_to_contact`, { products: ['medigap'] });
    const csv = await agent.request('PATCH', '/v1/export.csv', { ids: [kept.id] });
    expect(csv.status).toBe(200);
    const [header, row] = String(csv.body)
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const cols = header.split(',');
    const cells = row.split(',');
    const cell = (h: string) => cells[cols.indexOf(h)];
    expect(cell('Email Consent')).toBe('Unknown');
    expect(cell('Call Consent')).toBe('Opted out');
    expect(cell('Permission to Contact Until')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
