/**
 * The wallet area of /v1 (crm-wallet-dialer-admin.md §3 "Wallet state", §7 "Wallet", §9). Money fields keep the
 * spec's names (balance, amount, threshold) and carry integer cents (docs/decisions/wallet-api.md).
 */
import { z } from 'zod';
import { WALLET_TRANSACTIONS_PAGE_SIZE } from '../constants.js';
import { formatUsd } from '../money.js';

/** Spec §9: auto-refill disabled, threshold 10 dollars, amount 50 dollars. */
export const WALLET_DEFAULTS = { enabled: false, threshold: 1_000, amount: 5_000 } as const;

/** Bounds of every amount a person may ask for (cents). Outside them is a typing slip, not a payment. */
export const WALLET_LIMITS = {
  topUpMin: 500,
  topUpMax: 1_000_000,
  thresholdMin: 100,
  thresholdMax: 1_000_000,
  refillMin: 500,
  refillMax: 1_000_000,
  allocateMax: 1_000_000,
  usersPerRequest: 100,
  quantityMax: 1_000_000,
  descriptionMax: 200,
} as const;

/** Whole cents between two bounds, with the bounds said in dollars. */
export const Cents = (min: number, max: number) =>
  z
    .number({ error: 'must be an amount in cents' })
    .int('must be whole cents (no fraction of a cent)')
    .min(min, `must be at least ${formatUsd(min)}`)
    .max(max, `must be at most ${formatUsd(max)}`);

/** What is charged from a wallet, per unit (cents). */
export const USAGE_TYPES = [
  'sms',
  'mms',
  'outbound_call_minute',
  'inbound_call_minute',
  'call_recording_minute',
  'phone_number_month',
  'phone_validation',
] as const;
export type UsageType = (typeof USAGE_TYPES)[number];

/** The price list (docs/decisions/wallet-api.md): what usage_pricing shows, estimate_cost and every debit use. */
export const USAGE_PRICES: Record<UsageType, { label: string; unit: string; unit_price: number }> = {
  sms: { label: 'Text message (SMS)', unit: 'segment', unit_price: 2 },
  mms: { label: 'Picture message (MMS)', unit: 'message', unit_price: 5 },
  outbound_call_minute: { label: 'Outbound call', unit: 'minute', unit_price: 3 },
  inbound_call_minute: { label: 'Inbound call', unit: 'minute', unit_price: 2 },
  call_recording_minute: { label: 'Call recording', unit: 'minute', unit_price: 1 },
  phone_number_month: { label: 'Phone number', unit: 'month', unit_price: 150 },
  phone_validation: { label: 'Phone number validation', unit: 'lookup', unit_price: 1 },
};

export const WALLET_TRANSACTION_KINDS = ['top_up', 'auto_refill', 'usage', 'allocation', 'reclaim', 'refund'] as const;
export type WalletTransactionKind = (typeof WALLET_TRANSACTION_KINDS)[number];
export const WALLET_TRANSACTION_LABELS: Record<WalletTransactionKind, string> = {
  top_up: 'Top-up',
  auto_refill: 'Auto-refill',
  usage: 'Usage',
  allocation: 'Allocation',
  reclaim: 'Reclaim',
  refund: 'Refund',
};

export const AutoRefillSettings = z.object({ enabled: z.boolean(), threshold: z.number(), amount: z.number() });
export type AutoRefillSettings = z.infer<typeof AutoRefillSettings>;

export const SavedCard = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number(),
  exp_year: z.number(),
});

/** GET /v1/wallets (and the answer of update_settings). */
export const WalletState = z.object({
  balance: z.number(),
  auto_refill_settings: AutoRefillSettings,
  card: SavedCard.nullable(),
  /** Admins: the company wallet that allocations are drawn from. */
  company_balance: z.number().nullable(),
  can_allocate: z.boolean(),
  /** Where the card form sends the card: our own route in loopback mode; Stripe.js in production (not bundled). */
  processor: z.object({ kind: z.enum(['stripe', 'loopback']), publishable_key: z.string() }),
});
export type WalletState = z.infer<typeof WalletState>;

export const TopUpBody = z.strictObject({
  amount: Cents(WALLET_LIMITS.topUpMin, WALLET_LIMITS.topUpMax),
  description: z.string().trim().max(WALLET_LIMITS.descriptionMax).optional(),
  payment_method_id: z.string().regex(/^pm_[A-Za-z0-9_-]{4,100}$/, 'is not a card of the processor'),
  /** Keep the card for auto-refill. */
  save_card: z.boolean().optional(),
  /** Admins may fund the company wallet that allocations draw from. */
  wallet: z.enum(['personal', 'company']).optional(),
});
export type TopUpBody = z.infer<typeof TopUpBody>;

export const WALLET_PAYMENT_STATUSES = ['pending', 'succeeded', 'failed', 'requires_action'] as const;
export const WalletPayment = z.object({
  id: z.number(),
  kind: z.enum(['top_up', 'auto_refill']),
  wallet: z.enum(['personal', 'company']),
  amount: z.number(),
  description: z.string(),
  status: z.enum(WALLET_PAYMENT_STATUSES),
  card_brand: z.string().nullable(),
  card_last4: z.string().nullable(),
  failure_message: z.string().nullable(),
  invoice_number: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** The wallet's balance now (the receipt shows it once the payment is credited). */
  balance: z.number(),
});
export type WalletPayment = z.infer<typeof WalletPayment>;

export const UpdateSettingsBody = z
  .strictObject({
    enabled: z.boolean(),
    threshold: Cents(WALLET_LIMITS.thresholdMin, WALLET_LIMITS.thresholdMax),
    amount: Cents(WALLET_LIMITS.refillMin, WALLET_LIMITS.refillMax),
  })
  .partial()
  .refine((b) => Object.keys(b).length > 0, { message: 'Give enabled, threshold or amount', path: ['enabled'] });
export type UpdateSettingsBody = z.infer<typeof UpdateSettingsBody>;

export const TransactionHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(WALLET_TRANSACTIONS_PAGE_SIZE),
  filter: z.enum(['all', ...WALLET_TRANSACTION_KINDS]).default('all'),
});

export const WalletTransaction = z.object({
  id: z.number(),
  kind: z.enum(WALLET_TRANSACTION_KINDS),
  /** Signed cents, as seen from this wallet: positive in, negative out. */
  amount: z.number(),
  balance_after: z.number().nullable(),
  description: z.string(),
  details: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export type WalletTransaction = z.infer<typeof WalletTransaction>;

/** Wallet paging reads current_page, per_page, total_pages, total_count (spec §3). */
export const WalletPagination = z.object({
  current_page: z.number(),
  per_page: z.number(),
  total_pages: z.number(),
  total_count: z.number(),
});
export const TransactionHistory = z.object({
  transactions: z.array(WalletTransaction),
  pagination: WalletPagination,
});
export type TransactionHistory = z.infer<typeof TransactionHistory>;

export const EstimateCostBody = z.strictObject({
  usageType: z.enum(USAGE_TYPES),
  quantity: z.number().int('must be a whole number').min(1).max(WALLET_LIMITS.quantityMax),
});
export const CostEstimate = z.object({
  usageType: z.enum(USAGE_TYPES),
  quantity: z.number(),
  unit_price: z.number(),
  amount: z.number(),
  balance: z.number(),
  affordable: z.boolean(),
});
export type CostEstimate = z.infer<typeof CostEstimate>;

export const ANALYTICS_PERIODS = ['7d', '30d', '90d', '12m'] as const;
export const AnalyticsQuery = z.object({
  period: z.enum(ANALYTICS_PERIODS).default('30d'),
  corporation_id: z.coerce.number().int().positive().optional(),
});
export const WalletAnalytics = z.object({
  period: z.enum(ANALYTICS_PERIODS),
  scope: z.enum(['user', 'company']),
  from: z.string(),
  to: z.string(),
  totals: z.object({ credits: z.number(), spend: z.number() }),
  /** One point per day (per month for 12m), oldest first, empty days included. */
  series: z.array(z.object({ date: z.string(), credits: z.number(), spend: z.number() })),
  by_usage_type: z.array(
    z.object({ usage_type: z.string(), label: z.string(), amount: z.number(), quantity: z.number() }),
  ),
});
export type WalletAnalytics = z.infer<typeof WalletAnalytics>;

export const WalletInvoice = z.object({
  id: z.number(),
  number: z.string(),
  kind: z.enum(['top_up', 'auto_refill']),
  amount: z.number(),
  description: z.string(),
  card_brand: z.string().nullable(),
  card_last4: z.string().nullable(),
  paid_at: z.string(),
  download_url: z.string(),
});
export const InvoiceHistory = z.object({ invoices: z.array(WalletInvoice), pagination: WalletPagination });
export type InvoiceHistory = z.infer<typeof InvoiceHistory>;

const UserIds = z
  .array(z.number().int().positive())
  .min(1, 'pick at least one person')
  .max(WALLET_LIMITS.usersPerRequest, `at most ${WALLET_LIMITS.usersPerRequest} people at once`)
  .refine((ids) => new Set(ids).size === ids.length, 'names someone twice');
export const AllocateBody = z.strictObject({ user_ids: UserIds, amount: Cents(1, WALLET_LIMITS.allocateMax) });
/** Without an amount, each person's whole balance is reclaimed. */
export const ReclaimBody = z.strictObject({
  user_ids: UserIds,
  amount: Cents(1, WALLET_LIMITS.allocateMax).optional(),
});
export const WalletMove = z.object({
  moved: z.array(z.object({ user_id: z.number(), amount: z.number(), balance: z.number() })),
  /** The caller's source (allocate) or destination (reclaim) wallet afterwards. */
  funding_balance: z.number(),
  funding_wallet: z.enum(['personal', 'company']),
});
export type WalletMove = z.infer<typeof WalletMove>;

export const WalletMember = z.object({ id: z.number(), name: z.string(), email: z.string(), balance: z.number() });
export const WalletMembers = z.object({ members: z.array(WalletMember) });
export type WalletMember = z.infer<typeof WalletMember>;

export const UsagePricing = z.object({
  prices: z.array(
    z.object({ usage_type: z.enum(USAGE_TYPES), label: z.string(), unit: z.string(), unit_price: z.number() }),
  ),
});

/** Loopback mode: the card form's card, turned into a processor payment method (never stored). */
export const CardBody = z.strictObject({
  number: z.string().trim().min(12).max(23),
  exp_month: z.number().int().min(1).max(12),
  exp_year: z.number().int().min(2000).max(2100),
  cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
});
export const CardToken = z.object({
  id: z.string(),
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number(),
  exp_year: z.number(),
});
export const InvoiceHistoryQuery = z.object({ page: z.coerce.number().int().min(1).max(100_000).default(1) });

/** Payments and invoices are named by their processor id. */
export const ProcessorIdParams = z.object({ id: z.string() });
