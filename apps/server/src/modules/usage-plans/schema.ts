/**
 * Texting and dialer plans (docs/decisions/usage-plans.md), one set of tables for both products (`product`):
 *
 * - `usage_plans`: what the company sells (an admin's CRUD): a seat's monthly price, the units it brings, the price
 *   of each unit used.
 * - `plan_subscriptions`: someone bought a plan (for themselves, for their team, or for the company). Terms are
 *   copied at purchase, so a later price change does not move what a buyer pays.
 * - `plan_licences`: the seats of a team or company subscription, each handed to a person with a monthly allocation.
 * - `plan_orders`: every purchase (a subscription, more seats, a renewal), how it was paid and what came back.
 * - `usage_records` / `usage_totals`: one row per sent segment or call minute, idempotent per cause (`ref`), and the
 *   month's total per person the quota checks read in one lookup.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

export const usagePlans = pgTable(
  'usage_plans',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** sms | dialer */
    product: text('product').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** standard | premium | custom */
    tier: text('tier').notNull(),
    enterprise: boolean('enterprise').notNull().default(false),
    /** Cents a seat a month. */
    price: integer('price').notNull(),
    /** Messages or minutes a seat brings a month. */
    units: integer('units').notNull(),
    /** Cents a message segment or call minute. */
    unitPrice: integer('unit_price').notNull(),
    minSeats: integer('min_seats').notNull().default(1),
    active: boolean('active').notNull().default(true),
    /** Deleted plans stay for the subscriptions that name them. */
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usage_plans_name')
      .on(t.companyId, t.product, sql`lower(${t.name})`)
      .where(sql`${t.deletedAt} is null`),
    check('usage_plans_product', sql`${t.product} in ('sms', 'dialer')`),
    check('usage_plans_tier', sql`${t.tier} in ('standard', 'premium', 'custom')`),
    check(
      'usage_plans_amounts',
      sql`${t.price} >= 0 and ${t.units} >= 0 and ${t.unitPrice} >= 0 and ${t.minSeats} >= 1`,
    ),
  ],
);

export const planSubscriptions = pgTable(
  'plan_subscriptions',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    product: text('product').notNull(),
    planId: integer('plan_id')
      .notNull()
      .references(() => usagePlans.id),
    /** company | manager | self */
    kind: text('kind').notNull(),
    /** Who bought it (the admin, for a company subscription); for `self`, who it covers. */
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id),
    seats: integer('seats').notNull().default(1),
    /** pending | active | cancelled | expired */
    status: text('status').notNull().default('pending'),
    autoRenew: boolean('auto_renew').notNull().default(true),
    /** wallet | company_wallet | card | invoice: how it was bought, and how a renewal is charged (docs). */
    paymentMethod: text('payment_method').notNull(),
    /** The plan's terms at purchase. */
    price: integer('price').notNull(),
    units: integer('units').notNull(),
    unitPrice: integer('unit_price').notNull(),
    currentPeriodStart: timestamp('current_period_start', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    activatedAt: timestamp('activated_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: integer('cancelled_by'),
    createdBy: integer('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('plan_subscriptions_company').on(t.companyId, t.product, t.id),
    index('plan_subscriptions_owner').on(t.ownerId, t.product),
    // One live self-paid subscription per person and product, one live company subscription per company.
    uniqueIndex('plan_subscriptions_one_self')
      .on(t.ownerId, t.product)
      .where(sql`${t.kind} = 'self' and ${t.status} in ('pending', 'active')`),
    uniqueIndex('plan_subscriptions_one_company')
      .on(t.companyId, t.product)
      .where(sql`${t.kind} = 'company' and ${t.status} in ('pending', 'active')`),
    // Renewal finds what is due without a scan.
    index('plan_subscriptions_due').on(t.currentPeriodEnd).where(sql`${t.status} = 'active'`),
    check('plan_subscriptions_product', sql`${t.product} in ('sms', 'dialer')`),
    check('plan_subscriptions_kind', sql`${t.kind} in ('company', 'manager', 'self')`),
    check('plan_subscriptions_status', sql`${t.status} in ('pending', 'active', 'cancelled', 'expired')`),
    check('plan_subscriptions_seats', sql`${t.seats} >= 1 and (${t.kind} <> 'self' or ${t.seats} = 1)`),
  ],
);

export const planOrders = pgTable(
  'plan_orders',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    product: text('product').notNull(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => planSubscriptions.id),
    /** ManagerPay | SelfPay (spec §3) */
    orderType: text('order_type').notNull(),
    /** subscription | licences | renewal */
    kind: text('kind').notNull(),
    quantity: integer('quantity').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    refundedAmount: bigint('refunded_amount', { mode: 'number' }).notNull().default(0),
    /** pending | paid | failed | cancelled | refunded */
    status: text('status').notNull().default('pending'),
    paymentMethod: text('payment_method').notNull(),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    processorPaymentId: text('processor_payment_id'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }),
    failureMessage: text('failure_message'),
    placedBy: integer('placed_by')
      .notNull()
      .references(() => users.id),
    /** The request's Idempotency-Key: a retried purchase finds its order instead of buying twice. */
    requestKey: text('request_key'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: integer('cancelled_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('plan_orders_company').on(t.companyId, t.product, t.id),
    index('plan_orders_subscription').on(t.subscriptionId),
    index('plan_orders_placed_by').on(t.placedBy, t.product),
    uniqueIndex('plan_orders_request').on(t.placedBy, t.product, t.requestKey),
    uniqueIndex('plan_orders_processor').on(t.processorPaymentId),
    check('plan_orders_status', sql`${t.status} in ('pending', 'paid', 'failed', 'cancelled', 'refunded')`),
    check('plan_orders_amounts', sql`${t.amount} >= 0 and ${t.refundedAmount} between 0 and ${t.amount}`),
    check('plan_orders_quantity', sql`${t.quantity} >= 1`),
  ],
);

export const planLicences = pgTable(
  'plan_licences',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    product: text('product').notNull(),
    subscriptionId: integer('subscription_id')
      .notNull()
      .references(() => planSubscriptions.id),
    /** The order that bought the seat: the licence is paid when it is. */
    orderId: integer('order_id')
      .notNull()
      .references(() => planOrders.id),
    userId: integer('user_id').references(() => users.id),
    allocation: integer('allocation').notNull().default(0),
    paid: boolean('paid').notNull().default(false),
    /** A seat taken back (its order cancelled or refunded): kept for the record, covers nobody. */
    removedAt: timestamp('removed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('plan_licences_subscription').on(t.subscriptionId),
    index('plan_licences_user').on(t.userId, t.product).where(sql`${t.removedAt} is null`),
    check('plan_licences_allocation', sql`${t.allocation} >= 0`),
  ],
);

export const usageRecords = pgTable(
  'usage_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    product: text('product').notNull(),
    quantity: integer('quantity').notNull(),
    /** The cause (a message segment, a call minute): recording it again adds nothing. */
    ref: text('ref').notNull(),
    /** The first day of its month in USAGE_TIME_ZONE. */
    month: date('month').notNull(),
    occurredAt: timestamp('occurred_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('usage_records_ref').on(t.companyId, t.product, t.ref),
    index('usage_records_user').on(t.userId, t.product, t.month),
    check('usage_records_quantity', sql`${t.quantity} > 0`),
  ],
);

export const usageTotals = pgTable(
  'usage_totals',
  {
    companyId: integer('company_id').notNull(),
    userId: integer('user_id').notNull(),
    product: text('product').notNull(),
    month: date('month').notNull(),
    quantity: bigint('quantity', { mode: 'number' }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.product, t.month] }),
    index('usage_totals_company').on(t.companyId, t.product, t.month),
  ],
);
