/**
 * Reading and writing texts: the presenter, the conversation row kept by the statement that stores a message, the
 * status rank (statuses only move forward), and the live stream a user's inbox listens to.
 */
import { type LiveMessage, SMS_CHANNEL, type SmsConversation, type SmsMessage, type SmsStatus } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { statusRank } from '../../platform/db/status-rank.js';
import type { Deps } from '../../platform/deps.js';
import { publishLive } from '../../platform/live/publish.js';
import { rowsOf } from '../contacts/list-scope.js';

/** queued < sending < sent < delivered | undelivered | failed (terminal, equal: never replace one another). */
export const SMS_RANK = statusRank('sms', ['queued', 'sending', 'sent', ['delivered', 'undelivered', 'failed']]);

export const smsStream = (userId: number) => `user:${userId}:sms`;

const iso = (v: unknown) => new Date(v as string).toISOString();

export const messageSelect = sql`select m.*, nullif(trim(u.first_name || ' ' || u.last_name), '') as user_name
  from sms_messages m left join users u on u.id = m.user_id`;

export function presentMessage(r: Record<string, unknown>): SmsMessage {
  return {
    id: Number(r.id),
    contact_id: r.contact_id == null ? null : Number(r.contact_id),
    direction: r.direction as SmsMessage['direction'],
    from: String(r.from_phone),
    to: String(r.to_phone),
    body: String(r.body ?? ''),
    media: (typeof r.media === 'string' ? JSON.parse(r.media) : (r.media ?? [])) as SmsMessage['media'],
    segments: Number(r.segments),
    status: r.status as SmsStatus,
    error_code: r.error_code == null ? null : Number(r.error_code),
    error_message: (r.error_message as string) ?? null,
    flagged: Boolean(r.flagged),
    consent_change: (r.consent_change as SmsMessage['consent_change']) ?? null,
    refunded_cents: Number(r.refunded_cents ?? 0),
    user:
      r.user_id && r.direction === 'outbound' ? { id: Number(r.user_id), name: String(r.user_name ?? 'A user') } : null,
    created_at: iso(r.created_at),
  };
}

export async function loadMessage(db: Db, id: number) {
  const [r] = await rowsOf<Record<string, unknown>>(db, sql`${messageSelect} where m.id = ${id}`);
  return r ? presentMessage(r) : null;
}

/**
 * Records the message as the newest of its contact's conversation (an inbound one adds to the unread count). Only
 * ever moves the conversation to a newer message, so two writers in any order leave the newest.
 */
export async function touchConversation(
  tx: Db,
  m: {
    id: number;
    companyId: number;
    contactId: number | null;
    phone: string;
    body: string;
    direction: string;
    flagged?: boolean;
  },
) {
  if (!m.contactId) return;
  const unread = m.direction === 'inbound' ? 1 : 0;
  const preview = m.body.slice(0, 200) || '(picture)';
  await tx.execute(sql`insert into sms_conversations
      (contact_id, company_id, phone, last_message_id, last_body, last_direction, last_at, unread_count, flagged)
    values (${m.contactId}, ${m.companyId}, ${m.phone}, ${m.id}, ${preview}, ${m.direction}, now(), ${unread}, ${Boolean(m.flagged)})
    on conflict (contact_id) do update set
      unread_count = sms_conversations.unread_count + ${unread},
      flagged = sms_conversations.flagged or ${Boolean(m.flagged)},
      phone = case when excluded.last_message_id > sms_conversations.last_message_id then excluded.phone else sms_conversations.phone end,
      last_body = case when excluded.last_message_id > sms_conversations.last_message_id then excluded.last_body else sms_conversations.last_body end,
      last_direction = case when excluded.last_message_id > sms_conversations.last_message_id then excluded.last_direction else sms_conversations.last_direction end,
      last_at = case when excluded.last_message_id > sms_conversations.last_message_id then excluded.last_at else sms_conversations.last_at end,
      last_message_id = greatest(sms_conversations.last_message_id, excluded.last_message_id)`);
}

export const conversationSelect = (where: SQL) => sql`select c.*, contacts.id as k_id, contacts.number as k_number,
    trim(contacts.first_name || ' ' || contacts.last_name) as k_name, contacts.phone as k_phone,
    exists (select 1 from contact_consents cc where cc.contact_id = contacts.id and cc.channel = 'sms'
      and cc.sender_id = 0 and cc.status = 'opted_out') as opted_out
  from sms_conversations c join contacts on contacts.id = c.contact_id
  where ${where}`;

export function presentConversation(r: Record<string, unknown>): SmsConversation {
  return {
    contact: {
      id: Number(r.k_id),
      number: Number(r.k_number),
      name: String(r.k_name || 'Unnamed contact'),
      phone: (r.k_phone as string) ?? null,
    },
    last_message: {
      body: String(r.last_body),
      direction: r.last_direction as SmsConversation['last_message']['direction'],
      at: iso(r.last_at),
    },
    unread_count: Number(r.unread_count),
    opted_out: Boolean(r.opted_out),
    flagged: Boolean(r.flagged),
  };
}

/** Publishes on the SMS channel of each user once, shortly after the caller's transaction had time to commit. */
export function publishSms(
  deps: Deps,
  userIds: Array<number | null | undefined>,
  build: () => Promise<LiveMessage<typeof SMS_CHANNEL> | null>,
) {
  const ids = [...new Set(userIds.filter((x): x is number => typeof x === 'number' && x > 0))];
  if (!ids.length) return;
  const attempt = (n: number) =>
    setTimeout(
      () => {
        void (async () => {
          const message = (await build()) as LiveMessage<typeof SMS_CHANNEL> | null;
          // Not committed yet (the webhook's transaction): look again, for up to ~25 s. A loaded machine or a queued
          // job can hold the commit well past a second, and a reply the inbox never hears of is a lost reply.
          if (!message) return n < 60 ? attempt(n + 1) : undefined;
          for (const id of ids) await publishLive(deps.bus, SMS_CHANNEL, smsStream(id), message);
        })().catch(() => undefined);
      },
      n < 10 ? 50 : 500,
    );
  attempt(0);
}
