/**
 * A call's life through Twilio's signed requests, against a real database and the Twilio stand-in: the TwiML of
 * an outbound call and its carrier leg, status callbacks moving the call and billing the carrier leg once per
 * started minute (a replay bills nothing), recording pause/resume and the disclaimer through the conference, the
 * recording kept and listed on the contact (a replay keeps one), an inbound call's screen pop on the call channel,
 * and forged requests refused.
 */
import { CALLS_CHANNEL, type CallsChannelMessage } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, DEMO, RECRUIT, signIn, type TestApp, until } from '../../../test/harness.js';
import { balanceOf } from '../usage-plans/route-test-kit.js';
import { callsStream } from './events.js';
import { dialerTestApp, type startTwilioStandin, TWILIO_ENV, twilioPost, webhooksSettled } from './test-kit.js';

let t: TestApp;
let standin: Awaited<ReturnType<typeof startTwilioStandin>>;
let agent: Client;
let agentId: number;
let contact: { number: number; phone: string };
let close: () => Promise<void>;
const db = () => t.database.db;

beforeAll(async () => {
  const kit = await dialerTestApp();
  ({ t, standin, agent, agentId, contact } = kit);
  close = kit.close;
});
afterAll(() => close());

const status = (CallSid: string, CallStatus: string, extra: Record<string, string> = {}) =>
  twilioPost(t, '/v1/webhooks/twilio-voice/status', {
    AccountSid: TWILIO_ENV.TWILIO_ACCOUNT_SID,
    CallSid,
    CallStatus,
    ...extra,
  });

describe('an outbound call from dial to recording', () => {
  let callId: number;
  let carrierSid: string;
  const clientSid = 'CA11111111111111111111111111111111';
  const conferenceSid = 'CF11111111111111111111111111111111';

  it('answers the browser leg with the conference TwiML and adds the carrier leg, time-limited', async () => {
    const started = await agent.post('/v1/dialer/calls', { to: contact.phone });
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    callId = started.body.call.id;
    const form = {
      AccountSid: TWILIO_ENV.TWILIO_ACCOUNT_SID,
      CallSid: clientSid,
      From: `client:harbor-u${agentId}`,
      To: contact.phone,
      cid: String(callId),
    };
    const forged = await twilioPost(t, '/v1/voice/twiml/outbound', form, 'bm90IGEgc2lnbmF0dXJl');
    expect(forged.statusCode).toBe(401);
    const res = await twilioPost(t, '/v1/voice/twiml/outbound', form);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/xml/);
    expect(res.body).toContain(`>call-${callId}</Conference>`);
    expect(res.body).toContain('record="record-from-start"');
    const leg = standin.requests.find((r) => r.path.endsWith(`/Conferences/call-${callId}/Participants.json`));
    expect(leg?.form).toMatchObject({ To: contact.phone, From: '+1-813-555-0199', Timeout: '60' });
    expect(Number(leg?.form.TimeLimit)).toBe(started.body.max_seconds);
    const legs = await db().execute<{ sid: string; kind: string }>(
      sql`select sid, kind from call_legs where call_id = ${callId} order by id`,
    );
    expect(legs.rows.map((l) => l.kind)).toEqual(['client', 'carrier']);
    carrierSid = legs.rows[1].sid;
  });

  it('a forged status callback is refused and changes nothing', async () => {
    const res = await twilioPost(
      t,
      '/v1/webhooks/twilio-voice/status',
      { CallSid: carrierSid, CallStatus: 'completed', CallDuration: '600' },
      'Zm9yZ2Vk',
    );
    expect(res.statusCode).toBe(401);
  });

  it('moves through ringing and answered; the conference SID becomes the room', async () => {
    const got: CallsChannelMessage[] = [];
    const off = await t.deps.bus.subscribe(callsStream(agentId), (m) => got.push(m as CallsChannelMessage));
    expect((await status(carrierSid, 'ringing')).statusCode).toBe(200);
    expect((await status(carrierSid, 'in-progress')).statusCode).toBe(200);
    const conf = await twilioPost(t, '/v1/webhooks/twilio-voice/conference', {
      ConferenceSid: conferenceSid,
      FriendlyName: `call-${callId}`,
      StatusCallbackEvent: 'conference-start',
    });
    expect(conf.statusCode).toBe(200);
    await webhooksSettled(t);
    await off();
    const last = got.at(-1);
    expect(last?.type === 'call_status' && last.call.status).toBe('in-progress');
    const active = await agent.post('/v1/dialer/fetch_active_calls', {});
    expect(active.body.call_list[0]).toMatchObject({ id: callId, status: 'in-progress' });
    expect(CALLS_CHANNEL).toBe('CallsChannel');
  });

  it('pauses and resumes the recording through the conference; the state follows the server', async () => {
    const stop = await agent.post('/v1/dialer/device_stop_call_recording', { call_id: callId });
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect(stop.body.call.recording).toBe('paused');
    const resume = await agent.post('/v1/dialer/device_resume_call_recording', { call_id: callId });
    expect(resume.body.call.recording).toBe('recording');
    const recs = standin.requests.filter((r) =>
      r.path.endsWith(`/Conferences/${conferenceSid}/Recordings/Twilio.CURRENT.json`),
    );
    expect(recs.map((r) => r.form.Status)).toEqual(['paused', 'in-progress']);
  });

  it('plays the disclaimer into the conference and records it within the first minute', async () => {
    const res = await agent.post('/v1/dialer/device_start_disclaimer_prompt', { call_id: callId });
    expect(res.status).toBe(200);
    expect(res.body.call.disclaimer_in_first_minute).toBe(true);
    expect(res.body.call.disclaimer_played_at_s).toBeLessThanOrEqual(60);
    const announce = standin.requests.find((r) => r.path.endsWith(`/Conferences/${conferenceSid}.json`));
    expect(announce?.form.AnnounceUrl).toBe('http://localhost:3000/v1/voice/twiml/disclaimer');
    const twiml = await twilioPost(t, '/v1/voice/twiml/disclaimer', { CallSid: carrierSid });
    expect(twiml.body).toContain('We do not offer every plan available in your area.');
  });

  it('bills the completed carrier leg once per started minute; a replay bills nothing', async () => {
    const before = await balanceOf(t, DEMO('agent'));
    expect((await status(carrierSid, 'completed', { CallDuration: '61' })).statusCode).toBe(200);
    await webhooksSettled(t);
    const after = await balanceOf(t, DEMO('agent'));
    const charged = before - after;
    expect(charged).toBeGreaterThan(0);
    // The same callback again (Twilio retries) and once more under a new (SID, status) pair from the browser leg.
    await status(carrierSid, 'completed', { CallDuration: '61' });
    await status(clientSid, 'completed', { CallDuration: '65' });
    await webhooksSettled(t);
    expect(await balanceOf(t, DEMO('agent'))).toBe(after);
    const usage = await db().execute<{ q: number }>(
      sql`select sum(quantity)::int as q from usage_records where ref = ${`call:${callId}:${carrierSid}`}`,
    );
    expect(Number(usage.rows[0].q)).toBe(2);
    const hist = await agent.post('/v1/dialer/fetch_historical_calls', {});
    expect(hist.body.call_history[0]).toMatchObject({
      id: callId,
      status: 'completed',
      duration_s: 61,
      billed_minutes: 2,
    });
  });

  it('keeps the recording once, lists it on the contact and plays it back; other people get 404', async () => {
    const form = {
      AccountSid: TWILIO_ENV.TWILIO_ACCOUNT_SID,
      ConferenceSid: conferenceSid,
      RecordingSid: 'RE11111111111111111111111111111111',
      RecordingUrl: `${standin.base}/recordings/RE1`,
      RecordingStatus: 'completed',
      RecordingDuration: '59',
    };
    expect((await twilioPost(t, '/v1/webhooks/twilio-voice/recording', form)).statusCode).toBe(200);
    await twilioPost(t, '/v1/webhooks/twilio-voice/recording', form);
    await webhooksSettled(t);
    const files = await agent.get(`/v1/contacts/${contact.number}/call_files`);
    expect(files.status).toBe(200);
    expect(files.body.call_files).toHaveLength(1);
    const f = files.body.call_files[0];
    expect(f).toMatchObject({ call_id: callId, duration_s: 59 });
    expect(new Date(f.retain_until).getFullYear()).toBe(new Date().getFullYear() + 10);
    expect(files.body.calls[0].disclaimer_in_first_minute).toBe(true);
    const audio = await agent.get(f.url);
    expect(audio.status).toBe(200);
    expect(audio.headers['content-type']).toBe('audio/wav');
    const outsider = await signIn(t.app, RECRUIT('agent'));
    expect((await outsider.get(f.url)).status).toBe(404);
    // Contact numbers count per company: the same number there is another person, with none of these calls.
    const theirs = await outsider.get(`/v1/contacts/${contact.number}/call_files`);
    expect(theirs.body.calls ?? []).not.toContainEqual(expect.objectContaining({ id: callId }));
    expect(theirs.body.call_files ?? []).toEqual([]);
  });
});

describe("the 'Record calls' setting turned off", () => {
  it('places calls unrecorded: no recording in the TwiML, nothing to pause or resume; inbound likewise', async () => {
    // A user override of the company's setting (the admin feature screen sets either); a fresh session reads it.
    await db().execute(sql`update users set features = features || '{"call_recording": false}' where id = ${agentId}`);
    try {
      const me = await signIn(t.app, DEMO('agent'));
      const started = await me.post('/v1/dialer/calls', { to: contact.phone });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const callId = started.body.call.id;
      expect(started.body.call.recording).toBe('off');
      const res = await twilioPost(t, '/v1/voice/twiml/outbound', {
        AccountSid: TWILIO_ENV.TWILIO_ACCOUNT_SID,
        CallSid: 'CA44444444444444444444444444444444',
        From: `client:harbor-u${agentId}`,
        To: contact.phone,
        cid: String(callId),
      });
      expect(res.body).toContain(`>call-${callId}</Conference>`);
      expect(res.body).toContain('record="do-not-record"');
      const legs = await db().execute<{ sid: string }>(
        sql`select sid from call_legs where call_id = ${callId} and kind = 'carrier'`,
      );
      const carrier = legs.rows[0].sid;
      await status(carrier, 'in-progress');
      await webhooksSettled(t);
      const resume = await me.post('/v1/dialer/device_resume_call_recording', { call_id: callId });
      expect(resume.status).toBe(422);
      expect(resume.body.errors.call_id[0]).toMatch(/not recorded/);
      await status(carrier, 'completed', { CallDuration: '5' });
      await webhooksSettled(t);
      expect((await me.post('/v1/dialer/fetch_active_calls', {})).body.call_list).toEqual([]);

      const inbound = await twilioPost(t, '/v1/voice/twiml/inbound', {
        AccountSid: TWILIO_ENV.TWILIO_ACCOUNT_SID,
        CallSid: 'CA55555555555555555555555555555555',
        From: `+${contact.phone}`,
        To: '+18135550199',
      });
      expect(inbound.body).toContain('</Conference>');
      expect(inbound.body).toContain('record="do-not-record"');
      const [row] = (
        await db().execute<{ id: number; recording: string }>(
          sql`select c.id, c.recording from calls c join call_legs l on l.call_id = c.id
            where l.sid = 'CA55555555555555555555555555555555'`,
        )
      ).rows;
      expect(row.recording).toBe('off');
      // The caller hangs up before the agent answers: the call ends, the next test's inbound call can ring.
      await status('CA55555555555555555555555555555555', 'no-answer');
      await webhooksSettled(t);
    } finally {
      await db().execute(sql`update users set features = features - 'call_recording' where id = ${agentId}`);
    }
  });
});

describe('an inbound call', () => {
  it("pops the caller's contact on the agent's call channel and joins the agent's browser", async () => {
    const got: CallsChannelMessage[] = [];
    const off = await t.deps.bus.subscribe(callsStream(agentId), (m) => got.push(m as CallsChannelMessage));
    const p = contact.phone;
    const res = await twilioPost(t, '/v1/voice/twiml/inbound', {
      AccountSid: TWILIO_ENV.TWILIO_ACCOUNT_SID,
      CallSid: 'CA22222222222222222222222222222222',
      From: `+${p}`,
      To: '+18135550199',
      FromCity: 'TAMPA',
      FromState: 'FL',
    });
    // Over Redis the frame arrives a moment after the reply: wait for it before unsubscribing.
    await until(async () => got.some((m) => m.type === 'incoming_call'), 'the incoming_call frame');
    await off();
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('</Conference>');
    const pop = got.find((m) => m.type === 'incoming_call');
    expect(pop).toMatchObject({ type: 'incoming_call', phone_number: p.slice(1) });
    expect(pop?.type === 'incoming_call' && pop.contact_numbers).toContain(contact.number);
    const join = standin.requests.at(-1);
    expect(join?.form.To).toBe(`client:harbor-u${agentId}`);
    const hist = await agent.post('/v1/dialer/fetch_historical_calls', {});
    expect(hist.body.call_history[0]).toMatchObject({
      call_direction: 'inbound',
      caller_city: 'TAMPA',
      caller_state: 'FL',
      contact: { number: contact.number },
    });
  });

  it('says the number is not in service when no agent has it, and refuses a forged request', async () => {
    const res = await twilioPost(t, '/v1/voice/twiml/inbound', {
      CallSid: 'CA3',
      From: '+15550001111',
      To: '+19995550000',
    });
    expect(res.body).toContain('not in service');
    const forged = await twilioPost(t, '/v1/voice/twiml/inbound', { CallSid: 'CA3', To: '+18135550199' }, 'eA==');
    expect(forged.statusCode).toBe(401);
  });
});
