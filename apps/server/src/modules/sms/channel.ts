/**
 * Texts as a broadcast channel (modules/broadcasts): consent is asked by the machinery per batch at send time; this
 * channel adds what is particular to texts. A landline or invalid number gets nothing; a recipient in their quiet
 * hours waits for 8 a.m. their time; one message row per (broadcast, contact), debited once (`sms:<message id>`)
 * and handed to the carrier once (handToCarrier's compare-and-set), so a restarted job never sends or charges twice.
 */
import { QUOTA_MESSAGES, smsSegments } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import type { BroadcastChannelDef, OutgoingRecipient, SendOutcome } from '../broadcasts/channels.js';
import { rowsOf } from '../contacts/list-scope.js';
import { checkSmsAllocation, releaseUsage, reserveUsage } from '../usage-plans/enforcement.js';
import { chargeUsage } from '../wallet/usage.js';
import { senderNumber } from './numbers.js';
import { quietUntil, zoneOfState } from './quiet-hours.js';
import { reconcileMessage } from './reconcile.js';
import { handToCarrier, lineTypeOf } from './send.js';
import { touchConversation } from './store.js';

/** Recipients in flight at once, per broadcast job. */
const PARALLEL = 16;

export interface SmsContent {
  body: string;
  segments: number;
  trigger_id?: number | null;
}

export function smsChannel(deps: Deps): BroadcastChannelDef {
  const db = deps.database.db;
  return {
    channel: 'sms',
    throttle: () => ({ key: `sms:${deps.messaging.port.kind}`, rule: { perSecond: deps.config.sms.ratePerSecond } }),
    async contentFor(_companyId, trigger) {
      if (!trigger.body?.trim()) return null;
      const content: SmsContent = {
        body: trigger.body.trim(),
        segments: Math.max(1, smsSegments(trigger.body).segments),
        trigger_id: trigger.id,
      };
      return { content: { ...content }, title: trigger.name };
    },
    async send({ broadcast, recipients, take }) {
      const c = broadcast.content as unknown as SmsContent;
      const ids = recipients.map((r) => r.contactId);
      const states = new Map(
        (
          await rowsOf<{ id: number; state: string | null }>(
            db,
            sql`select id, state from contacts where id = any(${sql.param(ids)}::bigint[])`,
          )
        ).map((r) => [Number(r.id), r.state]),
      );
      const numbers = new Map<number, Promise<Awaited<ReturnType<typeof senderNumber>>>>();
      const one = async (r: OutgoingRecipient): Promise<SendOutcome> => {
        const now = deps.clock();
        const until = quietUntil(zoneOfState(states.get(r.contactId)), now);
        if (until) {
          // The quiet hours are read on the time-of-day clock (shifted in tests); the queue waits on the real one:
          // a morning 9 hours away on the first is 9 hours away on the second.
          return {
            contactId: r.contactId,
            outcome: 'wait',
            until: new Date(Date.now() + (until.getTime() - now.getTime())),
          };
        }
        const line = await lineTypeOf(
          deps,
          { companyId: broadcast.companyId, userId: r.senderId, contactId: r.contactId },
          r.address,
        );
        if (line === 'landline' || line === 'invalid') {
          return { contactId: r.contactId, outcome: 'failed', error: line };
        }
        if (!numbers.has(r.senderId)) numbers.set(r.senderId, senderNumber(deps, broadcast.companyId, r.senderId));
        const from = await numbers.get(r.senderId)!;
        if (!from.ok) {
          return { contactId: r.contactId, outcome: 'failed', error: from.message };
        }
        let [m] = await rowsOf<{
          id: number;
          sid: string | null;
          status: string;
          charged_cents: number;
          updated_at: string;
        }>(
          db,
          sql`with ins as (
              insert into sms_messages (company_id, contact_id, user_id, direction, from_phone, to_phone, body, segments,
                status, broadcast_id, campaign_trigger_id, consent_basis)
              values (${broadcast.companyId}, ${r.contactId}, ${r.senderId}, 'outbound', ${from.phone}, ${r.address}, ${c.body},
                ${c.segments}, 'queued', ${broadcast.id}, ${c.trigger_id ?? null}, ${r.basis})
              on conflict (broadcast_id, contact_id) where broadcast_id is not null do nothing
              returning id, sid, status, charged_cents, updated_at)
            select * from ins union all
            select id, sid, status, charged_cents, updated_at from sms_messages where broadcast_id = ${broadcast.id} and contact_id = ${r.contactId}
            limit 1`,
        );
        // Cut off mid-send by an earlier run (a killed process): settled with the carrier, never simply sent again.
        if (
          m.status === 'sending' &&
          Date.now() - new Date(m.updated_at).getTime() > deps.config.sms.reconcileAfterMs &&
          (await reconcileMessage(deps, m.id)) !== 'unchanged'
        ) {
          [m] = await rowsOf<typeof m>(
            db,
            sql`select id, sid, status, charged_cents, updated_at from sms_messages where id = ${m.id}`,
          );
        }
        if (m.sid) {
          return { contactId: r.contactId, outcome: 'sent' };
        }
        if (m.status === 'failed') {
          return { contactId: r.contactId, outcome: 'failed' };
        }
        if (!m.charged_cents) {
          const quota = await checkSmsAllocation(db, {
            companyId: broadcast.companyId,
            userId: r.senderId,
            quantity: c.segments,
          });
          // The plan's units are held before the money is taken (16 recipients are in flight at once: a check alone
          // let them all pass the allocation together); a resumed run finds its own reservation by the ref.
          const usage = { companyId: broadcast.companyId, kind: 'sms' as const, ref: `msg:${m.id}` };
          const held = quota.ok
            ? await reserveUsage(db, {
                ...usage,
                userId: r.senderId,
                quantity: c.segments,
                allocation: quota.coverage?.allocation ?? null,
              })
            : null;
          const charge = held?.reserved
            ? await chargeUsage(deps, {
                companyId: broadcast.companyId,
                userId: r.senderId,
                usageType: 'sms',
                quantity: c.segments,
                idempotencyKey: `sms:${m.id}`,
                details: { to: r.address, segments: c.segments, broadcast_id: broadcast.id },
                ref: { type: 'sms_message', id: m.id },
                unitPrice: quota.unitPrice ?? undefined,
              })
            : null;
          if (!charge?.ok) {
            const why = !quota.ok
              ? (quota.message ?? quota.code)
              : !held?.reserved
                ? QUOTA_MESSAGES.sms
                : charge && !charge.ok
                  ? charge.message
                  : 'not charged';
            if (held?.reserved) await releaseUsage(db, usage);
            await db.execute(sql`update sms_messages set status = 'failed', error_message = ${why} where id = ${m.id}`);
            return { contactId: r.contactId, outcome: 'failed', error: why };
          }
          await db.execute(sql`update sms_messages set charged_cents = ${charge.amount} where id = ${m.id}`);
          await touchConversation(db, {
            id: m.id,
            companyId: broadcast.companyId,
            contactId: r.contactId,
            phone: r.address,
            body: c.body,
            direction: 'outbound',
          });
        }
        await take(1);
        const handed = await handToCarrier(deps, m.id);
        if (handed !== 'not_queued') return { contactId: r.contactId, outcome: handed };
        // Someone else holds it (another run of this broadcast, the reconciler): go by the row.
        const [after] = await rowsOf<{ sid: string | null; status: string }>(
          db,
          sql`select sid, status from sms_messages where id = ${m.id}`,
        );
        return {
          contactId: r.contactId,
          outcome: after.sid
            ? 'sent'
            : after.status === 'failed'
              ? 'failed'
              : after.status === 'sending'
                ? 'wait'
                : 'retry',
        };
      };
      // Several recipients in flight at once: each waits on round trips (database, wallet, carrier), and the
      // ledger's group commit pays many debits of one wallet together; the throttle still paces the carrier.
      const out: SendOutcome[] = new Array(recipients.length);
      let next = 0;
      const worker = async () => {
        while (next < recipients.length) {
          const i = next++;
          out[i] = await one(recipients[i]);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, recipients.length) }, worker));
      return out;
    },
  };
}
