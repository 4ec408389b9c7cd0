/**
 * Twilio's voice requests (DECIDED, docs/decisions/voice-webhooks.md): public, CSRF-free, every one proved by
 * X-Twilio-Signature over the exact public URL and form fields.
 *
 * - `POST /v1/voice/twiml/outbound`: the TwiML app's voice URL. The browser's connect carries `cid`, the call the
 *   server accepted (POST /v1/dialer/calls); the browser leg joins the call's conference, and the carrier leg is
 *   added to it, time-limited to what the wallet and the allocation pay for.
 * - `POST /v1/voice/twiml/inbound`: a number's voice URL. The dialed number names the agent; the caller's number
 *   is matched to the agent's contacts, the call event goes to the agent's call channel (the screen pop), and the
 *   agent's browser is added to the conference.
 * - `POST /v1/voice/twiml/disclaimer`: what the conference announces when the agent plays the TPMO disclaimer.
 * - Status, conference and recording callbacks go through the webhook ingress: `/v1/webhooks/twilio-voice/{topic}`.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import twilio from 'twilio';
import { formParams } from '../../integrations/twilio/webhook.js';
import type { TwilioVoiceConfig } from '../../integrations/voice/config.js';
import type { VoicePort } from '../../integrations/voice/port.js';
import { conferenceTwiml, sayTwiml, type TwilioVoice } from '../../integrations/voice/twilio.js';
import { HttpError } from '../../platform/http/errors.js';
import { type VerifiedEvent, WebhookRefused } from '../../platform/webhooks/ingress.js';
import { handleConference, handleLegStatus, publishCall, storeRecording } from './events.js';
import { receiveInbound } from './inbound.js';
import { identityOf, userOfIdentity } from './start.js';

const xml = (body: string) => ({ contentType: 'text/xml', body });
type Row = Record<string, unknown>;

export function registerTwilioVoice(scope: FastifyInstance, cfg: TwilioVoiceConfig, voice: VoicePort) {
  const deps = scope.deps;
  const db = deps.database.db;
  const base = deps.config.appUrl;
  const urls = {
    status: `${base}/v1/webhooks/twilio-voice/status`,
    conference: `${base}/v1/webhooks/twilio-voice/conference`,
    recording: `${base}/v1/webhooks/twilio-voice/recording`,
  };

  deps.webhooks.register({
    name: 'twilio-voice',
    verify(req): VerifiedEvent[] {
      const signature = req.headers['x-twilio-signature'];
      if (typeof signature !== 'string' || !signature) throw new WebhookRefused('X-Twilio-Signature is missing', 401);
      const p = formParams(req.rawBody);
      if (!twilio.validateRequest(cfg.authToken, signature, req.url, p)) {
        throw new WebhookRefused('X-Twilio-Signature does not match', 401);
      }
      const topic = req.topic ?? '';
      const id =
        topic === 'status'
          ? `${p.CallSid}:${p.CallStatus}`
          : topic === 'conference'
            ? `${p.ConferenceSid}:${p.StatusCallbackEvent}:${p.CallSid ?? ''}`
            : topic === 'recording'
              ? `${p.RecordingSid}:${p.RecordingStatus ?? 'completed'}`
              : '';
      if (!id || id.startsWith('undefined')) throw new WebhookRefused('not a voice callback of ours');
      return [{ id, type: topic, payload: p }];
    },
    async handle(event, tx) {
      const p = event.payload as Record<string, string>;
      if (event.type === 'status') await handleLegStatus(deps, tx, p);
      else if (event.type === 'conference') await handleConference(tx, p);
      else if (event.type === 'recording') {
        await storeRecording(deps, tx, p, (url) => (voice as TwilioVoice).download(url));
      }
    },
    respond: () => xml('<?xml version="1.0" encoding="UTF-8"?><Response></Response>'),
    concurrency: 8,
    // One event a request, in bursts: stored together while a store is in flight (bench/voice.ts).
    groupAccepts: true,
  });

  /** Proves a TwiML request and answers its form fields. */
  const verified = (req: FastifyRequest) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const p = formParams(raw);
    const signature = req.headers['x-twilio-signature'];
    const url = new URL(req.url, base).toString();
    if (typeof signature !== 'string' || !twilio.validateRequest(cfg.authToken, signature, url, p)) {
      throw new HttpError(401, { signature: ['X-Twilio-Signature does not match'] });
    }
    return p;
  };

  scope.register(async (s) => {
    s.removeAllContentTypeParsers();
    s.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 64 * 1024 }, (_req, body, done) => done(null, body));
    const config = {
      access: 'public' as const,
      csrf: false,
      rateLimit: { name: 'webhooks', max: 300_000, windowMs: 60_000 },
    };
    const schema = { tags: ['voice'], hide: false };

    s.post(
      '/v1/voice/twiml/outbound',
      { config, schema: { ...schema, summary: 'TwiML: the browser leg of an outbound call' } },
      async (req, reply) => {
        const p = verified(req);
        const userId = userOfIdentity(p.From ?? p.Caller ?? '');
        const callId = Number(p.cid);
        const res = await db.execute<Row>(
          sql`select * from calls where id = ${Number.isSafeInteger(callId) ? callId : 0} and user_id = ${userId ?? 0}
            and direction = 'outbound' and status = 'initiated'`,
        );
        const call = res.rows[0];
        if (!call) return reply.type('text/xml').send(sayTwiml('This call was not accepted. Please dial again.'));
        await db.execute(
          sql`insert into call_legs (company_id, call_id, sid, kind) values (${call.company_id}, ${call.id}, ${p.CallSid}, 'client')
            on conflict (sid) do nothing`,
        );
        try {
          const leg = await voice.addLeg({
            callId: Number(call.id),
            from: String(call.from_number),
            to: String(call.to_number),
            timeLimitS: call.max_seconds == null ? null : Number(call.max_seconds),
            statusUrl: urls.status,
          });
          await db.execute(
            sql`insert into call_legs (company_id, call_id, sid, kind) values (${call.company_id}, ${call.id}, ${leg.sid}, 'carrier')
              on conflict (sid) do nothing`,
          );
        } catch (err) {
          req.log.warn({ err, call: call.id }, 'carrier leg refused');
          await db.execute(
            sql`update calls set status = 'failed', ended_at = now(), error_code = 31000 where id = ${call.id}`,
          );
          await publishCall(deps, db, Number(call.company_id), Number(call.id), 'The call could not be placed.');
          return reply.type('text/xml').send(sayTwiml('The call could not be placed.'));
        }
        const twiml = conferenceTwiml({
          callId: Number(call.id),
          record: call.recording === 'recording',
          statusUrl: urls.conference,
          recordingUrl: urls.recording,
          timeLimitS: call.max_seconds == null ? null : Number(call.max_seconds),
        });
        return reply.type('text/xml').send(twiml);
      },
    );

    s.post(
      '/v1/voice/twiml/inbound',
      { config, schema: { ...schema, summary: "TwiML: a call to an agent's number" } },
      async (req, reply) => {
        const p = verified(req);
        const from = p.From ?? '';
        const r = await receiveInbound(deps, {
          from,
          to: p.To ?? '',
          sid: p.CallSid ?? '',
          provider: 'twilio',
          city: p.FromCity,
          state: p.FromState,
        });
        if (r.kind === 'not-in-service') return reply.type('text/xml').send(sayTwiml('This number is not in service.'));
        // The agent is on another call: the caller hears busy (spec: 'Device busy').
        if (r.kind === 'busy')
          return reply
            .type('text/xml')
            .send('<?xml version="1.0" encoding="UTF-8"?><Response><Reject reason="busy"/></Response>');
        const { callId, agentId, companyId } = r;
        const leg = await voice.addLeg({
          callId: Number(callId),
          from,
          to: `client:${identityOf(agentId)}`,
          timeLimitS: null,
          statusUrl: urls.status,
        });
        await db.execute(
          sql`insert into call_legs (company_id, call_id, sid, kind) values (${companyId}, ${callId}, ${leg.sid}, 'client')
            on conflict (sid) do nothing`,
        );
        return reply.type('text/xml').send(
          conferenceTwiml({
            callId: Number(callId),
            record: r.record,
            statusUrl: urls.conference,
            recordingUrl: urls.recording,
            timeLimitS: null,
          }),
        );
      },
    );

    s.post(
      '/v1/voice/twiml/disclaimer',
      { config, schema: { ...schema, summary: 'TwiML: the TPMO disclaimer announced into a call' } },
      async (req, reply) => {
        verified(req);
        return reply.type('text/xml').send(sayTwiml(deps.config.voice.disclaimerText));
      },
    );
  });
}
