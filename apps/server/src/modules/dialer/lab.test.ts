/**
 * The local lab's signed call events against a real database: an outbound call linked by X-Harbor-Call moves
 * through ringing and answered to completed and is billed once per started minute (a replayed event bills nothing),
 * a status for someone else's call links nothing, an inbound INVITE is answered with the agent to ring and pops
 * the caller's contact on the agent's call channel, and forged, stale or unsigned requests are refused.
 */
import type { CallsChannelMessage } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, until } from '../../../test/harness.js';
import { LAB_SIGNATURE_HEADER, signLabBody } from '../../integrations/voice/lab-signature.js';
import { balanceOf } from '../usage-plans/route-test-kit.js';
import { callsStream } from './events.js';
import { dialerTestApp, webhooksSettled } from './test-kit.js';

const SECRET = 'lab-secret-of-this-test';
let kit: Awaited<ReturnType<typeof dialerTestApp>>;

beforeAll(async () => {
  kit = await dialerTestApp({ VOICE_SIP_WS_URL: 'ws://127.0.0.1:5161', VOICE_SIP_SECRET: SECRET });
});
afterAll(() => kit.close());
const db = () => kit.t.database.db;

function labPost(path: string, body: object, signature?: string) {
  const text = JSON.stringify(body);
  return kit.t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/json', [LAB_SIGNATURE_HEADER]: signature ?? signLabBody(SECRET, text) },
    payload: text,
  });
}
const status = (body: object, signature?: string) => labPost('/v1/webhooks/voice-lab/status', body, signature);
const callRow = async (id: number) =>
  (await db().execute<Record<string, unknown>>(sql`select * from calls where id = ${id}`)).rows[0];

describe('an outbound lab call', () => {
  let callId: number;
  const sid = 'a84b4c76e66710@127.0.0.1';

  it('is linked by X-Harbor-Call only for the person who placed it', async () => {
    const started = await kit.agent.post('/v1/dialer/calls', { to: kit.contact.phone });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    callId = started.body.call.id;
    expect((await callRow(callId)).provider).toBe('sip');
    // Someone else's identity naming this call: nothing is linked.
    const other = { call_sid: 'other@127.0.0.1', status: 'initiated', direction: 'outbound' };
    expect((await status({ ...other, harbor_call: String(callId), identity: 'harbor-u999999' })).statusCode).toBe(200);
    await webhooksSettled(kit.t, 'voice-lab');
    expect((await callRow(callId)).room).toBeNull();

    const res = await status({
      call_sid: sid,
      status: 'initiated',
      direction: 'outbound',
      harbor_call: String(callId),
      identity: `harbor-u${kit.agentId}`,
    });
    expect(res.statusCode).toBe(200);
    await webhooksSettled(kit.t, 'voice-lab');
    const row = await callRow(callId);
    expect(row.room).toBe(sid);
    const legs = await db().execute<{ kind: string }>(sql`select kind from call_legs where call_id = ${callId}`);
    expect(legs.rows.map((l) => l.kind)).toEqual(['carrier']);
  });

  it('rings, is answered (the call channel hears it), and completes billed once per started minute', async () => {
    const got: CallsChannelMessage[] = [];
    const off = await kit.t.deps.bus.subscribe(callsStream(kit.agentId), (m) => got.push(m as CallsChannelMessage));
    await status({ call_sid: sid, status: 'ringing', direction: 'outbound' });
    await webhooksSettled(kit.t, 'voice-lab');
    expect((await callRow(callId)).status).toBe('ringing');
    await status({ call_sid: sid, status: 'in-progress', direction: 'outbound' });
    await webhooksSettled(kit.t, 'voice-lab');
    await off();
    expect((await callRow(callId)).answered_at).not.toBeNull();
    expect(got.map((m) => m.type === 'call_status' && m.call.status)).toEqual(['ringing', 'in-progress']);

    const before = await balanceOf(kit.t, DEMO('agent'));
    const done = { call_sid: sid, status: 'completed', direction: 'outbound', duration: 61 };
    expect((await status(done)).statusCode).toBe(200);
    await webhooksSettled(kit.t, 'voice-lab');
    const after = await balanceOf(kit.t, DEMO('agent'));
    expect(before - after).toBeGreaterThan(0);
    const row = await callRow(callId);
    expect(row).toMatchObject({ status: 'completed', duration_s: 61 });
    const legs = await db().execute<{ billed_minutes: number }>(
      sql`select billed_minutes from call_legs where sid = ${sid}`,
    );
    expect(Number(legs.rows[0].billed_minutes)).toBe(2);

    // The same event again (re-signed, as a retrying relay sends it): stored once, billed once.
    const replay = await status(done);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual({ received: 0, duplicates: 1 });
    await webhooksSettled(kit.t, 'voice-lab');
    expect(await balanceOf(kit.t, DEMO('agent'))).toBe(after);
  });

  it('refuses forged, stale, malformed and unsigned events, storing nothing', async () => {
    const body = { call_sid: 'forged@127.0.0.1', status: 'completed', direction: 'outbound', duration: 600 };
    const text = JSON.stringify(body);
    const stale = signLabBody(SECRET, text, Math.floor(Date.now() / 1000) - 3600);
    for (const signature of [signLabBody('not-the-secret', text), stale, 'v1=abc', '']) {
      const res = await status(body, signature);
      expect(res.statusCode, signature).toBe(401);
    }
    const bad = await status({ call_sid: 'x', status: 'exploded', direction: 'outbound' });
    expect(bad.statusCode).toBe(400);
    const stored = await db().execute(
      sql`select 1 from webhook_events where provider = 'voice-lab' and event_id like 'forged%'`,
    );
    expect(stored.rows).toHaveLength(0);
  });
});

describe('an inbound lab call', () => {
  it("answers the agent to ring and pops the caller's contact on the agent's call channel", async () => {
    const got: CallsChannelMessage[] = [];
    const off = await kit.t.deps.bus.subscribe(callsStream(kit.agentId), (m) => got.push(m as CallsChannelMessage));
    const sid = 'inbound-1@127.0.0.1';
    const res = await labPost('/v1/voice/lab/inbound', {
      call_sid: sid,
      from: `+${kit.contact.phone}`,
      to: '18135550199',
    });
    // Over Redis the frame arrives a moment after the reply: wait for it before unsubscribing.
    await until(async () => got.some((m) => m.type === 'incoming_call'), 'the incoming_call frame');
    await off();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ identity: `harbor-u${kit.agentId}` });
    const pop = got.find((m) => m.type === 'incoming_call');
    expect(pop?.type === 'incoming_call' && pop.contact_numbers).toContain(kit.contact.number);
    const row = await callRow(res.json().call_id);
    expect(row).toMatchObject({ direction: 'inbound', status: 'ringing', room: sid, provider: 'sip' });
    // A second call while this one rings: busy.
    const busy = await labPost('/v1/voice/lab/inbound', {
      call_sid: 'inbound-2@x',
      from: '+15550001111',
      to: '18135550199',
    });
    expect(busy.json()).toEqual({ identity: null, busy: true });
    await status({ call_sid: sid, status: 'canceled', direction: 'inbound', duration: 0 });
    await webhooksSettled(kit.t, 'voice-lab');
    expect((await callRow(res.json().call_id)).status).toBe('canceled');
  });

  it('answers no one for a number no agent has, and refuses a forged request', async () => {
    const res = await labPost('/v1/voice/lab/inbound', { call_sid: 'in-3@x', from: '+15550001111', to: '19995550000' });
    expect(res.json()).toEqual({ identity: null, busy: false });
    const body = { call_sid: 'in-4@x', from: '+15550001111', to: '18135550199' };
    const forged = await labPost('/v1/voice/lab/inbound', body, signLabBody('guess', JSON.stringify(body)));
    expect(forged.statusCode).toBe(401);
    const bad = await labPost('/v1/voice/lab/inbound', { call_sid: 'in-5@x' });
    expect(bad.statusCode).toBe(400);
  });
});
