import { index, integer, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from '../../../platform/db/schema.js';

/**
 * The answer given when a user was deleted: what happens to their contacts. Contacts arrive with issue 4, which
 * applies pending rows (applied_at null) when it moves or frees the contacts: docs/decisions/user-deletion-contacts.md.
 */
export const userRemovals = pgTable(
  'user_removals',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    removedById: integer('removed_by_id').references(() => users.id),
    contactsAction: text('contacts_action').notNull(),
    transferToUserId: integer('transfer_to_user_id').references(() => users.id),
    appliedAt: timestamp('applied_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('user_removals_company').on(t.companyId), index('user_removals_user').on(t.userId)],
);
