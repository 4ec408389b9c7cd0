/** Tables of the users area beyond the core users table: favourite users, signup requests (API keys: platform/auth). */
import { index, integer, pgTable, primaryKey, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

export const favoriteUsers = pgTable(
  'favorite_users',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    favoriteUserId: integer('favorite_user_id')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.favoriteUserId] })],
);

/** A person a user proposes to join the agency; admins review them (GET /v1/admin/signups). */
export const signups = pgTable(
  'signups',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    sponsorId: integer('sponsor_id').references(() => users.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    note: text('note'),
    status: text('status').notNull().default('pending'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('signups_company_time').on(t.companyId, t.createdAt)],
);
