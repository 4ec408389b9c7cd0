/**
 * Sending one text (docs/decisions/sms-sending.md). Everything that can refuse it is asked before anything leaves:
 * consent at send time, the line type (a landline never gets a text), the plan's monthly allocation, the sender
 * number and its A2P registration, and the wallet, which is debited in the same transaction that stores the row
 * (key `sms:<message id>`), so a text is either stored and paid, or neither. Then the carrier is asked once; a
 * temporary refusal leaves the row queued for the `sms.send` job, which asks again (never a second row).
 */
import { formatPhone, type LineType, QUOTA_MESSAGES, smsSegments } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { type AcceptedText, MessagingError, toE164 } from '../../integrations/twilio/messaging.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError } from '../../platform/http/errors.js';
import { checkConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { checkSmsAllocation, reserveUsage } from '../usage-plans/enforcement.js';
import { chargeUsageWithin } from '../wallet/usage.js';
import { senderNumber } from './numbers.js';
import { failUntaken } from './refund.js';
import { loadMessage, touchConversation } from './store.js';

export const SMS_SEND_JOB = 'sms.send';
/** A line type looked up this recently is trusted (numbers move between carriers and kinds, but rarely). */
const LOOKUP_FRESH_DAYS = 90;

export interface TextRequest {
  companyId: number;
  userId: number;
  /** null: a test text to the sender's own phone (no contact, no consent to ask). */
  contactId: number | null;
  /** 11 digits. */
  phone: string;
  body: string;
  media?: Array<{ url: string; content_type: string }>;
  triggerId?: number | null;
  purpose?: 'conversation' | 'marketing';
}

class Refused extends Error {
  constructor(
    readonly field: string,
    message: string,
    readonly status = 422,
  ) {
    super(message);
  }
}

export const statusCallbackUrl = (deps: Deps) => `${deps.config.appUrl}/v1/webhooks/twilio/sms-status`;

/** The line type of a number: a recent lookup, or the carrier's answer now (recorded as a phone verification). */
export async function lineTypeOf(
  deps: Deps,
  who: { companyId: number; userId: number | null; contactId?: number | null },
  phone: string,
): Promise<LineType> {
  const db = deps.database.db;
  const [known] = await rowsOf<{ line_type: LineType }>(
    db,
    sql`select line_type from phone_verifications where company_id = ${who.companyId} and phone = ${phone}
      and created_at > now() - make_interval(days => ${LOOKUP_FRESH_DAYS}) order by created_at desc limit 1`,
  );
  if (known) return known.line_type;
  const e164 = toE164(phone);
  const found = e164 ? await deps.messaging.port.lookup(e164) : { lineType: 'invalid' as const, carrier: null };
  await db.execute(
    sql`insert into phone_verifications (company_id, user_id, contact_id, phone, line_type, carrier)
      values (${who.companyId}, ${who.userId}, ${who.contactId ?? null}, ${phone}, ${found.lineType}, ${found.carrier})`,
  );
  return found.lineType;
}

/** Stores, pays and sends one text; answers the stored message, or throws a 4xx naming what refused it. */
export async function sendText(deps: Deps, r: TextRequest) {
  const db = deps.database.db;
  const media = r.media ?? [];
  const mms = media.length > 0;
  const segments = Math.max(1, smsSegments(r.body).segments);
  const e164 = toE164(r.phone);
  try {
    if (!e164) throw new Refused('message_to', 'is not a valid phone number');
    const [verdict] = r.contactId
      ? await checkConsent(db, {
          companyId: r.companyId,
          channel: 'sms',
          purpose: r.purpose ?? 'conversation',
          senderId: r.userId,
          contactIds: [r.contactId],
        })
      : [{ allowed: true, reason: null, basis: 'test:own_phone' }];
    if (!verdict?.allowed) {
      const why =
        verdict?.reason === 'opted_out' ? 'opted out of texts' : `cannot be texted (${verdict?.reason ?? 'no record'})`;
      throw new Refused('message_to', `This contact ${why}; nothing was sent`);
    }
    const line = await lineTypeOf(deps, { companyId: r.companyId, userId: r.userId, contactId: r.contactId }, r.phone);
    if (line === 'landline' || line === 'invalid') {
      throw new Refused(
        'message_to',
        `${formatPhone(r.phone)} is a ${line === 'landline' ? 'landline' : 'invalid number'}; texts cannot reach it`,
      );
    }
    const quota = await checkSmsAllocation(db, {
      companyId: r.companyId,
      userId: r.userId,
      quantity: mms ? 1 : segments,
    });
    if (!quota.ok) throw new Refused('user', quota.message ?? quota.code, 403);
    const from = await senderNumber(deps, r.companyId, r.userId);
    if (!from.ok) throw new Refused('user', from.message, from.status);
    const id = await db.transaction(async (tx) => {
      const [row] = await rowsOf<{ id: number }>(
        tx,
        sql`insert into sms_messages (company_id, contact_id, user_id, direction, from_phone, to_phone, body, media,
            segments, status, campaign_trigger_id, consent_basis)
          values (${r.companyId}, ${r.contactId}, ${r.userId}, 'outbound', ${from.phone}, ${r.phone}, ${r.body},
            ${JSON.stringify(media)}::jsonb, ${segments}, 'queued', ${r.triggerId ?? null}, ${verdict.basis})
          returning id`,
      );
      // The plan's units are held before the money is taken: two sends at once never pass the allocation together.
      const held = await reserveUsage(tx, {
        companyId: r.companyId,
        userId: r.userId,
        kind: 'sms',
        quantity: mms ? 1 : segments,
        ref: `msg:${row.id}`,
        allocation: quota.coverage?.allocation ?? null,
      });
      if (!held.reserved) throw new Refused('user', QUOTA_MESSAGES.sms, 403);
      const charge = await chargeUsageWithin(deps, tx, {
        companyId: r.companyId,
        userId: r.userId,
        usageType: mms ? 'mms' : 'sms',
        quantity: mms ? 1 : segments,
        idempotencyKey: `sms:${row.id}`,
        description: `Text to ${formatPhone(r.phone)}${mms ? ' (picture)' : segments > 1 ? `, ${segments} segments` : ''}`,
        details: { to: r.phone, segments },
        ref: { type: 'sms_message', id: row.id },
        unitPrice: quota.unitPrice ?? undefined,
      });
      if (!charge.ok) throw new Refused('wallet', charge.message, 402);
      await tx.execute(sql`update sms_messages set charged_cents = ${charge.amount} where id = ${row.id}`);
      await touchConversation(tx, {
        id: row.id,
        companyId: r.companyId,
        contactId: r.contactId,
        phone: r.phone,
        body: r.body,
        direction: 'outbound',
      });
      return row.id;
    });
    await handToCarrier(deps, id);
    return (await loadMessage(db, id))!;
  } catch (err) {
    if (err instanceof Refused) throw new HttpError(err.status, { [err.field]: [err.message] });
    throw err;
  }
}

/** A test text to the sender's own phone: every check of a text but consent (it is their own number). */
export function sendTestText(deps: Deps, r: { companyId: number; userId: number; phone: string; body: string }) {
  return sendText(deps, { ...r, contactId: null });
}

/**
 * Asks the carrier to send a stored, paid text that has no carrier id yet. A temporary refusal queues the job to ask
 * again; a permanent one marks the text failed. Safe to call twice: only a `queued` row without a sid is sent (the
 * compare-and-set to `sending`), and the sid is stored by compare-and-set. When it is not known whether the carrier
 * took it (no answer came back, or the sid could not be stored, or the process dies here), the row stays `sending`
 * for the reconciler (reconcile.ts), which asks the carrier rather than send again.
 */
export async function handToCarrier(
  deps: Deps,
  id: number,
  db: Db = deps.database.db,
): Promise<'sent' | 'retry' | 'failed' | 'wait' | 'not_queued'> {
  const [m] = await rowsOf<Record<string, unknown>>(
    db,
    sql`update sms_messages set status = 'sending', send_attempts = send_attempts + 1, updated_at = now()
      where id = ${id} and sid is null and status = 'queued' returning *`,
  );
  if (!m) return 'not_queued';
  let sent: AcceptedText;
  try {
    const media = (typeof m.media === 'string' ? JSON.parse(m.media) : m.media) as Array<{ url: string }>;
    sent = await deps.messaging.port.send({
      to: `+${m.to_phone}`,
      from: `+${m.from_phone}`,
      body: String(m.body),
      mediaUrls: media.map((x) => x.url),
      statusCallback: statusCallbackUrl(deps),
    });
  } catch (err) {
    const e = err instanceof MessagingError ? err : new MessagingError((err as Error).message, null, true, true);
    if (e.ambiguous) {
      await db.execute(sql`update sms_messages set error_message = ${e.message} where id = ${id}`);
      return 'wait';
    }
    if (e.temporary && Number(m.send_attempts) < 6) {
      await db.execute(sql`update sms_messages set status = 'queued', error_message = ${e.message} where id = ${id}`);
      await deps.jobs.enqueue(
        SMS_SEND_JOB,
        { id },
        {
          uniqueKey: `sms:${id}:${m.send_attempts}`,
          companyId: Number(m.company_id),
          runAt: new Date(Date.now() + 2000 * Number(m.send_attempts)),
        },
      );
      return 'retry';
    }
    // The carrier refused it: never taken, so never billed; the debit goes back with the failure.
    await failUntaken(deps, id, { message: e.message, code: e.code });
    return 'failed';
  }
  // Taken: from here on a failure must not send again (it throws; the row stays `sending` for the reconciler).
  await db.execute(
    sql`update sms_messages set sid = ${sent.sid}, error_message = null, updated_at = now() where id = ${id} and sid is null`,
  );
  return 'sent';
}
