/**
 * The account's billing: the card on file (brand, last four and expiry; the processor holds the card), the Harbor
 * plan subscription that makes a user paid, and every card charge of billing, Max Plus and the store
 * (`card_charges`: pending until the processor's signed webhook settles it; refunds go back through the processor).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

export const accountCards = pgTable('account_cards', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  companyId: integer('company_id')
    .notNull()
    .references(() => companies.id),
  processorCustomerId: text('processor_customer_id'),
  paymentMethodId: text('payment_method_id').notNull(),
  brand: text('brand').notNull(),
  last4: text('last4').notNull(),
  expMonth: integer('exp_month').notNull(),
  expYear: integer('exp_year').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export const cardCharges = pgTable(
  'card_charges',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Who paid (whose card). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** account_plan | max_plus | store_order */
    kind: text('kind').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    refundedAmount: bigint('refunded_amount', { mode: 'number' }).notNull().default(0),
    description: text('description').notNull().default(''),
    /** pending | succeeded | failed | refunded | partially_refunded */
    status: text('status').notNull().default('pending'),
    processorPaymentId: text('processor_payment_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    failureMessage: text('failure_message'),
    /** The request's Idempotency-Key (or a renewal's key): a retry finds its charge instead of charging again. */
    requestKey: text('request_key'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('card_charges_processor').on(t.processorPaymentId),
    uniqueIndex('card_charges_request').on(t.userId, t.kind, t.requestKey),
    index('card_charges_user').on(t.userId, t.id),
    check('card_charges_amount', sql`${t.amount} > 0`),
    check('card_charges_refund', sql`${t.refundedAmount} >= 0 and ${t.refundedAmount} <= ${t.amount}`),
  ],
);

export const accountSubscriptions = pgTable(
  'account_subscriptions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    plan: text('plan').notNull(),
    price: bigint('price', { mode: 'number' }).notNull(),
    /** pending | active | failed | cancelled (runs to the period's end) | ended */
    status: text('status').notNull().default('pending'),
    chargeId: bigint('charge_id', { mode: 'number' }).references(() => cardCharges.id),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    failureMessage: text('failure_message'),
    renewing: boolean('renewing').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One live subscription a person: a second update_plan changes it instead of stacking another.
    uniqueIndex('account_subscriptions_live')
      .on(t.userId)
      .where(sql`${t.status} in ('pending', 'active', 'cancelled')`),
    index('account_subscriptions_charge').on(t.chargeId),
  ],
);
