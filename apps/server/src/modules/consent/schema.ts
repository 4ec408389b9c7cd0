/**
 * The consent record (docs/decisions/consent-record.md). Only what is known is stored: a contact with no row for a
 * channel is `unknown` there. Every change appends a `consent_events` row (the evidence: from, to, how, who, when),
 * and the address-level suppressions remove an address from every send of its channel whichever contact holds it.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../../platform/db/schema.js';
import { contacts } from '../contacts/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });
const companyId = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id);

/**
 * The current status per contact, channel and sender. `sender_id` 0 is the channel as a whole; a user id is an
 * email opt-out limited to that agent's messages (the unsubscribe page's "this agent only").
 */
export const contactConsents = pgTable(
  'contact_consents',
  {
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id),
    channel: text('channel').notNull(),
    senderId: integer('sender_id').notNull().default(0),
    companyId: companyId(),
    /** allowed | opted_out */
    status: text('status').notNull(),
    since: ts('since').notNull().defaultNow(),
    source: text('source').notNull(),
    detail: text('detail'),
    recordedBy: integer('recorded_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.channel, t.senderId] })],
);

/** Append-only evidence of every change, including opt-outs from an address no contact holds (yet). */
export const consentEvents = pgTable(
  'consent_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: bigint('contact_id', { mode: 'number' }),
    /** email | sms | voice | medicare (permission to contact) */
    channel: text('channel').notNull(),
    senderId: integer('sender_id').notNull().default(0),
    address: text('address'),
    fromStatus: text('from_status'),
    toStatus: text('to_status').notNull(),
    source: text('source').notNull(),
    detail: text('detail'),
    actorId: integer('actor_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('consent_events_contact').on(t.contactId, t.id).where(sql`contact_id is not null`),
    index('consent_events_company').on(t.companyId, t.id),
  ],
);

/**
 * Addresses no send of the channel may reach: a hard bounce, a spam complaint, an opt-out (STOP from a number, an
 * unsubscribe). Email addresses are stored lower-cased and trimmed, phones as the 11 digits contacts keep.
 */
export const consentSuppressions = pgTable(
  'consent_suppressions',
  {
    companyId: companyId(),
    channel: text('channel').notNull(),
    address: text('address').notNull(),
    /** bounced | complained | opted_out */
    reason: text('reason').notNull(),
    since: ts('since').notNull().defaultNow(),
    detail: text('detail'),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.channel, t.address] })],
);

/** Medicare permission to contact: twelve months from when it was given, for the products it names. */
export const permissionsToContact = pgTable(
  'permissions_to_contact',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id),
    products: text('products').array().notNull(),
    grantedAt: ts('granted_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    source: text('source').notNull(),
    detail: text('detail'),
    recordedBy: integer('recorded_by'),
    revokedAt: ts('revoked_at'),
    revokedBy: integer('revoked_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('permissions_to_contact_contact').on(t.contactId, t.expiresAt)],
);
