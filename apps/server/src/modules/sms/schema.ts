/**
 * Texting (issue 12): the company's numbers, every text in and out, one conversation row per contact (what the
 * inbox lists, kept by the same statement that stores a message), and line-type lookups. Phones are stored as
 * contacts keep them: 11 digits with the leading 1.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies } from '../../platform/db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });
const company = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id);

/** A number the company texts from (bought through the port); a user's own, or the company's when user_id is null. */
export const smsNumbers = pgTable(
  'sms_numbers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: company(),
    userId: integer('user_id'),
    phone: text('phone').notNull(),
    sid: text('sid').notNull(),
    /** A2P 10DLC campaign status of the sender: pending | approved | rejected. */
    registrationStatus: text('registration_status').notNull().default('pending'),
    registrationCheckedAt: ts('registration_checked_at'),
    monthlyPrice: integer('monthly_price').notNull().default(0),
    createdBy: integer('created_by'),
    releasedAt: ts('released_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('sms_numbers_phone').on(t.phone).where(sql`released_at is null`),
    index('sms_numbers_company').on(t.companyId, t.userId),
  ],
);

/**
 * Every text. An outbound row is written before the carrier is asked (status queued), so a retry finds it and never
 * sends twice; `sid` is the carrier's id (unique), `status` only moves forward (SMS_RANK).
 */
export const smsMessages = pgTable(
  'sms_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: company(),
    contactId: bigint('contact_id', { mode: 'number' }),
    /** The agent who sent it (outbound), or whose number it reached (inbound). */
    userId: integer('user_id'),
    direction: text('direction').notNull(),
    fromPhone: text('from_phone').notNull(),
    toPhone: text('to_phone').notNull(),
    body: text('body').notNull().default(''),
    media: jsonb('media').$type<Array<{ url: string; content_type: string }>>().notNull().default([]),
    segments: integer('segments').notNull().default(1),
    status: text('status').notNull(),
    sid: text('sid'),
    errorCode: integer('error_code'),
    errorMessage: text('error_message'),
    /** Inbound: a reply that may mean stop, left for the agent (docs/decisions/sms-opt-out.md). */
    flagged: boolean('flagged').notNull().default(false),
    consentChange: text('consent_change'),
    consentBasis: text('consent_basis'),
    broadcastId: bigint('broadcast_id', { mode: 'number' }),
    campaignTriggerId: bigint('campaign_trigger_id', { mode: 'number' }),
    /** Cents debited from the wallet for it (0: not charged, e.g. inbound or refused). */
    chargedCents: integer('charged_cents').notNull().default(0),
    /** Cents given back: a text the carrier never took (docs/decisions/sms-refunds.md); 0 otherwise. */
    refundedCents: integer('refunded_cents').notNull().default(0),
    sendAttempts: integer('send_attempts').notNull().default(0),
    readAt: ts('read_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('sms_messages_thread').on(t.companyId, t.contactId, t.id),
    uniqueIndex('sms_messages_sid').on(t.sid),
    uniqueIndex('sms_messages_broadcast_contact').on(t.broadcastId, t.contactId).where(sql`broadcast_id is not null`),
    // The reconciler's scan (reconcile.ts): the few texts caught mid-send, among millions.
    index('sms_messages_sending').on(t.updatedAt).where(sql`status = 'sending'`),
  ],
);

/** One per contact that has texted or been texted: the inbox's row, updated with each message. */
export const smsConversations = pgTable(
  'sms_conversations',
  {
    contactId: bigint('contact_id', { mode: 'number' }).primaryKey(),
    companyId: company(),
    phone: text('phone').notNull(),
    lastMessageId: bigint('last_message_id', { mode: 'number' }).notNull(),
    lastBody: text('last_body').notNull(),
    lastDirection: text('last_direction').notNull(),
    lastAt: ts('last_at').notNull(),
    unreadCount: integer('unread_count').notNull().default(0),
    flagged: boolean('flagged').notNull().default(false),
  },
  (t) => [index('sms_conversations_recent').on(t.companyId, t.lastAt)],
);

/** Line-type lookups (mobile validation): what the carrier said a number is, when, and who asked (and paid). */
export const phoneVerifications = pgTable(
  'phone_verifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: company(),
    userId: integer('user_id'),
    contactId: bigint('contact_id', { mode: 'number' }),
    phone: text('phone').notNull(),
    lineType: text('line_type').notNull(),
    carrier: text('carrier'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('phone_verifications_phone').on(t.companyId, t.phone, t.createdAt),
    index('phone_verifications_recent').on(t.companyId, t.createdAt),
  ],
);
