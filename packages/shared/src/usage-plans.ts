/**
 * Texting and dialer plans, subscriptions, licences and orders (crm-wallet-dialer-admin.md §3 "Subscription kinds",
 * §4 "Dialer enablement", §5 quota check, §9 price helper), one vocabulary for both products.
 * docs/decisions/usage-plans.md says what each word means where the spec is silent.
 */

/** The two products sold by plan: texting (messages) and the dialer (minutes). */
export const PLAN_PRODUCTS = ['sms', 'dialer'] as const;
export type PlanProduct = (typeof PLAN_PRODUCTS)[number];

export const PLAN_PRODUCT_LABELS: Record<PlanProduct, string> = { sms: 'Texting', dialer: 'Dialer' };

/** What a product counts: a text segment or a started call minute. */
export const PLAN_UNITS: Record<PlanProduct, { one: string; many: string }> = {
  sms: { one: 'message', many: 'messages' },
  dialer: { one: 'minute', many: 'minutes' },
};

export const unitsLabel = (product: PlanProduct, n: number) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? PLAN_UNITS[product].one : PLAN_UNITS[product].many}`;

export const PLAN_TIERS = ['standard', 'premium', 'custom'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];
export const PLAN_TIER_LABELS: Record<PlanTier, string> = {
  standard: 'Standard',
  premium: 'Premium',
  custom: 'Custom',
};

/**
 * Spec §9 "SMS price helper: standard plan 5, premium plan 7, other 0, shown as a dollar amount": the monthly price
 * of a seat of the tier, in dollars. Harbor keeps cents, so this answers 500, 700 or 0; the admin form starts a new
 * texting plan at this price (a custom plan has no default price: the admin names it).
 */
export function smsPlanPrice(tier: string | null | undefined): number {
  if (tier === 'standard') return 500;
  if (tier === 'premium') return 700;
  return 0;
}

/**
 * §3: sms_subscription_type / dialer_subscription_type. `company`: a licence of the company's subscription;
 * `manager`: a licence a manager paid for (order type ManagerPay); `self`: one's own subscription (SelfPay).
 */
export const SUBSCRIPTION_KINDS = ['company', 'manager', 'self'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];
export const SUBSCRIPTION_KIND_LABELS: Record<SubscriptionKind, string> = {
  company: 'Company',
  manager: 'Manager-paid',
  self: 'Self-paid',
};

export const SUBSCRIPTION_STATUSES = ['pending', 'active', 'cancelled', 'expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
export const SUBSCRIPTION_STATUS_LABELS: Record<SubscriptionStatus, string> = {
  pending: 'Pending',
  active: 'Active',
  cancelled: 'Cancelled',
  expired: 'Expired',
};

/** §3: the order types behind the kinds (company subscriptions are paid for others too: ManagerPay). */
export const ORDER_TYPES = ['ManagerPay', 'SelfPay'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];

export const ORDER_KINDS = ['subscription', 'licences', 'renewal'] as const;
export type OrderKind = (typeof ORDER_KINDS)[number];
export const ORDER_KIND_LABELS: Record<OrderKind, string> = {
  subscription: 'New subscription',
  licences: 'More licences',
  renewal: 'Renewal',
};

export const ORDER_STATUSES = ['pending', 'paid', 'failed', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: 'Pending',
  paid: 'Paid',
  failed: 'Failed',
  cancelled: 'Cancelled',
  refunded: 'Refunded',
};

/**
 * How an order is paid: the payer's own wallet, the company wallet (admins), a card through the processor, or an
 * invoice settled outside Harbor (admins only: an enterprise deal).
 */
export const PAYMENT_METHODS = ['wallet', 'company_wallet', 'card', 'invoice'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  wallet: 'My wallet',
  company_wallet: 'Company wallet',
  card: 'Card',
  invoice: 'Invoice',
};

/** POST .../{id}/cancel `type`: run out the paid period (no renewal) or end now and credit the unused part. */
export const CANCEL_TYPES = ['period_end', 'immediate'] as const;
export type CancelType = (typeof CANCEL_TYPES)[number];

/** §7 GET *_subscriptions_active `type`. */
export const ACTIVE_SUBSCRIPTION_TYPES = ['company', 'personal'] as const;

/** §8 dialer result codes used by the quota check, and §5's message. */
export const DIALER_OK = 'OK';
export const OVER_MINUTES_ALLOCATED = 'Over minutes allocated';
export const QUOTA_MESSAGES: Record<PlanProduct, string> = {
  dialer: 'Please request additional minutes from your manager.',
  sms: 'Please request additional messages from your manager.',
};

/** Bounds of what an admin or a buyer may ask for. */
export const PLAN_LIMITS = {
  nameMax: 80,
  descriptionMax: 500,
  priceMax: 1_000_000, // $10,000 a seat a month
  unitsMax: 1_000_000,
  unitPriceMax: 1_000, // $10 a message or minute
  seatsMax: 1_000,
  quantityMax: 500,
} as const;

/** Usage and allocations count per calendar month in this zone (docs/decisions/usage-plans.md). */
export const USAGE_TIME_ZONE = 'America/New_York';
