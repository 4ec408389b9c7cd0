/**
 * The dialer routes against a real database and the Twilio stand-in: the token, every gate before a dial (bad
 * numbers, an active call, an opted-out contact, an exhausted allocation, an empty wallet), permission denials,
 * and the lists. The call's life through signed callbacks is in calls.test.ts.
 */
import {
  CALL_ALREADY_ACTIVE,
  INVALID_PHONE_NUMBER,
  OVER_MINUTES_ALLOCATED,
  QUOTA_MESSAGES,
  VOICE_NOT_CONFIGURED,
} from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { recordUsage } from '../usage-plans/enforcement.js';
import { NO_MINUTE_FUNDS } from './start.js';
import { dialerTestApp, makeDialerReady, TWILIO_ENV } from './test-kit.js';

let t: TestApp;
let agent: Client;
let agentId: number;
let contact: { number: number; phone: string };
let close: () => Promise<void>;
const db = () => t.database.db;

const makeReady = (email: string) => makeDialerReady(t, email);

async function endCalls(userId: number) {
  await db().execute(sql`update calls set status = 'completed', ended_at = now() where user_id = ${userId}`);
}

beforeAll(async () => {
  const kit = await dialerTestApp();
  ({ t, agent, agentId, contact } = kit);
  close = kit.close;
});
afterAll(() => close());

describe('GET /v1/dialer/fetch_device_token', () => {
  it('gives an enabled agent a Twilio access token with a voice grant for their identity', async () => {
    const res = await agent.get('/v1/dialer/fetch_device_token');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      provider: 'twilio',
      enabled: true,
      identity: `harbor-u${agentId}`,
      message: null,
    });
    const payload = JSON.parse(Buffer.from(res.body.token.split('.')[1], 'base64url').toString());
    expect(payload.grants.identity).toBe(`harbor-u${agentId}`);
    expect(payload.grants.voice.outgoing.application_sid).toBe(TWILIO_ENV.TWILIO_TWIML_APP_SID);
    expect(payload.grants.voice.incoming.allow).toBe(true);
    expect(new Date(res.body.expires_at).getTime()).toBeGreaterThan(Date.now() + 3_000_000);
  });

  it('gives no token, and says why, while the dialer is not enabled (spec §4)', async () => {
    const c = await signIn(t.app, DEMO('manager'));
    await db()
      .update(users)
      .set({ dialerVerifiedPhoneNumber: null })
      .where(eq(users.email, DEMO('manager')));
    const res = await c.get('/v1/dialer/fetch_device_token');
    expect(res.status).toBe(200);
    expect(res.body.enabled).toBe(false);
    expect(res.body.token).toBeNull();
    expect(res.body.reasons).toContain('Verify a phone number for the dialer first.');
  });

  it('refuses without a session, and with the dialer feature off', async () => {
    const anon = await t.app.inject({ method: 'GET', url: '/v1/dialer/fetch_device_token' });
    expect(anon.statusCode).toBe(401);
    const [u] = await db()
      .select()
      .from(users)
      .where(eq(users.email, DEMO('telemarketer')));
    await db()
      .update(users)
      .set({ features: { ...(u.features as object), dialer: false } })
      .where(eq(users.id, u.id));
    const c = await signIn(t.app, DEMO('telemarketer'));
    expect((await c.get('/v1/dialer/fetch_device_token')).status).toBe(403);
    await db().update(users).set({ features: u.features }).where(eq(users.id, u.id));
  });
});

describe('POST /v1/dialer/calls (the gates before a dial)', () => {
  it("refuses a number of the wrong length or with illegal digits: 'Invlaid phone number'", async () => {
    for (const to of ['81355501', '12345678901234567', '1813555abcd', '18135+550100']) {
      const res = await agent.post('/v1/dialer/calls', { to });
      expect(res.status, to).toBe(422);
      expect(res.body.errors.to).toEqual([INVALID_PHONE_NUMBER]);
    }
    expect((await agent.post('/v1/dialer/calls', {})).status).toBe(422);
    expect((await agent.post('/v1/dialer/calls', { to: 18135550100 })).status).toBe(422);
  });

  it('accepts a dial, matches the contact, caps it to what is paid for, and refuses a second live call', async () => {
    const res = await agent.post('/v1/dialer/calls', { to: `+${contact.phone}` });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.call).toMatchObject({ call_direction: 'outbound', status: 'initiated', recording: 'recording' });
    expect(res.body.call.contact.number).toBe(contact.number);
    expect(res.body.params).toMatchObject({ To: `+${contact.phone}`, timeout: 60, callerId: '+1-813-555-0199' });
    expect(res.body.params.cid).toBe(String(res.body.call.id));
    expect(res.body.max_seconds).toBeGreaterThan(0);
    expect(res.body.max_seconds % 60).toBe(0);
    const again = await agent.post('/v1/dialer/calls', { to: '18135550111' });
    expect(again.status).toBe(409);
    expect(again.body.errors.user).toEqual([CALL_ALREADY_ACTIVE]);
    const activeList = await agent.post('/v1/dialer/fetch_active_calls', {});
    expect(activeList.body.call_list.map((c: { id: number }) => c.id)).toEqual([res.body.call.id]);
    await endCalls(agentId);
    expect((await agent.post('/v1/dialer/fetch_active_calls', {})).body.call_list).toEqual([]);
  });

  it('refuses a contact who opted out of calls', async () => {
    const opt = await agent.post(`/v1/contacts/${contact.number}/consent`, {
      channels: ['voice'],
      status: 'opted_out',
    });
    expect(opt.status, JSON.stringify(opt.body)).toBe(200);
    const res = await agent.post('/v1/dialer/calls', { to: contact.phone, contact_number: contact.number });
    expect(res.status).toBe(422);
    expect(res.body.errors.to[0]).toMatch(/opt/i);
    const count = await db().execute<{ n: number }>(
      sql`select count(*)::int as n from calls where user_id = ${agentId} and status = 'initiated'`,
    );
    expect(Number(count.rows[0].n)).toBe(0);
    await agent.post(`/v1/contacts/${contact.number}/consent`, {
      channels: ['voice'],
      status: 'allowed',
      note: 'Said yes on the phone',
    });
  });

  it("refuses once the month's allocation is used: 'Please request additional minutes from your manager.'", async () => {
    await makeReady(DEMO('telemarketer'));
    const c = await signIn(t.app, DEMO('telemarketer'));
    const [u] = await db()
      .select()
      .from(users)
      .where(eq(users.email, DEMO('telemarketer')));
    const alloc = await db().execute<{ allocation: number }>(
      sql`select allocation from plan_licences where user_id = ${u.id} and product = 'dialer' and removed_at is null`,
    );
    await recordUsage(db(), {
      companyId: u.companyId,
      userId: u.id,
      kind: 'voice',
      quantity: Number(alloc.rows[0].allocation),
      ref: 'test:use-it-all',
    });
    const res = await c.post('/v1/dialer/calls', { to: '18135550111' });
    expect(res.status).toBe(403);
    expect(res.body.errors.user).toEqual([QUOTA_MESSAGES.dialer]);
    expect(res.body.errors.result).toEqual([OVER_MINUTES_ALLOCATED]);
  });

  it('refuses when the wallet cannot pay a minute', async () => {
    await makeReady(RECRUIT('agent'));
    const c = await signIn(t.app, RECRUIT('agent'));
    const res = await c.post('/v1/dialer/calls', { to: '18135550111' });
    expect(res.status).toBe(402);
    expect(res.body.errors.wallet).toEqual([NO_MINUTE_FUNDS]);
  });

  it('refuses a contact of another agent (404, like another tenant)', async () => {
    const other = await db().execute<{ number: number }>(
      sql`select c.number from contacts c join users u on u.id = c.owner_id
          where u.company_id = (select company_id from users where id = ${agentId}) and c.owner_id <> ${agentId}
            and c.pool_id is null and c.deleted_at is null limit 1`,
    );
    const res = await agent.post('/v1/dialer/calls', {
      to: '18135550111',
      contact_number: Number(other.rows[0].number),
    });
    expect(res.status).toBe(404);
  });
});

describe('lists and lookups', () => {
  it('finds the contact of an inbound number written +1-xxx-xxx-xxxx (dashes and +1 removed)', async () => {
    const p = contact.phone;
    const formatted = `+1-${p.slice(1, 4)}-${p.slice(4, 7)}-${p.slice(7)}`;
    const one = await agent.post('/v1/dialer/fetch_associated_contact', { phone_number: formatted });
    expect(one.status).toBe(200);
    expect(one.body.contact.number).toBe(contact.number);
    const many = await agent.post('/v1/dialer/fetch_associated_contacts', { phone_number: formatted });
    expect(many.body.contacts.map((c: { number: number }) => c.number)).toContain(contact.number);
    const none = await agent.post('/v1/dialer/fetch_associated_contact', { phone_number: '+1-999-555-0000' });
    expect(none.body.contact).toBeNull();
    expect((await agent.post('/v1/dialer/fetch_associated_contact', {})).status).toBe(422);
  });

  it('lists history and filtered logs; a manager sees the downline, bad filters are 422', async () => {
    const hist = await agent.post('/v1/dialer/fetch_historical_calls', {});
    expect(hist.status).toBe(200);
    expect(hist.body.call_history.length).toBeGreaterThan(0);
    expect(hist.body.call_history[0]).toHaveProperty('caller_city');
    const logs = await agent.post('/v1/dialer/fetch_call_logs', { direction: 'outbound', phone_number: contact.phone });
    expect(logs.status).toBe(200);
    expect(logs.body.pagination.total).toBeGreaterThan(0);
    const mgr = await signIn(t.app, DEMO('manager'));
    const team = await mgr.post('/v1/dialer/fetch_call_logs', {});
    expect(team.body.calls.some((c: { agent: { id: number } }) => c.agent.id === agentId)).toBe(true);
    const outsider = await signIn(t.app, RECRUIT('agent'));
    const theirs = await outsider.post('/v1/dialer/fetch_call_logs', {});
    expect(theirs.body.calls.some((c: { agent: { id: number } }) => c.agent.id === agentId)).toBe(false);
    expect((await agent.post('/v1/dialer/fetch_call_logs', { direction: 'sideways' })).status).toBe(422);
    expect((await agent.post('/v1/dialer/fetch_call_logs', { from: '2026-02-01', to: '2026-01-01' })).status).toBe(422);
    expect((await agent.post('/v1/dialer/fetch_call_logs', { limit: 1000 })).status).toBe(422);
  });

  it('refuses recording and disclaimer on a call that is not the caller’s or not live', async () => {
    const other = await signIn(t.app, DEMO('manager'));
    const [call] = (await agent.post('/v1/dialer/fetch_historical_calls', {})).body.call_history;
    expect((await other.post('/v1/dialer/device_stop_call_recording', { call_id: call.id })).status).toBe(404);
    expect((await agent.post('/v1/dialer/device_stop_call_recording', { call_id: call.id })).status).toBe(422);
    expect((await agent.post('/v1/dialer/device_start_disclaimer_prompt', { call_id: 'x' })).status).toBe(422);
  });
});

describe('without a voice service (the embedded default)', () => {
  it('says the voice service is not configured, and refuses a dial with 503', async () => {
    const bare = await createTestApp();
    try {
      await bare.database.db
        .update(users)
        .set({ dialerVerifiedPhoneNumber: '+1-813-555-0199', changePassword: false, twoFaRequired: false })
        .where(eq(users.email, DEMO('agent')));
      const c = await signIn(bare.app, DEMO('agent'));
      const tok = await c.get('/v1/dialer/fetch_device_token');
      expect(tok.body).toMatchObject({ provider: 'none', token: null, message: VOICE_NOT_CONFIGURED });
      const res = await c.post('/v1/dialer/calls', { to: '18135550111' });
      expect(res.status).toBe(503);
      expect(res.body.errors.user).toEqual([VOICE_NOT_CONFIGURED]);
    } finally {
      await bare.close();
    }
  });
});
