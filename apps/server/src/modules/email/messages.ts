/**
 * Handing email to the provider, once per message. A message row exists (queued) before anything is sent; it is
 * marked `sending` in a committed statement before the SMTP conversation, and `sent` after the provider took it. A
 * row found `sending` later (the process died in between) is ambiguous: the provider's own events settle it (the
 * stand-in's and SendGrid's `delivered`/`bounce` move it on), and only when none came within AMBIGUOUS_GRACE_MS is
 * it sent again (docs/decisions/email.md: exactly once where the provider reports, at least once otherwise).
 */
import crypto from 'node:crypto';
import { formatPhone } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { isPermanentMailError } from '../../integrations/mail/port.js';
import type { Db } from '../../platform/db/client.js';
import { statusRank } from '../../platform/db/status-rank.js';
import type { Deps } from '../../platform/deps.js';
import { rowsOf } from '../contacts/list-scope.js';
import { type MergeValues, renderEmail } from './render.js';

export const EMAIL_RANK = statusRank('email', [
  'queued',
  'sending',
  'sent',
  'deferred',
  ['delivered', 'bounced', 'dropped', 'failed'],
  'opened',
  'clicked',
  'complained',
]);
const SENT_RANK = EMAIL_RANK.rank('sent');
/**
 * How long a message left `sending` by a dead process waits for the provider's word before it is sent again. The
 * provider's events (stored at the webhook before they are worked) are looked at first: any event naming the
 * message proves the provider took it.
 */
export const AMBIGUOUS_GRACE_MS = 120_000;
/** Messages in flight to the provider at once, per job. */
const PARALLEL = 24;

export interface MessageToSend {
  id: number;
  companyId: number;
  contactId: number;
  senderId: number;
  to: string;
  subject: string;
  html: string;
  /** Campaign mail carries the unsubscribe link and headers; a one-to-one reply does too (an opt-out always counts). */
  unsubscribe: boolean;
}

export type MessageOutcome = 'sent' | 'retry' | 'wait' | 'failed';

/** `{token}` of the unsubscribe link: who (company, contact), from whom (sender), which message; signed. */
export function unsubscribeToken(secret: string, p: { c: number; k: number; s: number; m: number }) {
  const body = Buffer.from(JSON.stringify(p)).toString('base64url');
  const mac = crypto.createHmac('sha256', secret).update(`unsubscribe:${body}`).digest('base64url').slice(0, 32);
  return `${body}.${mac}`;
}

export function readUnsubscribeToken(secret: string, token: string) {
  const [body, mac] = token.split('.');
  if (!body || !mac) return null;
  const expected = crypto.createHmac('sha256', secret).update(`unsubscribe:${body}`).digest('base64url').slice(0, 32);
  if (mac.length !== expected.length || !crypto.timingSafeEqual(Buffer.from(mac), Buffer.from(expected))) return null;
  try {
    const p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
    return [p.c, p.k, p.s, p.m].every((n) => Number.isInteger(n) && n > 0)
      ? (p as { c: number; k: number; s: number; m: number })
      : null;
  } catch {
    return null;
  }
}

/** Merge values for contacts and their senders, in one statement. */
export async function mergeValuesFor(db: Db, companyId: number, pairs: Array<{ contactId: number; senderId: number }>) {
  const rows = await rowsOf<Record<string, string | null> & { contact_id: number; sender_id: number }>(
    db,
    sql`select p.contact_id, p.sender_id, c.first_name, c.last_name, c.email, c.phone, c.city, c.state,
        u.first_name as agent_first, u.last_name as agent_last, u.email as agent_email,
        coalesce(u.webpage->>'phone', u.dialer_verified_phone_number) as agent_phone, co.name as company_name
      from unnest(${sql.param(pairs.map((p) => p.contactId))}::bigint[], ${sql.param(pairs.map((p) => p.senderId))}::int[])
        as p(contact_id, sender_id)
      join contacts c on c.id = p.contact_id and c.company_id = ${companyId}
      join users u on u.id = p.sender_id join companies co on co.id = c.company_id`,
  );
  const out = new Map<string, MergeValues & { agent_email_raw: string | null }>();
  for (const r of rows) {
    const agent = `${r.agent_first ?? ''} ${r.agent_last ?? ''}`.trim();
    out.set(`${r.contact_id}:${r.sender_id}`, {
      first_name: r.first_name,
      last_name: r.last_name,
      full_name: `${r.first_name ?? ''} ${r.last_name ?? ''}`.trim(),
      email: r.email,
      phone: r.phone ? formatPhone(r.phone) : '',
      city: r.city,
      state: r.state,
      agent_name: agent,
      agent_first_name: r.agent_first,
      agent_email: r.agent_email,
      agent_phone: r.agent_phone ? formatPhone(r.agent_phone) : '',
      company_name: r.company_name,
      agent_email_raw: r.agent_email,
    });
  }
  return out;
}

export function unsubscribeUrl(deps: Deps, p: { c: number; k: number; s: number; m: number }) {
  return `${deps.config.appUrl}/unsubscribe/${unsubscribeToken(deps.config.secretKey, p)}`;
}

/**
 * Sends messages whose rows exist, each at most once as far as the provider can tell us. Answers each message's
 * outcome. `take(n)` waits for the provider's throttle.
 */
export async function deliver(
  deps: Deps,
  messages: MessageToSend[],
  take: (n: number) => Promise<void>,
): Promise<Map<number, MessageOutcome>> {
  const db = deps.database.db;
  const out = new Map<number, MessageOutcome>();
  if (!messages.length) return out;
  const ids = messages.map((m) => m.id);
  // A message left `sending` that the provider reported on was taken: record it, never send it again. Asked only
  // for the batch's `sending` rows (none unless a run was cut off): as one statement over the whole batch the
  // planner scanned every recent provider event on every batch (~38,000 rows a batch in a 20,000-message broadcast).
  const sending = (
    await rowsOf<{ id: number }>(
      db,
      sql`select id from email_messages where id = any(${sql.param(ids)}::bigint[]) and status = 'sending'`,
    )
  ).map((r) => Number(r.id));
  if (sending.length) {
    await db.execute(
      sql`update email_messages m set status = 'sent', sent_at = coalesce(m.sent_at, now()), updated_at = now()
        where m.id = any(${sql.param(sending)}::bigint[]) and m.status = 'sending'
          and exists (select 1 from webhook_events w where w.provider = 'sendgrid'
            and w.received_at > m.created_at - interval '1 minute'
            and w.payload->>'harbor_message_id' = m.id::text)`,
    );
  }
  // Claim: queued rows, and `sending` rows nobody has heard of for the grace period; the rest are settled already.
  const claimed = new Set(
    (
      await rowsOf<{ id: number }>(
        db,
        sql`update email_messages set status = 'sending', attempts = attempts + 1, updated_at = now()
          where id = any(${sql.param(ids)}::bigint[]) and (status = 'queued'
            or (status = 'sending' and updated_at < now() - make_interval(secs => ${AMBIGUOUS_GRACE_MS / 1000})))
          returning id`,
      )
    ).map((r) => Number(r.id)),
  );
  const states = await rowsOf<{ id: number; status: string }>(
    db,
    sql`select id, status from email_messages where id = any(${sql.param(ids)}::bigint[])`,
  );
  for (const s of states) {
    const id = Number(s.id);
    if (claimed.has(id)) continue;
    const rank = EMAIL_RANK.rank(s.status);
    out.set(id, s.status === 'failed' || s.status === 'dropped' ? 'failed' : rank >= SENT_RANK ? 'sent' : 'wait');
  }
  const queue = messages.filter((m) => claimed.has(m.id));
  const values = await mergeValuesFor(
    db,
    queue[0]?.companyId ?? 0,
    queue.map((m) => ({ contactId: m.contactId, senderId: m.senderId })),
  );
  const sent: number[] = [];
  const failed: Array<{ id: number; error: string }> = [];
  const retry: Array<{ id: number; error: string }> = [];
  let next = 0;
  const worker = async () => {
    while (next < queue.length) {
      const m = queue[next++];
      const v: MergeValues & { agent_email_raw?: string | null } = values.get(`${m.contactId}:${m.senderId}`) ?? {};
      const token = { c: m.companyId, k: m.contactId, s: m.senderId, m: m.id };
      const unsubscribe = m.unsubscribe ? unsubscribeUrl(deps, token) : null;
      const oneClick = `${deps.config.appUrl}/v1/unsubscribe/${unsubscribeToken(deps.config.secretKey, token)}`;
      const rendered = renderEmail(
        { subject: m.subject, html: m.html },
        { ...v, unsubscribe_url: unsubscribe },
        { unsubscribeUrl: unsubscribe, companyName: v.company_name ?? undefined },
      );
      await take(1);
      try {
        await deps.mail.send({
          to: m.to,
          subject: rendered.subject,
          html: rendered.html,
          text: rendered.text,
          fromName: v.agent_name ? `${v.agent_name} via ${v.company_name ?? 'Harbor'}` : undefined,
          replyTo: v.agent_email_raw ?? undefined,
          messageId: `harbor-${m.id}@${deps.config.mail.bounceDomain}`,
          returnPath: `bounces+m${m.id}@${deps.config.mail.bounceDomain}`,
          headers: {
            'X-Harbor-Message-Id': String(m.id),
            // SendGrid's SMTP API: these come back on every event of the message.
            'X-SMTPAPI': JSON.stringify({
              unique_args: { harbor_message_id: String(m.id), company_id: String(m.companyId) },
            }),
            ...(unsubscribe
              ? {
                  // RFC 8058: mail clients POST "List-Unsubscribe=One-Click" to the https URI, without a session.
                  'List-Unsubscribe': `<${oneClick}>`,
                  'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
                }
              : {}),
          },
        });
        sent.push(m.id);
      } catch (err) {
        const error = ((err as Error).message ?? String(err)).slice(0, 500);
        if (isPermanentMailError(err)) failed.push({ id: m.id, error });
        else retry.push({ id: m.id, error });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, queue.length) }, worker));
  await db.transaction(async (tx) => {
    if (sent.length) {
      await tx.execute(
        sql`update email_messages set status = 'sent', sent_at = now(), error = null, updated_at = now()
          where id = any(${sql.param(sent)}::bigint[]) and status in ('queued', 'sending')`,
      );
    }
    for (const [list, status] of [
      [failed, 'failed'],
      [retry, 'queued'],
    ] as const) {
      if (!list.length) continue;
      await tx.execute(
        sql`update email_messages m set status = ${status}, error = v.error, updated_at = now()
          from unnest(${sql.param(list.map((x) => x.id))}::bigint[], ${sql.param(list.map((x) => x.error))}::text[]) as v(id, error)
          where m.id = v.id and m.status = 'sending'`,
      );
    }
  });
  for (const id of sent) out.set(id, 'sent');
  for (const x of failed) out.set(x.id, 'failed');
  for (const x of retry) out.set(x.id, 'retry');
  return out;
}
