/** Email as a broadcast channel: one message row per (broadcast, contact), handed to the provider once (messages.ts). */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import type { BroadcastChannelDef } from '../broadcasts/channels.js';
import { rowsOf } from '../contacts/list-scope.js';
import { deliver } from './messages.js';

export interface EmailContent {
  email_id: number | null;
  subject: string;
  /** Sanitised template HTML as it was when the broadcast was created (a later edit does not change a sent one). */
  html: string;
  trigger_id?: number | null;
}

export function emailChannel(deps: Deps): BroadcastChannelDef {
  const db = deps.database.db;
  return {
    channel: 'email',
    // Two batches at once: while one records its outcomes and reads the next recipients, the other is sending
    // (bench/email.ts: one lane left the sender idle between batches).
    lanes: 2,
    throttle: () => ({
      key: `mail:${deps.config.smtpUrl ? 'smtp' : 'local'}`,
      rule: { perSecond: deps.config.mail.ratePerSecond },
    }),
    async contentFor(companyId, trigger) {
      const [t] = await rowsOf<{ id: number; subject: string; body_html: string }>(
        db,
        sql`select id, subject, body_html from email_templates
          where company_id = ${companyId} and deleted_at is null and active and id = any(${sql.param(trigger.emailIds)}::bigint[])
          order by array_position(${sql.param(trigger.emailIds)}::bigint[], id) limit 1`,
      );
      if (!t) return null;
      const content: EmailContent = {
        email_id: Number(t.id),
        subject: t.subject,
        html: t.body_html,
        trigger_id: trigger.id,
      };
      return { content: { ...content }, title: trigger.name };
    },
    async send({ broadcast, recipients, take }) {
      const c = broadcast.content as unknown as EmailContent;
      const rows = await rowsOf<{ id: number; contact_id: number }>(
        db,
        sql`with ins as (
            insert into email_messages (company_id, contact_id, sender_id, broadcast_id, template_id, to_address, subject, consent_basis)
            select ${broadcast.companyId}, v.contact_id, v.sender_id, ${broadcast.id}, ${c.email_id ?? null}, v.address, ${c.subject}, v.basis
            from unnest(${sql.param(recipients.map((r) => r.contactId))}::bigint[], ${sql.param(recipients.map((r) => r.senderId))}::int[],
              ${sql.param(recipients.map((r) => r.address))}::text[], ${sql.param(recipients.map((r) => r.basis))}::text[])
              as v(contact_id, sender_id, address, basis)
            on conflict (broadcast_id, contact_id) where broadcast_id is not null do nothing
            returning id, contact_id)
          select id, contact_id from ins
          union all
          select id, contact_id from email_messages
          where broadcast_id = ${broadcast.id} and contact_id = any(${sql.param(recipients.map((r) => r.contactId))}::bigint[])`,
      );
      const idOf = new Map(rows.map((r) => [Number(r.contact_id), Number(r.id)]));
      const outcomes = await deliver(
        deps,
        recipients.map((r) => ({
          id: idOf.get(r.contactId)!,
          companyId: broadcast.companyId,
          contactId: r.contactId,
          senderId: r.senderId,
          to: r.address,
          subject: c.subject,
          html: c.html,
          unsubscribe: true,
        })),
        take,
      );
      return recipients.map((r) => ({
        contactId: r.contactId,
        outcome: outcomes.get(idOf.get(r.contactId)!) ?? 'retry',
      }));
    },
  };
}
