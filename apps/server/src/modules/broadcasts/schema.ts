/**
 * Broadcasts of any channel (docs/decisions/broadcasts.md). The recipients are a snapshot taken when the broadcast is
 * created (who the sender chose, within their reach, then); consent is asked again for each recipient when its turn
 * comes, and the answer is kept on its row. A recipient row moves pending -> sending -> sent | removed | failed |
 * cancelled, once: the job resumes from the rows after a crash.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const broadcasts = pgTable(
  'broadcasts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Who started it (for a campaign trigger's automatic run: the trigger's author). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** email | sms */
    channel: text('channel').notNull(),
    /** scheduled | running | completed | cancelled | failed */
    status: text('status').notNull().default('scheduled'),
    /** The consent purpose (marketing for broadcasts and triggers). */
    purpose: text('purpose').notNull().default('marketing'),
    products: text('products').array().notNull().default(sql`'{}'::text[]`),
    /** Channel-owned: what to send (email: template id, subject, sanitised HTML as it was when sent). */
    content: jsonb('content').$type<Record<string, unknown>>().notNull(),
    title: text('title').notNull(),
    triggerId: bigint('trigger_id', { mode: 'number' }),
    /** The selection as given (ids count, or all with the scope), for the record. */
    selection: jsonb('selection').$type<Record<string, unknown>>().notNull(),
    sendAt: ts('send_at'),
    total: integer('total').notNull().default(0),
    sent: integer('sent').notNull().default(0),
    removed: integer('removed').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    /** A second click on send (the same content to the same selection within minutes) finds this one. */
    fingerprint: text('fingerprint'),
    /** A trigger's run of a day, e.g. `trigger:12:2026-11-25`: one broadcast each. */
    dedupeKey: text('dedupe_key'),
    error: text('error'),
    createdAt: ts('created_at').notNull().defaultNow(),
    startedAt: ts('started_at'),
    finishedAt: ts('finished_at'),
    cancelledAt: ts('cancelled_at'),
    cancelledBy: integer('cancelled_by'),
  },
  (t) => [
    index('broadcasts_company_user').on(t.companyId, t.userId, t.id),
    index('broadcasts_fingerprint').on(t.companyId, t.fingerprint, t.createdAt).where(sql`fingerprint is not null`),
    uniqueIndex('broadcasts_dedupe').on(t.companyId, t.dedupeKey).where(sql`dedupe_key is not null`),
  ],
);

export const broadcastRecipients = pgTable(
  'broadcast_recipients',
  {
    /**
     * No foreign key: the only writer inserts these rows in the transaction that inserts their broadcast, and
     * broadcasts are never deleted (cancelled instead). Its check, one lookup per row, was ~0.3 s of a 100,000
     * recipients' snapshot taken inside the request (docs/decisions/broadcasts.md).
     */
    broadcastId: bigint('broadcast_id', { mode: 'number' }).notNull(),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    /** Whom the message comes from (the broadcast's user, or for a trigger's run the contact's owner). */
    senderId: integer('sender_id').notNull(),
    status: text('status').notNull().default('pending'),
    reason: text('reason'),
    address: text('address'),
    basis: text('basis'),
    attempts: integer('attempts').notNull().default(0),
    /** Not before this time (a temporary failure waits before its next attempt). */
    retryAt: ts('retry_at'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.contactId] }),
    index('broadcast_recipients_status').on(t.broadcastId, t.status, t.contactId),
  ],
);

export type BroadcastRow = typeof broadcasts.$inferSelect;
