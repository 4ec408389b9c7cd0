/**
 * The local voice lab's requests (docs/decisions/voice-local-lab.md), the twin of Twilio's: the lab's relay
 * (scripts/voice-lab/relay.mjs) turns Kamailio's SIP events into Twilio-like call statuses and signs each with the
 * lab's secret (integrations/voice/lab-signature.ts).
 *
 * - `POST /v1/voice/lab/inbound`: a carrier's INVITE to an agent's number. Answers the identity Kamailio rings
 *   (`harbor-u<id>`) after the call is written and its event sent to the agent's call channel (the screen pop).
 * - `POST /v1/webhooks/voice-lab/status`, through the webhook ingress (stored once per call and status, so a
 *   replay bills nothing): initiated (an outbound INVITE names its accepted call in X-Harbor-Call; the SIP Call-ID
 *   becomes the call's room and its carrier leg), ringing, in-progress, then completed with its duration or
 *   busy / no-answer / canceled / failed. The rest is the voice module's status handling, shared with Twilio.
 * - `POST /v1/webhooks/voice-lab/recording`, through the webhook ingress (stored once per recording): a completed
 *   call's recording, which the relay made from rtpengine's pcaps. The server fetches it from the configured lab
 *   (VOICE_SIP_RECORDINGS_URL, integrations/voice/lab-recording.ts: never a URL the callback names) and keeps it
 *   exactly as a Twilio recording (events.ts keepRecording).
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { SipVoiceConfig } from '../../integrations/voice/config.js';
import { downloadLabRecording, LAB_RECORDING_SID } from '../../integrations/voice/lab-recording.js';
import { LAB_SIGNATURE_HEADER, labSignatureProblem } from '../../integrations/voice/lab-signature.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError } from '../../platform/http/errors.js';
import { type VerifiedEvent, WebhookRefused } from '../../platform/webhooks/ingress.js';
import { handleLegStatus, keepRecording } from './events.js';
import { receiveInbound } from './inbound.js';
import { identityOf, userOfIdentity } from './start.js';

const Sid = z.string().min(1).max(200);

export const LabStatus = z.object({
  call_sid: Sid,
  status: z.enum(['initiated', 'ringing', 'in-progress', 'completed', 'busy', 'no-answer', 'canceled', 'failed']),
  direction: z.enum(['inbound', 'outbound']),
  /** Outbound `initiated`: the call the server accepted (X-Harbor-Call) and who placed it (the SIP From user). */
  harbor_call: z.string().max(20).optional(),
  identity: z.string().max(40).optional(),
  duration: z.number().int().min(0).max(86_400).optional(),
  sip_code: z.number().int().min(100).max(699).optional(),
  at: z.number().optional(),
});

const LabInbound = z.object({ call_sid: Sid, from: z.string().max(64), to: z.string().max(64) });

/** A completed call's recording: its id is all the callback says about where the audio is. */
export const LabRecording = z.object({
  call_sid: Sid,
  recording_sid: z.string().regex(LAB_RECORDING_SID),
  duration: z.number().int().min(0).max(86_400),
  at: z.number().optional(),
});

/** The lab's recording of a call it placed or received (the call's room is its SIP Call-ID). */
async function storeLabRecording(deps: Deps, tx: Db, cfg: SipVoiceConfig, e: z.infer<typeof LabRecording>) {
  const res = await tx.execute<{ id: number; company_id: number }>(
    sql`select c.id, c.company_id from calls c
        where c.provider = 'sip' and (c.room = ${e.call_sid}
          or c.id in (select call_id from call_legs where sid = ${e.call_sid}))`,
  );
  const call = res.rows[0];
  if (!call) return; // a call that is not Harbor's (or no longer): nothing to keep
  await keepRecording(deps, tx, {
    companyId: Number(call.company_id),
    callId: Number(call.id),
    sid: e.recording_sid,
    durationS: e.duration || null,
    download: () => downloadLabRecording(cfg, e.recording_sid),
  });
}

/** An outbound call's first word from the lab: its SIP Call-ID becomes the call's room and carrier leg. */
async function linkOutbound(tx: Db, e: z.infer<typeof LabStatus>) {
  const callId = Number(e.harbor_call);
  const userId = userOfIdentity(e.identity ?? '');
  if (!Number.isSafeInteger(callId) || callId <= 0 || userId === null) return;
  const res = await tx.execute<{ id: number; company_id: number }>(
    sql`update calls set room = ${e.call_sid} where id = ${callId} and user_id = ${userId} and provider = 'sip'
          and direction = 'outbound' and status = 'initiated' and room is null
        returning id, company_id`,
  );
  const call = res.rows[0];
  if (!call) return; // not a call this person was allowed to place (or already linked): nothing of ours
  await tx.execute(
    sql`insert into call_legs (company_id, call_id, sid, kind) values (${call.company_id}, ${call.id}, ${e.call_sid},
          'carrier') on conflict (sid) do nothing`,
  );
}

/**
 * The call's `initiated` event, which alone names the Harbor call. Drains run side by side, so a later status of
 * the same call can be worked before it (or while another drain holds it): each outbound status links the call from
 * the stored `initiated` event first (linking is idempotent), so the order in which they are worked does not matter.
 */
async function initiatedOf(tx: Db, e: z.infer<typeof LabStatus>) {
  if (e.status === 'initiated') return e;
  const res = await tx.execute<{ payload: unknown }>(
    sql`select payload from webhook_events where provider = 'voice-lab' and event_id = ${`${e.call_sid}:initiated`}`,
  );
  const first = LabStatus.safeParse(res.rows[0]?.payload);
  return first.success ? first.data : e;
}

export function registerLabVoice(scope: FastifyInstance, cfg: SipVoiceConfig) {
  const deps = scope.deps;

  deps.webhooks.register({
    name: 'voice-lab',
    verify(req): VerifiedEvent[] {
      const problem = labSignatureProblem(cfg.secret, req.headers[LAB_SIGNATURE_HEADER], req.rawBody);
      if (problem) throw new WebhookRefused(problem, 401);
      let body: unknown;
      try {
        body = JSON.parse(req.rawBody.toString('utf8'));
      } catch {
        throw new WebhookRefused('the body is not JSON');
      }
      if (req.topic === 'recording') {
        // Refused rather than stored to fail: the server would have nowhere to fetch it from.
        if (!cfg.recordingsUrl)
          throw new WebhookRefused('the lab recordings URL is not configured (VOICE_SIP_RECORDINGS_URL)');
        const r = LabRecording.safeParse(body);
        if (!r.success) throw new WebhookRefused('not a lab recording');
        return [{ id: `${r.data.recording_sid}:completed`, type: 'recording', payload: r.data }];
      }
      const e = LabStatus.safeParse(body);
      if (!e.success || req.topic !== 'status') throw new WebhookRefused('not a lab call status');
      return [{ id: `${e.data.call_sid}:${e.data.status}`, type: 'status', payload: e.data }];
    },
    async handle(event, tx) {
      if (event.type === 'recording') {
        await storeLabRecording(deps, tx, cfg, LabRecording.parse(event.payload));
        return;
      }
      const e = LabStatus.parse(event.payload);
      if (e.direction === 'outbound') await linkOutbound(tx, await initiatedOf(tx, e));
      await handleLegStatus(deps, tx, {
        CallSid: e.call_sid,
        CallStatus: e.status,
        CallDuration: String(e.duration ?? 0),
        SipResponseCode: String(e.sip_code ?? ''),
      });
    },
    concurrency: 8,
    // One event a request, in bursts: stored together while a store is in flight (bench/voice.ts).
    groupAccepts: true,
  });

  /** Proves a lab request (the same signature as its status events) and answers its JSON. */
  const verified = (req: FastifyRequest) => {
    const raw = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    const problem = labSignatureProblem(cfg.secret, req.headers[LAB_SIGNATURE_HEADER], raw);
    if (problem) throw new HttpError(401, { signature: [problem] });
    let body: unknown;
    try {
      body = JSON.parse(raw.toString('utf8'));
    } catch {
      throw new HttpError(400, { body: ['must be JSON'] });
    }
    const parsed = LabInbound.safeParse(body);
    if (!parsed.success) throw new HttpError(400, { body: ['must have call_sid, from and to'] });
    return parsed.data;
  };

  scope.register(async (s) => {
    s.removeAllContentTypeParsers();
    s.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 16 * 1024 }, (_req, body, done) => done(null, body));
    s.post(
      '/v1/voice/lab/inbound',
      {
        config: {
          access: 'public' as const,
          csrf: false,
          rateLimit: { name: 'webhooks', max: 300_000, windowMs: 60_000 },
        },
        schema: { tags: ['voice'], summary: "The lab: a carrier's call to an agent's number (answers whom to ring)" },
      },
      async (req) => {
        const p = verified(req);
        const r = await receiveInbound(deps, {
          from: p.from,
          to: p.to,
          sid: p.call_sid,
          provider: 'sip',
          room: p.call_sid,
        });
        if (r.kind === 'ringing') return { identity: identityOf(r.agentId), call_id: r.callId };
        return { identity: null, busy: r.kind === 'busy' };
      },
    );
  });
}
