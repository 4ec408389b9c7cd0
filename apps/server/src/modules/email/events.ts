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

export async function handleEmailEvent(event: StoredWebhookEvent, tx: Db) {
  const p = event.payload;
  const messageId = Number(p.harbor_message_id);
  const kind = String(p.event);
  if (!Number.isInteger(messageId) || messageId <= 0 || !LOGGED.has(kind)) return; // not ours, or not tracked
  const [m] = await rowsOf<{
    id: number;
    company_id: number;
    contact_id: number;
    to_address: string;
    sender_id: number;
  }>(
    tx,
    sql`select id, company_id, contact_id, to_address, sender_id from email_messages where id = ${messageId}
      ${event.companyId ? sql`and company_id = ${event.companyId}` : sql``}`,
  );
  if (!m) return;
  const at = new Date((Number(p.timestamp) || Math.floor(event.receivedAt.getTime() / 1000)) * 1000).toISOString();
  const detail = [p.reason, p.response, p.url, p.status].filter((x) => typeof x === 'string' && x).join(' · ') || null;
  await tx.execute(
    sql`insert into email_events (company_id, message_id, contact_id, event, detail, first_at, last_at)
      values (${m.company_id}, ${m.id}, ${m.contact_id}, ${kind}, ${detail}, ${at}::timestamptz, ${at}::timestamptz)
      on conflict (message_id, event) do update set count = email_events.count + 1,
        first_at = least(email_events.first_at, excluded.first_at), last_at = greatest(email_events.last_at, excluded.last_at)`,
  );
  const status = STATUS_OF[kind];
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
