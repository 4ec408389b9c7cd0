/**
 * Email: the admin's templates (the spec's "broadcast emails", /v1/admin/emails). Their HTML is sanitised when saved
 * and again when rendered (docs/decisions/email.md).
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../../platform/db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const emailTemplates = pgTable(
  'email_templates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    /** Sanitised HTML with merge fields such as {{first_name}}. */
    bodyHtml: text('body_html').notNull(),
    category: text('category').notNull().default('other'),
    /** Inactive templates stay for the record but are not offered to agents. */
    active: boolean('active').notNull().default(true),
    createdBy: integer('created_by'),
    updatedBy: integer('updated_by'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('email_templates_company').on(t.companyId, t.id).where(sql`deleted_at is null`)],
);

/**
 * Every email Harbor sends to a contact: one row per message, created before it is handed to the provider, so a
 * message's status (docs/decisions/email.md) only moves forward and a broadcast sends one per recipient
 * (unique broadcast_id, contact_id).
 */
export const emailMessages = pgTable(
  'email_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    /** The agent it comes from. */
    senderId: integer('sender_id').notNull(),
    broadcastId: bigint('broadcast_id', { mode: 'number' }),
    templateId: bigint('template_id', { mode: 'number' }),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    /** The body as sent (one-to-one messages); a broadcast's come from its content. */
    bodyHtml: text('body_html'),
    /** queued | sending | sent | deferred | delivered | bounced | dropped | failed | opened | clicked | complained */
    status: text('status').notNull().default('queued'),
    consentBasis: text('consent_basis'),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    sentAt: ts('sent_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('email_messages_broadcast_contact').on(t.broadcastId, t.contactId).where(sql`broadcast_id is not null`),
    index('email_messages_contact').on(t.contactId, t.id),
  ],
);

/** The event log: one row per message and kind of event (delivered, open, ...), counting repeats. */
export const emailEvents = pgTable(
  'email_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    event: text('event').notNull(),
    count: integer('count').notNull().default(1),
    detail: text('detail'),
    firstAt: ts('first_at').notNull(),
    lastAt: ts('last_at').notNull(),
  },
  (t) => [
    uniqueIndex('email_events_message_event').on(t.messageId, t.event),
    index('email_events_contact').on(t.contactId, t.id),
  ],
);
