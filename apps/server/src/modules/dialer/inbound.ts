/**
 * A call in to an agent's number, whichever provider carries it (Twilio's inbound TwiML, the lab's inbound
 * INVITE): the dialed number names the agent (its last ten digits against each verified dialer number's), the
 * caller's number is matched to the contacts the agent reaches, the call is written ringing with the carrier's leg,
 * and the call event goes to the agent's call channel (the screen pop, spec §6).
 */
import { CALLS_CHANNEL, normalizeInbound, resolveFeatures } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Deps } from '../../platform/deps.js';
import { publishLive } from '../../platform/live/publish.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { callsStream } from './events.js';
import { contactsByPhone } from './queries.js';

type Row = Record<string, unknown>;

export interface InboundLeg {
  from: string;
  to: string;
  /** The carrier leg's id at the provider (Twilio CallSid, the lab's SIP Call-ID). */
  sid: string;
  provider: 'twilio' | 'sip';
  /** The provider's handle on the call when it is known at once (the lab: the SIP Call-ID). */
  room?: string | null;
  city?: string | null;
  state?: string | null;
}

export type InboundResult =
  | { kind: 'ringing'; callId: number; agentId: number; companyId: number; record: boolean }
  | { kind: 'busy' }
  | { kind: 'not-in-service' };

export async function receiveInbound(deps: Deps, leg: InboundLeg): Promise<InboundResult> {
  const db = deps.database.db;
  const dialed = normalizeInbound(leg.to).replace(/\D/g, '').slice(-10);
  if (dialed.length < 10) return { kind: 'not-in-service' };
  const agents = await db.execute<Row>(
    sql`select u.id, u.company_id, u.roles, u.business_unit_id, u.features, co.features as company_features
        from users u join companies co on co.id = u.company_id where u.deleted_at is null
          and right(regexp_replace(coalesce(u.dialer_verified_phone_number, ''), '[^0-9]', '', 'g'), 10) = ${dialed}
        order by u.id limit 1`,
  );
  const agent = agents.rows[0];
  if (!agent) return { kind: 'not-in-service' };
  const companyId = Number(agent.company_id);
  const reacher = {
    company: { id: companyId },
    user: {
      id: Number(agent.id),
      companyId,
      roles: agent.roles as string[],
      businessUnitId: (agent.business_unit_id as number | null) ?? null,
    },
  } as unknown as AuthContext;
  // Recorded or not by the agent's Record calls flag (docs/decisions/call-recording-setting.md).
  const record = resolveFeatures(
    (agent.company_features ?? {}) as Record<string, boolean>,
    (agent.features ?? {}) as Record<string, boolean>,
  ).call_recording;
  const matches = await contactsByPhone(db, companyId, leg.from, visibleContactsSql(reacher));
  const inserted = await db.execute<{ id: number }>(
    sql`insert into calls (company_id, user_id, contact_id, direction, from_number, to_number, caller_city, caller_state,
          provider, recording, status, room)
        values (${companyId}, ${agent.id}, ${matches.length === 1 ? matches[0].id : null}, 'inbound',
          ${normalizeInbound(leg.from)}, ${dialed}, ${leg.city || null}, ${leg.state || null}, ${leg.provider},
          ${record ? 'recording' : 'off'}, 'ringing', ${leg.room ?? null})
        on conflict do nothing returning id`,
  );
  const callId = inserted.rows[0]?.id;
  // The agent is on another call: the caller hears busy (spec: 'Device busy').
  if (!callId) return { kind: 'busy' };
  await db.execute(
    sql`insert into call_legs (company_id, call_id, sid, kind) values (${companyId}, ${callId}, ${leg.sid}, 'carrier')
        on conflict (sid) do nothing`,
  );
  await publishLive(deps.bus, CALLS_CHANNEL, callsStream(Number(agent.id)), {
    type: 'incoming_call',
    call_id: Number(callId),
    phone_number: normalizeInbound(leg.from),
    contact_numbers: matches.map((m) => m.number),
  });
  return { kind: 'ringing', callId: Number(callId), agentId: Number(agent.id), companyId, record };
}
