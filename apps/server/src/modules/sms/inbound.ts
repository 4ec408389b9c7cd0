/**
 * What the carrier tells us (signed, deduplicated by the webhook ingress on (MessageSid, status) and on the inbound
 * MessageSid): status callbacks move a text's status forward only; an inbound text is stored once (unique sid),
 * joins its contact's conversation, is read for an opt-out or opt-in (opt-out.ts: recorded on the consent record at
 * once, with one confirmation), and reaches the agent live on the SMS channel.
 */
import { formatPhone, type SmsStatus } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import type { StoredWebhookEvent } from '../../platform/webhooks/ingress.js';
import { recordConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { classifyReply, START_CONFIRMATION, STOP_CONFIRMATION } from './opt-out.js';
import { handToCarrier } from './send.js';
import { loadMessage, publishSms, SMS_RANK, touchConversation } from './store.js';

export const SMS_CONFIRM_JOB = 'sms.confirm';
const digits = (v: unknown) => String(v ?? '').replace(/\D/g, '');

/** Twilio's error codes a person can act on; others show the carrier's code. */
const ERRORS: Record<number, string> = {
  30003: 'Unreachable destination (phone off or out of service)',
  30004: 'Message blocked by the recipient or carrier',
  30005: 'Unknown destination number',
  30006: 'Landline or unreachable carrier',
  30007: 'Filtered by the carrier as spam',
  30008: 'Unknown carrier error',
};
export const carrierErrorLabel = (code: number) => ERRORS[code] ?? `Carrier error ${code}`;

export function statusHandler(deps: Deps) {
  return async (event: StoredWebhookEvent, tx: Db) => {
    const p = event.payload as Record<string, string>;
    const sid = String(p.MessageSid ?? '');
    const status = String(p.MessageStatus ?? p.SmsStatus ?? '') as SmsStatus;
    if (SMS_RANK.rank(status) < 0) return; // accepted, scheduled, read...: nothing we track
    const code = p.ErrorCode ? Number(p.ErrorCode) : null;
    // Forward only, in the one statement that finds the text (most callbacks move it: one round trip, not two).
    const [m] = await rowsOf<{ id: number; company_id: number; user_id: number | null; contact_id: number | null }>(
      tx,
      sql`update sms_messages set status = ${status}, updated_at = now()
          ${code ? sql`, error_code = ${code}, error_message = ${carrierErrorLabel(code)}` : sql``}
        where sid = ${sid} and ${SMS_RANK.rankSql(sql`status`)} < ${SMS_RANK.rank(status)}::int
        returning id, company_id, user_id, contact_id`,
    );
    if (!m) {
      const [known] = await rowsOf(tx, sql`select 1 from sms_messages where sid = ${sid}`);
      if (known) return; // a repeat, or a status behind the one it has
      // The callback can overtake the reply that stored the sid (or a cut-off send the reconciler has yet to adopt):
      // the job retries shortly.
      if (Date.now() - event.receivedAt.getTime() < 10 * 60_000) throw new Error(`MessageSid ${sid} is not stored yet`);
      return;
    }
    // A text that could not reach a landline tells us its line type: the next send is refused before leaving.
    if (code === 30006) {
      await tx.execute(
        sql`insert into phone_verifications (company_id, user_id, contact_id, phone, line_type, carrier)
          select company_id, user_id, contact_id, to_phone, 'landline', null from sms_messages where id = ${m.id}`,
      );
    }
    publishSms(deps, [m.user_id], async () => {
      const msg = await loadMessage(deps.database.db, Number(m.id));
      if (!msg || SMS_RANK.rank(msg.status) < SMS_RANK.rank(status)) return null;
      return {
        type: 'sms_status',
        id: msg.id,
        contact_id: msg.contact_id,
        status: msg.status,
        error_code: msg.error_code,
        error_message: msg.error_message,
      };
    });
  };
}

export function inboundHandler(deps: Deps) {
  return async (event: StoredWebhookEvent, tx: Db) => {
    const p = event.payload as Record<string, string>;
    const from = digits(p.From);
    const to = digits(p.To);
    const [n] = await rowsOf<{ company_id: number; user_id: number | null }>(
      tx,
      sql`select company_id::int as company_id, user_id::int as user_id from sms_numbers where phone = ${to} and released_at is null`,
    );
    if (!n) return; // not one of our numbers (released): nothing to file it under
    const companyId = Number(n.company_id);
    // The contact with this number: the number owner's own first, then the most recently changed.
    // Ids cast to int: the PostgreSQL server's driver hands bigint columns over as strings (PGlite as numbers), and
    // the live message's schema, like the user ids it is published to, wants numbers.
    const [c] = await rowsOf<{ id: number; owner_id: number | null; name: string }>(
      tx,
      sql`select id::int as id, owner_id::int as owner_id, trim(first_name || ' ' || last_name) as name from contacts
        where company_id = ${companyId} and deleted_at is null and (phone = ${from} or secondary_phone = ${from})
        order by (owner_id is not distinct from ${n.user_id}) desc, updated_at desc limit 1`,
    );
    const media = Array.from({ length: Math.min(10, Number(p.NumMedia ?? 0) || 0) }, (_, i) => ({
      url: String(p[`MediaUrl${i}`] ?? ''),
      content_type: String(p[`MediaContentType${i}`] ?? 'application/octet-stream'),
    })).filter((x) => x.url);
    const body = String(p.Body ?? '');
    const intent = classifyReply(body);
    let change: 'opted_out' | 'opted_in' | null = null;
    if (intent === 'stop' || intent === 'start') {
      const r = await recordConsent(tx, {
        companyId,
        channel: 'sms',
        status: intent === 'stop' ? 'opted_out' : 'allowed',
        source: 'reply',
        detail: `Replied "${body.slice(0, 120)}" to ${formatPhone(to)}`,
        address: from,
      });
      if (r.changed.length || r.addressChanged) change = intent === 'stop' ? 'opted_out' : 'opted_in';
    }
    const owner = n.user_id ?? c?.owner_id ?? null;
    const [m] = await rowsOf<{ id: number }>(
      tx,
      sql`insert into sms_messages (company_id, contact_id, user_id, direction, from_phone, to_phone, body, media,
          segments, status, sid, flagged, consent_change)
        values (${companyId}, ${c?.id ?? null}, ${owner}, 'inbound', ${from}, ${to}, ${body}, ${JSON.stringify(media)}::jsonb,
          ${Number(p.NumSegments) || 1}, 'received', ${String(p.MessageSid)}, ${intent === 'ambiguous'}, ${change})
        on conflict (sid) do nothing returning id`,
    );
    if (!m) return; // the same message again
    await touchConversation(tx, {
      id: m.id,
      companyId,
      contactId: c?.id ?? null,
      phone: from,
      body,
      direction: 'inbound',
      flagged: intent === 'ambiguous',
    });
    if (change) {
      // One confirmation, sent after this commits (a durable job: it survives a restart).
      await deps.jobs.enqueue(
        SMS_CONFIRM_JOB,
        { inbound_id: m.id, text: change === 'opted_out' ? STOP_CONFIRMATION : START_CONFIRMATION },
        { db: tx, uniqueKey: `sms-confirm:${m.id}`, companyId },
      );
    }
    publishSms(deps, [owner, c?.owner_id], async () => {
      const msg = await loadMessage(deps.database.db, m.id);
      if (!msg) return null;
      return {
        type: 'sms_inbound',
        phone_number: formatPhone(from),
        contact_id: c?.id ?? null,
        contact_name: c?.name || null,
        message: msg,
      };
    });
  };
}

/**
 * The confirmation of an opt-out or opt-in: from the number the reply reached, not charged to anyone's wallet (the
 * law asks for it), stored in the conversation. Consent is not asked: this one message is what the person is owed.
 */
export function confirmJob(deps: Deps) {
  return async ({ job }: { job: { payload: Record<string, unknown> } }) => {
    const db = deps.database.db;
    const inboundId = Number(job.payload.inbound_id);
    const [i] = await rowsOf<Record<string, unknown>>(db, sql`select * from sms_messages where id = ${inboundId}`);
    if (!i) return;
    const key = `confirm:${inboundId}`;
    const [row] = await rowsOf<{ id: number }>(
      db,
      sql`insert into sms_messages (company_id, contact_id, user_id, direction, from_phone, to_phone, body, segments, status, consent_basis)
        select ${i.company_id}, ${i.contact_id}, ${i.user_id}, 'outbound', ${i.to_phone}, ${i.from_phone}, ${String(job.payload.text)}, 1, 'queued', ${key}
        where not exists (select 1 from sms_messages where consent_basis = ${key} and company_id = ${i.company_id})
        returning id`,
    );
    const id =
      row?.id ??
      (
        await rowsOf<{ id: number }>(
          db,
          sql`select id from sms_messages where consent_basis = ${key} and company_id = ${i.company_id}`,
        )
      )[0]?.id;
    if (!id) return;
    if (row) {
      await touchConversation(db, {
        id: row.id,
        companyId: Number(i.company_id),
        contactId: (i.contact_id as number) ?? null,
        phone: String(i.from_phone),
        body: String(job.payload.text),
        direction: 'outbound',
      });
    }
    await handToCarrier(deps, Number(id));
  };
}
