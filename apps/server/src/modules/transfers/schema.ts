import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

/**
 * A bulk transfer of contacts to another owner. status: pending -> processing -> complete | failed; a revert sets
 * reverting while it runs and reverted when done. transfer_logs keep every contact's previous owner for the revert
 * and are each moved contact's record of the transfer (its Transfer history): no copy goes to contact_events.
 */
export const transferAttempts = pgTable(
  'transfer_attempts',
  {
    id: serial('id').primaryKey(),
    /** The id people see and put in URLs, counted per company (docs/decisions/per-company-numbers.md). */
    number: integer('number').notNull().default(0),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    createdBy: integer('created_by').references(() => users.id),
    toUserId: integer('to_user_id').references(() => users.id),
    toPoolId: integer('to_pool_id'),
    status: text('status').notNull().default('pending'),
    reverted: boolean('reverted').notNull().default(false),
    reverting: boolean('reverting').notNull().default(false),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    /** The selection as the request gave it (ids or all + contacts scope), for the record. */
    selection: jsonb('selection').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('transfer_attempts_company').on(t.companyId, t.id),
    uniqueIndex('transfer_attempts_company_number').on(t.companyId, t.number),
  ],
);

export const transferLogs = pgTable(
  'transfer_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    attemptId: integer('attempt_id')
      .notNull()
      .references(() => transferAttempts.id),
    contactId: bigint('contact_id', { mode: 'number' }).notNull(),
    fromUserId: integer('from_user_id'),
    fromPoolId: integer('from_pool_id'),
    toUserId: integer('to_user_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set when a revert put this contact back; a contact someone moved again meanwhile keeps null. */
    revertedAt: timestamp('reverted_at', { withTimezone: true }),
  },
  (t) => [index('transfer_logs_attempt').on(t.attemptId, t.id), index('transfer_logs_contact').on(t.contactId)],
);
