/**
 * Before a dial (docs/decisions/dialer-gates.md), in the order a person can fix them: a configured voice service,
 * a valid number (spec §5: 'Invlaid phone number'), dialer enablement (§4), the quota check (§5: 'Please request
 * additional minutes from your manager.', result 'Over minutes allocated'), the contact's consent (a voice opt-out
 * or a do-not-call suppression blocks), a wallet that pays at least one minute, and no call already active
 * ('A Call is already active'). The call row is written only when all pass; its `max_seconds` is what the wallet
 * and the allocation pay for, and the provider cuts the call there.
 */
import {
  CALL_ALREADY_ACTIVE,
  CALL_TIMEOUT_S,
  dialNumberProblem,
  dialString,
  removalReasonLabel,
  VOICE_NOT_CONFIGURED,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { VoicePort } from '../../integrations/voice/port.js';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError } from '../../platform/http/errors.js';
import { checkConsent } from '../consent/check.js';
import { findVisibleContact } from '../contacts/access.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { checkDialerQuota, dialerEnablement } from '../usage-plans/enforcement.js';
import { affordableQuantity } from '../wallet/usage.js';
import { contactsByPhone } from './queries.js';

export const NO_MINUTE_FUNDS = 'Your wallet balance does not cover a minute of calling. Please top up your wallet.';

export const identityOf = (userId: number) => `harbor-u${userId}`;
export const userOfIdentity = (identity: string) => {
  const m = /^(?:client:)?harbor-u(\d{1,10})$/.exec(identity);
  return m ? Number(m[1]) : null;
};

/**
 * Calls left live by a browser that went away (no status ever came): unanswered past the ring timeout, or past the
 * length they were allowed. They end as failed so the person can dial again.
 */
export function sweepStaleSql(userId: number) {
  return sql`update calls set status = 'failed', ended_at = now(), warning = coalesce(warning, 'No word from the call')
    where user_id = ${userId} and status in ('initiated', 'ringing', 'in-progress')
      and ((answered_at is null and created_at < now() - make_interval(secs => ${CALL_TIMEOUT_S + 30}))
        or (answered_at is not null and answered_at < now() - make_interval(secs => coalesce(max_seconds, 14400) + 120)))`;
}

export async function startOutbound(
  deps: Deps,
  voice: VoicePort,
  auth: AuthContext,
  body: { to: string; contact_number?: number },
) {
  const db = deps.database.db;
  if (voice.provider === 'none') throw new HttpError(503, { user: [VOICE_NOT_CONFIGURED] });
  const problem = dialNumberProblem(body.to);
  if (problem) throw new HttpError(422, { to: [problem] });
  const to = dialString(body.to);
  const who = { companyId: auth.company.id, userId: auth.user.id };
  const enablement = await dialerEnablement(db, who);
  if (!enablement.enabled) throw new HttpError(403, { dialer: enablement.messages });
  const quota = await checkDialerQuota(db, who);
  if (!quota.ok) {
    const message = quota.message ?? quota.code;
    // `dialer` as well: the web client shows any 403 as 'Access denied!' under `user`; the softphone reads `dialer`.
    throw new HttpError(403, { user: [message], dialer: [message], result: [quota.code] });
  }

  const contact = body.contact_number
    ? await findVisibleContact(db, auth, body.contact_number)
    : ((await contactsByPhone(db, auth.company.id, to, visibleContactsSql(auth), 1))[0] ?? null);
  if (contact) {
    const [verdict] = await checkConsent(db, {
      companyId: auth.company.id,
      channel: 'voice',
      // A call the agent places by hand to one person: opt-out based, as any conversation.
      purpose: 'conversation',
      senderId: auth.user.id,
      contactIds: [contact.id],
    });
    if (!verdict.allowed && verdict.reason) {
      throw new HttpError(422, { to: [removalReasonLabel(verdict.reason, 'voice')] });
    }
  }
  const unitPrice = quota.unitPrice ?? undefined;
  const affordable = await affordableQuantity(deps, who.companyId, who.userId, 'outbound_call_minute', unitPrice);
  if (affordable < 1) throw new HttpError(402, { wallet: [NO_MINUTE_FUNDS] });
  const minutes = quota.remaining === null ? affordable : Math.min(affordable, quota.remaining);
  const from = (
    await db.execute<{ n: string | null }>(
      sql`select dialer_verified_phone_number as n from users where id = ${auth.user.id}`,
    )
  ).rows[0]?.n;

  return db.transaction(async (tx) => {
    await tx.execute(sweepStaleSql(auth.user.id));
    const res = await tx.execute<{ id: number }>(
      sql`insert into calls (company_id, user_id, contact_id, direction, from_number, to_number, provider, recording,
            max_seconds, status)
          values (${auth.company.id}, ${auth.user.id}, ${contact?.id ?? null}, 'outbound', ${from ?? ''}, ${to},
            ${voice.provider}, ${auth.features.call_recording ? 'recording' : 'off'}, ${minutes * 60}, 'initiated')
          on conflict do nothing returning id`,
    );
    const id = res.rows[0]?.id;
    if (!id) throw new HttpError(409, { user: [CALL_ALREADY_ACTIVE] });
    return { id: Number(id), from: from ?? '', to, maxSeconds: minutes * 60 };
  });
}
