/**
 * What the voice provider tells us, after the webhook ingress proved and stored it (platform/webhooks/ingress.ts,
 * deduplicated on (SID, status)), worked in the ingress job's transaction:
 *
 * - a leg's status: the call moves on (ringing, answered, ended), and a carrier leg that completed is billed once,
 *   per started minute, from the agent's wallet (key `call:<call>:<leg sid>`, so a replay adds nothing) and counted
 *   against the month's allocation;
 * - the conference started: its SID becomes the call's room (recording and the disclaimer act on it);
 * - a recording finished (Twilio's callback, or the lab relay's): the audio is fetched once and kept through the
 *   storage port for ten years, by the same code for both.
 */
import { CALLS_CHANNEL } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { executeNamed } from '../../platform/db/named.js';
import type { Deps } from '../../platform/deps.js';
import { publishLive } from '../../platform/live/publish.js';
import { recordUsage, unitPriceFor } from '../usage-plans/enforcement.js';
import { chargeUsageWithin, startedMinutes } from '../wallet/usage.js';
import { loadCall } from './queries.js';

type Row = Record<string, unknown>;
export const callsStream = (userId: number) => `calls:${userId}`;
export const RECORDING_RETENTION_YEARS = 10;

const TERMINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled']);
/** TERMINAL as a statement's parameter (a text[]). */
const ENDED = sql.param([...TERMINAL]);

export async function publishCall(deps: Deps, db: Db, companyId: number, callId: number, warning: string | null) {
  const call = await loadCall(db, companyId, callId);
  if (!call) return;
  await publishLive(deps.bus, CALLS_CHANNEL, callsStream(call.agent.id), { type: 'call_status', call, warning });
}

/** Bills a completed carrier leg once; answers the warning to show when the wallet could not pay it. */
async function billLeg(deps: Deps, tx: Db, call: Row, leg: Row, seconds: number): Promise<string | null> {
  const minutes = startedMinutes(seconds);
  if (minutes === 0 || leg.kind !== 'carrier' || Number(leg.billed_minutes) > 0) return null;
  const companyId = Number(call.company_id);
  const userId = Number(call.user_id);
  const key = `call:${call.id}:${leg.sid}`;
  const unitPrice = await unitPriceFor(tx, { companyId, userId, product: 'dialer' });
  const r = await chargeUsageWithin(deps, tx, {
    companyId,
    userId,
    usageType: call.direction === 'inbound' ? 'inbound_call_minute' : 'outbound_call_minute',
    quantity: minutes,
    idempotencyKey: key,
    details: { to: call.to_number, from: call.from_number, seconds },
    ref: { type: 'call', id: Number(call.id) },
    unitPrice: unitPrice ?? undefined,
  });
  await recordUsage(tx, { companyId, userId, kind: 'voice', quantity: minutes, ref: key });
  if (!r.ok) return r.message;
  await tx.execute(sql`update call_legs set billed_minutes = ${minutes} where id = ${leg.id}`);
  return null;
}

/** jsonb comes back parsed from node-postgres, or as text from PGlite's raw path: both read the same. */
function parseRow(r: { leg: unknown; call: unknown }) {
  const read = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Row;
  return { leg: read(r.leg), call: read(r.call) };
}

export async function handleLegStatus(deps: Deps, tx: Db, p: Record<string, string>) {
  // The leg and its call, both locked, in one statement (the leg first, as before).
  const res = await executeNamed<{ leg: Row; call: Row }>(
    tx,
    'leg_status_lock',
    sql`select to_jsonb(l) as leg, to_jsonb(c) as call from call_legs l join calls c on c.id = l.call_id
        where l.sid = ${p.CallSid} for update`,
  );
  if (!res.rows[0]) return; // a leg we never started (another app on the account): nothing of ours
  const { leg, call } = parseRow(res.rows[0]);
  const status = String(p.CallStatus ?? '');
  const seconds = Number(p.CallDuration ?? 0) || 0;
  await executeNamed(
    tx,
    'leg_status_set',
    // A leg that ended stays ended: a status worked late (drains run side by side) does not bring it back.
    sql`update call_legs set status = case when status = any(${ENDED}::text[]) then status else ${status} end,
          duration_s = coalesce(${TERMINAL.has(status) ? seconds : null}::int, duration_s)
        where id = ${leg.id}`,
  );
  let warning: string | null = null;
  // The browser hears of the call when this status changed it; a status that changes nothing (a late or repeated
  // one, most of the browser leg's) publishes nothing.
  let changed = true;
  if (leg.kind === 'carrier') {
    if (status === 'ringing' && call.status === 'initiated') {
      await executeNamed(tx, 'call_ringing', sql`update calls set status = 'ringing' where id = ${call.id}`);
    } else if (status === 'in-progress' && !TERMINAL.has(String(call.status))) {
      await executeNamed(
        tx,
        'call_answered',
        sql`update calls set status = 'in-progress', answered_at = coalesce(answered_at, now()) where id = ${call.id}`,
      );
    } else if (TERMINAL.has(status)) {
      warning = await billLeg(deps, tx, call, leg, seconds);
      const timeLimited = call.max_seconds != null && seconds >= Number(call.max_seconds);
      const cut = timeLimited ? 'The call was ended: your minutes or wallet balance ran out.' : null;
      const sipCode = Number(p.SipResponseCode ?? 0);
      await executeNamed(
        tx,
        'call_ended',
        sql`update calls set status = case when answered_at is not null or ${status} = 'completed' then 'completed'
              else ${status} end,
            ended_at = coalesce(ended_at, now()), duration_s = ${seconds},
            error_code = case ${status} when 'busy' then 31486 when 'no-answer' then 31480
              when 'failed' then ${sipCode === 603 ? 31603 : 31000} else error_code end,
            warning = coalesce(${warning ?? cut}, warning)
          where id = ${call.id}`,
      );
      warning = warning ?? cut;
    } else changed = false;
  } else if (TERMINAL.has(status) && !TERMINAL.has(String(call.status))) {
    // The agent's browser leg ended first (hung up before the carrier answered, or rejected an inbound call).
    await tx.execute(
      sql`update calls set status = case when answered_at is null then 'canceled' else 'completed' end,
            ended_at = coalesce(ended_at, now())
          where id = ${call.id}`,
    );
  } else changed = false;
  if (changed) await publishCall(deps, tx, Number(call.company_id), Number(call.id), warning);
}

export async function handleConference(tx: Db, p: Record<string, string>) {
  const m = /^call-(\d{1,18})$/.exec(p.FriendlyName ?? '');
  if (!m || !p.ConferenceSid) return;
  if (p.StatusCallbackEvent === 'conference-start') {
    await tx.execute(sql`update calls set room = ${p.ConferenceSid} where id = ${Number(m[1])} and room is null`);
  }
}

/** A finished recording of a call, from either provider (Twilio's callback, the lab's relay). */
export interface FinishedRecording {
  companyId: number;
  callId: number;
  /** The provider's id of the recording: it is kept once. */
  sid: string;
  durationS: number | null;
  /** Fetches the audio (WAV); a failure throws, and the webhook job tries again later with nothing kept. */
  download: () => Promise<Buffer>;
}

/**
 * Keeps a finished recording: downloaded once and put through the storage port under
 * `calls/<company>/<call>/<recording>`, with retain_until ten years on. A replayed callback finds it kept and
 * fetches nothing; a download that fails throws before anything is written, so the retry starts clean.
 */
export async function keepRecording(deps: Deps, tx: Db, r: FinishedRecording) {
  const seen = await tx.execute(
    sql`select 1 from call_recordings where company_id = ${r.companyId} and provider_sid = ${r.sid}`,
  );
  if (seen.rows.length) return;
  const audio = await r.download();
  const key = `calls/${r.companyId}/${r.callId}/${r.sid.toLowerCase().replace(/[^a-z0-9]/g, '')}`;
  await deps.storage.put(key, audio, 'audio/wav');
  await tx.execute(
    sql`insert into call_recordings (company_id, call_id, provider_sid, storage_key, content_type, duration_s, retain_until)
        values (${r.companyId}, ${r.callId}, ${r.sid}, ${key}, 'audio/wav', ${r.durationS},
          now() + make_interval(years => ${RECORDING_RETENTION_YEARS}))
        on conflict (provider_sid) do nothing`,
  );
}

/** Twilio's recording callback: the call is found by its conference or one of its legs. */
export async function storeRecording(
  deps: Deps,
  tx: Db,
  p: Record<string, string>,
  download: (url: string) => Promise<Buffer>,
) {
  if (p.RecordingStatus && p.RecordingStatus !== 'completed') return;
  const res = await tx.execute<Row>(
    sql`select c.id, c.company_id from calls c
        where c.provider = 'twilio' and (c.room = ${p.ConferenceSid ?? ''}
          or c.id in (select call_id from call_legs where sid = ${p.CallSid ?? ''}))`,
  );
  const call = res.rows[0];
  if (!call || !p.RecordingSid || !p.RecordingUrl) return;
  await keepRecording(deps, tx, {
    companyId: Number(call.company_id),
    callId: Number(call.id),
    sid: p.RecordingSid,
    durationS: Number(p.RecordingDuration ?? 0) || null,
    download: () => download(p.RecordingUrl),
  });
}
