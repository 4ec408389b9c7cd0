/**
 * What the provider says became of a message (SendGrid's event webhook, and the local stand-in speaking it): one log
 * row per message and kind of event (a repeat counts), the message's status moved forward only (EMAIL_RANK), and
 * bounces and spam complaints recorded in the consent record (suppressed address; a complaint is an opt-out).
 * Duplicates never reach here twice: the webhook ingress drops a repeated sg_event_id.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { advanceStatus } from '../../platform/db/status-rank.js';
import type { StoredWebhookEvent } from '../../platform/webhooks/ingress.js';
import { recordConsent, suppressAddresses } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { EMAIL_RANK } from './messages.js';

const STATUS_OF: Record<string, string> = {
  processed: 'sent',
  deferred: 'deferred',
  delivered: 'delivered',
  bounce: 'bounced',
  dropped: 'dropped',
  open: 'opened',
  click: 'clicked',
  spamreport: 'complained',
};
const LOGGED = new Set([...Object.keys(STATUS_OF), 'unsubscribe', 'group_unsubscribe']);

interface MessageRow {
  id: number;
  company_id: number;
  contact_id: number;
  to_address: string;
  sender_id: number;
}

/** The events this module tracks, with their message id; null for one that is not ours or not tracked. */
function tracked(event: StoredWebhookEvent) {
  const p = event.payload;
  const messageId = Number(p.harbor_message_id);
  const kind = String(p.event);
  if (!Number.isInteger(messageId) || messageId <= 0 || !LOGGED.has(kind)) return null;
  const at = new Date((Number(p.timestamp) || Math.floor(event.receivedAt.getTime() / 1000)) * 1000);
  const detail = [p.reason, p.response, p.url, p.status].filter((x) => typeof x === 'string' && x).join(' · ') || null;
  return { event, messageId, kind, at, detail };
}

export async function handleEmailEvent(event: StoredWebhookEvent, tx: Db) {
  const t = tracked(event);
  if (!t) return;
  const [m] = await rowsOf<MessageRow>(
    tx,
    sql`select id, company_id, contact_id, to_address, sender_id from email_messages where id = ${t.messageId}
      ${event.companyId ? sql`and company_id = ${event.companyId}` : sql``}`,
  );
  if (!m) return;
  const at = t.at.toISOString();
  await tx.execute(
    sql`insert into email_events (company_id, message_id, contact_id, event, detail, first_at, last_at)
      values (${m.company_id}, ${m.id}, ${m.contact_id}, ${t.kind}, ${t.detail}, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (message_id, event) do update set count = email_events.count + 1,
        first_at = least(email_events.first_at, excluded.first_at), last_at = greatest(email_events.last_at, excluded.last_at)`,
  );
  const status = STATUS_OF[t.kind];
  if (status) {
    await advanceStatus(tx, {
      table: 'email_messages',
      id: m.id,
      companyId: Number(m.company_id),
      rank: EMAIL_RANK,
      to: status,
      set: { updated_at: new Date() },
    });
  }
  await consentEffects(tx, m, t.kind, event.payload, t.detail);
}

/**
 * A drained batch in four statements whatever its size (the ingress falls back to handleEmailEvent, one by one, if
 * it throws): the messages, the log rows (a repeat within the batch counts as the repeat it is), each message's
 * status moved to the highest its events reach, and only for the rare bounce, complaint and unsubscribe the consent
 * record. Event by event it was three statements an event, two or three events a message: the largest part of a
 * broadcast's database work (bench/email.ts).
 */
export async function handleEmailEvents(events: StoredWebhookEvent[], tx: Db) {
  const list = events.map(tracked).filter((t) => t !== null);
  if (!list.length) return undefined;
  const ids = [...new Set(list.map((t) => t.messageId))];
  const rows = await rowsOf<MessageRow>(
    tx,
    sql`select id, company_id, contact_id, to_address, sender_id from email_messages
      where id = any(${sql.param(ids)}::bigint[])`,
  );
  const byId = new Map(rows.map((m) => [Number(m.id), m]));
  const logs = new Map<
    string,
    { m: MessageRow; kind: string; n: number; first: Date; last: Date; detail: string | null }
  >();
  const best = new Map<number, { m: MessageRow; status: string }>();
  const rare: Array<{ m: MessageRow; t: NonNullable<ReturnType<typeof tracked>> }> = [];
  for (const t of list) {
    const m = byId.get(t.messageId);
    if (!m || (t.event.companyId && Number(m.company_id) !== t.event.companyId)) continue;
    const key = `${t.messageId}:${t.kind}`;
    const log = logs.get(key);
    if (!log) logs.set(key, { m, kind: t.kind, n: 1, first: t.at, last: t.at, detail: t.detail });
    else {
      log.n++;
      if (t.at < log.first) log.first = t.at;
      if (t.at > log.last) log.last = t.at;
    }
    const status = STATUS_OF[t.kind];
    const now = best.get(t.messageId);
    if (status && (!now || EMAIL_RANK.rank(status) > EMAIL_RANK.rank(now.status))) best.set(t.messageId, { m, status });
    if (RARE.has(t.kind)) rare.push({ m, t });
  }
  if (logs.size) {
    const l = [...logs.values()];
    await tx.execute(
      sql`insert into email_events (company_id, message_id, contact_id, event, count, detail, first_at, last_at)
        select * from unnest(${sql.param(l.map((x) => x.m.company_id))}::int[], ${sql.param(l.map((x) => x.m.id))}::bigint[],
          ${sql.param(l.map((x) => x.m.contact_id))}::bigint[], ${sql.param(l.map((x) => x.kind))}::text[],
          ${sql.param(l.map((x) => x.n))}::int[], ${sql.param(l.map((x) => x.detail))}::text[],
          ${sql.param(l.map((x) => x.first.toISOString()))}::timestamptz[], ${sql.param(l.map((x) => x.last.toISOString()))}::timestamptz[])
        on conflict (message_id, event) do update set count = email_events.count + excluded.count,
          first_at = least(email_events.first_at, excluded.first_at), last_at = greatest(email_events.last_at, excluded.last_at)`,
    );
  }
  if (best.size) {
    const b = [...best.values()];
    await tx.execute(
      sql`update email_messages m set status = v.status, updated_at = now()
        from unnest(${sql.param(b.map((x) => x.m.id))}::bigint[], ${sql.param(b.map((x) => x.status))}::text[]) as v(id, status)
        where m.id = v.id and ${EMAIL_RANK.rankSql(sql`m.status`)} < ${EMAIL_RANK.rankSql(sql`v.status`)}`,
    );
  }
  for (const { m, t } of rare) await consentEffects(tx, m, t.kind, t.event.payload, t.detail);
  return undefined;
}

const RARE = new Set(['bounce', 'dropped', 'spamreport', 'unsubscribe', 'group_unsubscribe']);

/** Bounces suppress the address; a complaint or the provider's unsubscribe is an opt-out on the consent record. */
async function consentEffects(tx: Db, m: MessageRow, kind: string, p: Record<string, unknown>, detail: string | null) {
  const companyId = Number(m.company_id);
  const hardBounce = kind === 'bounce' && p.type !== 'blocked';
  if (hardBounce || (kind === 'dropped' && /bounced address/i.test(String(p.reason ?? '')))) {
    await suppressAddresses(tx, { companyId, channel: 'email', addresses: [m.to_address], reason: 'bounced', detail });
  }
  if (kind === 'spamreport') {
    await suppressAddresses(tx, { companyId, channel: 'email', addresses: [m.to_address], reason: 'complained' });
    await recordConsent(tx, {
      companyId,
      channel: 'email',
      status: 'opted_out',
      source: 'complaint',
      detail: 'Marked an email as spam',
      address: m.to_address,
    });
  }
  if (kind === 'unsubscribe' || kind === 'group_unsubscribe') {
    await recordConsent(tx, {
      companyId,
      channel: 'email',
      status: 'opted_out',
      source: 'unsubscribe',
      detail: "The email provider's unsubscribe",
      address: m.to_address,
    });
  }
}
