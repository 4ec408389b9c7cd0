/**
 * The local lab's signed call events against a real database: an outbound call linked by X-Harbor-Call moves
 * through ringing and answered to completed and is billed once per started minute (a replayed event bills nothing),
 * a status for someone else's call links nothing, an inbound INVITE is answered with the agent to ring and pops
 * the caller's contact on the agent's call channel, and forged, stale or unsigned requests are refused. A completed
 * call's recording is fetched from the configured relay only (whatever the callback says), kept once through the
 * same code as Twilio's, listed on the contact and played back; a failed fetch keeps nothing and is tried again.
 * Statuses worked out of order (drains run side by side) link the call all the same and never bring an ended leg back.
 */
import type { CallsChannelMessage } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, until } from '../../../test/harness.js';
import { LAB_SIGNATURE_HEADER, signLabBody } from '../../integrations/voice/lab-signature.js';
import { balanceOf } from '../usage-plans/route-test-kit.js';
import { callsStream } from './events.js';
import { dialerTestApp, startLabRecordingsStandin, webhooksSettled } from './test-kit.js';

const SECRET = 'lab-secret-of-this-test';
let kit: Awaited<ReturnType<typeof dialerTestApp>>;
let relay: Awaited<ReturnType<typeof startLabRecordingsStandin>>;

beforeAll(async () => {
  relay = await startLabRecordingsStandin(SECRET);
  kit = await dialerTestApp({
    VOICE_SIP_WS_URL: 'ws://127.0.0.1:5161',
    VOICE_SIP_SECRET: SECRET,
    VOICE_SIP_RECORDINGS_URL: relay.url,
  });
});
afterAll(async () => {
  await kit.close();
  await relay.close();
});
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
const recording = (body: object, signature?: string) => labPost('/v1/webhooks/voice-lab/recording', body, signature);
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

describe('statuses worked out of order (drains run side by side)', () => {
  it('link the call from its stored initiated event, and the late initiated event brings nothing back', async () => {
    const started = await kit.agent.post('/v1/dialer/calls', { to: kit.contact.phone });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const callId: number = started.body.call.id;
    const sid = 'late-initiated@127.0.0.1';
    const provider = kit.t.deps.webhooks.get('voice-lab')!;
    const payload = (s: string, extra: object = {}) => ({ call_sid: sid, status: s, direction: 'outbound', ...extra });
    const initiated = payload('initiated', { harbor_call: String(callId), identity: `harbor-u${kit.agentId}` });
    // Stored, but held back (as if another drain held it): its backoff has not run out.
    await db().execute(
      sql`insert into webhook_events (provider, event_id, type, payload, retry_at)
          values ('voice-lab', ${`${sid}:initiated`}, 'status', ${JSON.stringify(initiated)}::jsonb, now() + interval '1 hour')`,
    );
    const work = (p: object) =>
      db().transaction((tx) =>
        provider.handle(
          {
            rowId: 0,
            provider: 'voice-lab',
            id: 'x',
            type: 'status',
            companyId: null,
            payload: p as never,
            receivedAt: new Date(),
          },
          tx,
        ),
      );
    await work(payload('in-progress'));
    expect((await callRow(callId)).status).toBe('in-progress');
    await work(payload('completed', { duration: 61 }));
    await work(initiated);
    expect(await callRow(callId)).toMatchObject({ status: 'completed', room: sid, duration_s: 61 });
    const legs = await db().execute<{ status: string }>(sql`select status from call_legs where call_id = ${callId}`);
    expect(legs.rows.map((l) => l.status)).toEqual(['completed']);
    await db().execute(
      sql`delete from webhook_events where provider = 'voice-lab' and event_id = ${`${sid}:initiated`}`,
    );
  });
});

/** An outbound lab call placed, answered and completed after `seconds`; answers its id. */
async function completedLabCall(sid: string, seconds: number) {
  const started = await kit.agent.post('/v1/dialer/calls', { to: kit.contact.phone });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const callId: number = started.body.call.id;
  const identity = `harbor-u${kit.agentId}`;
  await status({ call_sid: sid, status: 'initiated', direction: 'outbound', harbor_call: String(callId), identity });
  await status({ call_sid: sid, status: 'in-progress', direction: 'outbound' });
  await status({ call_sid: sid, status: 'completed', direction: 'outbound', duration: seconds });
  await webhooksSettled(kit.t, 'voice-lab');
  expect((await callRow(callId)).status).toBe('completed');
  return callId;
}
const kept = (callId: number) =>
  db().execute<Record<string, unknown>>(sql`select * from call_recordings where call_id = ${callId}`);
const event = async (id: string) =>
  (
    await db().execute<{ attempts: number; error: string | null; processed_at: string | null }>(
      sql`select attempts, error, processed_at from webhook_events where provider = 'voice-lab' and event_id = ${id}`,
    )
  ).rows[0];

describe("a lab call's recording", () => {
  it('is fetched from the configured relay only, kept once as a Twilio recording is, listed and played back', async () => {
    const sid = 'rec-1@127.0.0.1';
    const callId = await completedLabCall(sid, 7);
    const recordingSid = `LR${'a1'.repeat(16)}`;
    const before = relay.requests.length;
    // A url in the callback is not where the server goes: it asks the configured relay for the id.
    const body = { call_sid: sid, recording_sid: recordingSid, duration: 7, url: 'http://169.254.169.254/latest' };
    const res = await recording(body);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ received: 1, duplicates: 0 });
    // The relay retrying (re-signed): stored once, fetched once.
    expect((await recording(body)).json()).toEqual({ received: 0, duplicates: 1 });
    await webhooksSettled(kit.t, 'voice-lab');
    expect(relay.requests.slice(before)).toEqual([{ path: `/recordings/${recordingSid}.wav`, signed: true }]);

    const rows = (await kept(callId)).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ provider_sid: recordingSid, content_type: 'audio/wav', duration_s: 7 });
    expect(rows[0].storage_key).toBe(`calls/${rows[0].company_id}/${callId}/${recordingSid.toLowerCase()}`);
    const files = await kit.agent.get(`/v1/contacts/${kit.contact.number}/call_files`);
    expect(files.status).toBe(200);
    const f = files.body.call_files.find((x: { call_id: number }) => x.call_id === callId);
    expect(f).toMatchObject({ call_id: callId, duration_s: 7 });
    expect(new Date(f.retain_until).getFullYear()).toBe(new Date().getFullYear() + 10);
    const audio = await kit.agent.get(f.url);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    // With its length, and by byte range, so a player knows the duration and can seek.
    const size = Number(audio.headers['content-length']);
    expect(size).toBeGreaterThan(44);
    expect(audio.headers['accept-ranges']).toBe('bytes');
    const head = await kit.agent.request('GET', f.url, undefined, { range: 'bytes=0-43' });
    expect(head.status).toBe(206);
    expect(head.headers['content-range']).toBe(`bytes 0-43/${size}`);
    expect(Number(head.headers['content-length'])).toBe(44);
    const tail = await kit.agent.request('GET', f.url, undefined, { range: 'bytes=-10' });
    expect(tail.headers['content-range']).toBe(`bytes ${size - 10}-${size - 1}/${size}`);
    const beyond = await kit.agent.request('GET', f.url, undefined, { range: `bytes=${size}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${size}`);
  });

  it('refuses forged and malformed callbacks, storing and fetching nothing', async () => {
    const recordings = async () =>
      (
        await db().execute<{ n: number }>(
          sql`select count(*)::int as n from webhook_events where provider = 'voice-lab' and type = 'recording'`,
        )
      ).rows[0].n;
    const before = relay.requests.length;
    const storedBefore = await recordings();
    const body = { call_sid: 'rec-1@127.0.0.1', recording_sid: `LR${'b2'.repeat(16)}`, duration: 7 };
    const forged = await recording(body, signLabBody('not-the-secret', JSON.stringify(body)));
    expect(forged.statusCode).toBe(401);
    // An id that could climb out of the relay's path, or name another host, is not a recording id.
    for (const recording_sid of ['../../v1/admin', 'LR@evil.example/x', `LR${'b2'.repeat(16)}/../x`]) {
      expect((await recording({ ...body, recording_sid })).statusCode, recording_sid).toBe(400);
    }
    expect(await recordings()).toBe(storedBefore);
    expect(relay.requests.length).toBe(before);
  });

  it('keeps nothing for a call Harbor does not know, and fetches nothing', async () => {
    const before = relay.requests.length;
    const recordingSid = `LR${'c3'.repeat(16)}`;
    const res = await recording({ call_sid: 'not-ours@127.0.0.1', recording_sid: recordingSid, duration: 5 });
    expect(res.json()).toEqual({ received: 1, duplicates: 0 });
    await webhooksSettled(kit.t, 'voice-lab');
    const rows = await db().execute(sql`select 1 from call_recordings where provider_sid = ${recordingSid}`);
    expect(rows.rows).toHaveLength(0);
    expect(relay.requests.length).toBe(before);
  });

  it('keeps nothing of a failed or cut-short fetch, and the job fetches it again later', async () => {
    const sid = 'rec-2@127.0.0.1';
    const callId = await completedLabCall(sid, 12);
    const recordingSid = `LR${'d4'.repeat(16)}`;
    const key = `calls/${(await callRow(callId)).company_id}/${callId}/${recordingSid.toLowerCase()}`;
    // Test apps share DATA_DIR/files: an earlier run may have left this key.
    await kit.t.deps.storage.delete(key);
    relay.failures.push('truncated', '500');
    const before = relay.requests.length;
    expect((await recording({ call_sid: sid, recording_sid: recordingSid, duration: 12 })).statusCode).toBe(200);
    const id = `${recordingSid}:completed`;
    // A batch that fails is worked again event by event before the attempt counts: both failures are spent.
    await until(async () => (await event(id))?.attempts === 1, 'the first attempt to fail');
    expect((await event(id)).error).toMatch(/not a complete WAV|answered 500/);
    expect((await kept(callId)).rows).toHaveLength(0);
    expect(await kit.t.deps.storage.get(key)).toBeNull();
    // Tried again after its backoff: the relay answers the whole file.
    await until(async () => (await event(id))?.processed_at != null, 'the recording to be kept', 30_000);
    expect(relay.failures).toEqual([]);
    expect(relay.requests.length - before).toBeGreaterThanOrEqual(3);
    const rows = (await kept(callId)).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ storage_key: key, duration_s: 12 });
    const stream = await kit.t.deps.storage.get(key);
    const chunks: Buffer[] = [];
    for await (const c of stream!) chunks.push(c as Buffer);
    expect(Buffer.concat(chunks).equals(relay.audio)).toBe(true);
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
