/**
 * The wallet's double-entry ledger (docs/decisions/wallet-ledger.md). Money is integer cents everywhere.
 *
 * - `ledger_accounts`: one agent wallet per user, and per company one company wallet, one processor clearing, one
 *   revenue and one refunds account. Wallets carry a cached `balance` (kept in the transaction that moves it, never
 *   below zero by a CHECK); system accounts carry none (their balance is the sum of their entries), so they are
 *   never a hot row that every debit would queue on.
 * - `ledger_transactions`: one per movement, with the movement's idempotency key, unique per company.
 * - `ledger_entries`: the legs; a statement-level trigger refuses a transaction whose entries do not sum to zero,
 *   and entries are never updated or deleted (migration ledger_guards).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
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

export const ledgerAccounts = pgTable(
  'ledger_accounts',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** agent_wallet | company_wallet | processor_clearing | revenue | refunds */
    kind: text('kind').notNull(),
    /** The wallet's owner (agent wallets only). */
    userId: integer('user_id').references(() => users.id),
    /** Cached balance of a wallet (sum of its entries, kept in the same transaction); null for system accounts. */
    balance: bigint('balance', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('ledger_accounts_agent_wallet').on(t.userId).where(sql`${t.kind} = 'agent_wallet'`),
    uniqueIndex('ledger_accounts_company_kind').on(t.companyId, t.kind).where(sql`${t.kind} <> 'agent_wallet'`),
    check(
      'ledger_accounts_kind',
      sql`${t.kind} in ('agent_wallet', 'company_wallet', 'processor_clearing', 'revenue', 'refunds')`,
    ),
    check('ledger_accounts_owner', sql`(${t.kind} = 'agent_wallet') = (${t.userId} is not null)`),
    // The last line of defence of "a wallet never goes below zero": whatever code runs, the row cannot.
    check(
      'ledger_accounts_wallet_balance',
      sql`case when ${t.kind} in ('agent_wallet', 'company_wallet') then ${t.balance} is not null and ${t.balance} >= 0
          else ${t.balance} is null end`,
    ),
  ],
);

export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** top_up | auto_refill | usage | allocation | reclaim | refund */
    kind: text('kind').notNull(),
    /** From the movement's cause (a message id, a call leg, a payment intent): a retry finds it and adds nothing. */
    idempotencyKey: text('idempotency_key').notNull(),
    description: text('description').notNull().default(''),
    /** What a debit paid for (usage type, quantity, to whom, how long) or who an allocation reached. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    actorId: integer('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('ledger_transactions_key').on(t.companyId, t.idempotencyKey)],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    // No foreign keys here: a per-row check on the hottest insert; the statement-level trigger of ledger_guards
    // checks that every entry's account and transaction exist and are of its company, once per statement.
    transactionId: bigint('transaction_id', { mode: 'number' }).notNull(),
    accountId: integer('account_id').notNull(),
    companyId: integer('company_id').notNull(),
    /** Signed cents: positive into the account, negative out of it. */
    amount: bigint('amount', { mode: 'number' }).notNull(),
    /** A wallet's balance right after this entry (null on system accounts): the history shows it without a sum. */
    balanceAfter: bigint('balance_after', { mode: 'number' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_account').on(t.accountId, t.id),
    index('ledger_entries_transaction').on(t.transactionId),
    check('ledger_entries_amount', sql`${t.amount} <> 0`),
  ],
);

/** Auto-refill and the saved card of a wallet (brand, last four and expiry only; the processor holds the card). */
export const walletSettings = pgTable('wallet_settings', {
  accountId: integer('account_id')
    .primaryKey()
    .references(() => ledgerAccounts.id),
  companyId: integer('company_id').notNull(),
  autoRefillEnabled: boolean('auto_refill_enabled').notNull().default(false),
  /** Cents (spec defaults: threshold 10 dollars, amount 50 dollars). */
  autoRefillThreshold: bigint('auto_refill_threshold', { mode: 'number' }).notNull().default(1000),
  autoRefillAmount: bigint('auto_refill_amount', { mode: 'number' }).notNull().default(5000),
  processorCustomerId: text('processor_customer_id'),
  paymentMethodId: text('payment_method_id'),
  cardBrand: text('card_brand'),
  cardLast4: text('card_last4'),
  cardExpMonth: integer('card_exp_month'),
  cardExpYear: integer('card_exp_year'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Card payments into a wallet (a top-up by hand or an auto-refill). A payment is credited to the wallet only when
 * the processor's signed webhook says it succeeded; its succeeded row is the invoice (a PDF on request).
 */
export const walletPayments = pgTable(
  'wallet_payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    accountId: integer('account_id')
      .notNull()
      .references(() => ledgerAccounts.id),
    /** top_up | auto_refill */
    kind: text('kind').notNull(),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    description: text('description').notNull().default(''),
    /** pending | succeeded | failed | requires_action */
    status: text('status').notNull().default('pending'),
    processorPaymentId: text('processor_payment_id'),
    cardBrand: text('card_brand'),
    cardLast4: text('card_last4'),
    failureMessage: text('failure_message'),
    /** The top-up request's Idempotency-Key: a retried request finds its payment instead of making another. */
    requestKey: text('request_key'),
    ledgerTransactionId: bigint('ledger_transaction_id', { mode: 'number' }),
    invoiceNumber: text('invoice_number'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('wallet_payments_processor').on(t.processorPaymentId),
    index('wallet_payments_user').on(t.userId, t.id),
    uniqueIndex('wallet_payments_request').on(t.userId, t.requestKey),
    // One auto-refill in flight per wallet, whatever number of debits crossed the threshold at once.
    uniqueIndex('wallet_payments_one_auto_refill')
      .on(t.accountId)
      .where(sql`${t.kind} = 'auto_refill' and ${t.status} = 'pending'`),
    check('wallet_payments_amount', sql`${t.amount} > 0`),
  ],
);
