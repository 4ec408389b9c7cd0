/**
 * The Harbor account plans (routes.md `account`: GET /v1/plans, update_plan) and the order-management statuses of
 * the store. The spec names the calls but not the plans or statuses (docs/decisions/account-billing.md,
 * store-and-orders.md). Prices are integer cents a month.
 */
export const ACCOUNT_PLAN_IDS = ['essentials', 'professional', 'agency'] as const;
export type AccountPlanId = (typeof ACCOUNT_PLAN_IDS)[number];

export const ACCOUNT_PLANS: Record<AccountPlanId, { name: string; price: number; features: string[] }> = {
  essentials: {
    name: 'Essentials',
    price: 2_900,
    features: ['Contacts, calendar and Medicare dates', 'Scope of appointment requests', 'Email from Harbor'],
  },
  professional: {
    name: 'Professional',
    price: 5_900,
    features: ['Everything in Essentials', 'Imports and exports', 'Campaign triggers and broadcasts'],
  },
  agency: {
    name: 'Agency',
    price: 9_900,
    features: ['Everything in Professional', 'Team reports and downline tools', 'Priority support'],
  },
};

/** Where an order stands with the people who fulfil it (set by admins; payment status is separate). */
export const ORDER_ADMIN_STATUSES = ['new', 'processing', 'fulfilled', 'cancelled'] as const;
export type OrderAdminStatus = (typeof ORDER_ADMIN_STATUSES)[number];
export const ORDER_ADMIN_STATUS_LABELS: Record<OrderAdminStatus, string> = {
  new: 'New',
  processing: 'Processing',
  fulfilled: 'Fulfilled',
  cancelled: 'Cancelled',
};

/** Where a card charge stands with the processor. */
export const CHARGE_STATUSES = ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];
export const CHARGE_STATUS_LABELS: Record<ChargeStatus, string> = {
  pending: 'Pending',
  succeeded: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
  partially_refunded: 'Partly refunded',
};

/** Store orders: at most this many of one item in an order. */
export const STORE_MAX_QUANTITY = 100;
