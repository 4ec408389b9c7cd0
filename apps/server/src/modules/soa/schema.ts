/**
 * Scope-of-appointment requests and the agents' Medicare registration. An SOA request is a link an agent sends a
 * contact; the beneficiary signs it on a public page (typed name and drawn signature; time, network address and
 * browser recorded), and its signature starts the 48-hour wait before an MA or Part D appointment.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';
import { contacts } from '../contacts/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const soaRequests = pgTable(
  'soa_requests',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** The agent who asked (their name is all the public page shows). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    contactId: bigint('contact_id', { mode: 'number' })
      .notNull()
      .references(() => contacts.id),
    /** SHA-256 of the link's token (the public page's key) and the token sealed, so the agent can copy it again. */
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    /** email | sms | link: how the agent sent it. */
    channel: text('channel').notNull(),
    sentTo: text('sent_to'),
    /** Products the agent proposes; the beneficiary picks from them (all when empty). */
    productsOffered: text('products_offered').array().notNull().default(sql`'{}'::text[]`),
    /** sent | signed | completed | rejected (expired is sent past expires_at). */
    status: text('status').notNull().default('sent'),
    expiresAt: ts('expires_at').notNull(),
    /** What the beneficiary signed: the products chosen, their typed name and drawn signature (PNG data URL). */
    products: text('products').array().notNull().default(sql`'{}'::text[]`),
    signatureName: text('signature_name'),
    signatureImage: text('signature_image'),
    beneficiaryAddress: text('beneficiary_address'),
    beneficiaryPhone: text('beneficiary_phone'),
    signedAt: ts('signed_at'),
    signedIp: text('signed_ip'),
    signedUserAgent: text('signed_user_agent'),
    completedAt: ts('completed_at'),
    rejectedAt: ts('rejected_at'),
    rejectReason: text('reject_reason'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('soa_requests_token').on(t.tokenHash),
    index('soa_requests_user').on(t.userId, t.id),
    index('soa_requests_contact').on(t.contactId, t.signedAt),
  ],
);

/** An agent's Medicare registration (PATCH /v1/users/medicare_registered): one row per user. */
export const medicareRegistrations = pgTable('medicare_registrations', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id),
  registered: boolean('registered').notNull(),
  /** National Producer Number, when given. */
  npn: text('npn'),
  planYear: integer('plan_year'),
  registeredAt: ts('registered_at'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});
