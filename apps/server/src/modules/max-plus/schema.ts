/** Max Plus subscriptions (routes.md `max-plus`); the user's `max_plus_active`/`max_plus_plan` mirror the live one. */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';
import { cardCharges } from '../account/schema.js';

export const maxPlusSubscriptions = pgTable(
  'max_plus_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    plan: text('plan').notNull(),
    paymentType: text('payment_type').notNull().default('credit_card'),
    /** Whose card paid: the person, or the manager who bulk-subscribed them. */
    paidBy: integer('paid_by')
      .notNull()
      .references(() => users.id),
    /** pending | active | failed | cancelled */
    status: text('status').notNull().default('pending'),
    chargeId: bigint('charge_id', { mode: 'number' }).references(() => cardCharges.id),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: integer('cancelled_by'),
    failureMessage: text('failure_message'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('max_plus_subscriptions_live').on(t.userId).where(sql`${t.status} in ('pending', 'active')`),
    index('max_plus_subscriptions_charge').on(t.chargeId),
  ],
);
