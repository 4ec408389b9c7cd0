/** Words and numbers of the plan screens (US English; stored 'cancelled' reads "Canceled"). */
import {
  formatUsd,
  ORDER_KIND_LABELS,
  type OrderStatus,
  PLAN_PRODUCT_LABELS,
  PLAN_UNITS,
  type PlanProduct,
  SUBSCRIPTION_KIND_LABELS,
  type Subscription,
  type SubscriptionStatus,
  unitsLabel,
} from '@harbor/shared';

export { formatUsd, ORDER_KIND_LABELS, PLAN_PRODUCT_LABELS, SUBSCRIPTION_KIND_LABELS, unitsLabel };

export const isProduct = (v: string | undefined): v is PlanProduct => v === 'sms' || v === 'dialer';

export const day = (iso: string | null | undefined) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' }) : '—';

export const STATUS_TEXT: Record<SubscriptionStatus | OrderStatus, string> = {
  pending: 'Pending',
  active: 'Active',
  cancelled: 'Canceled',
  expired: 'Expired',
  paid: 'Paid',
  failed: 'Failed',
  refunded: 'Refunded',
};
export const STATUS_COLOR: Record<SubscriptionStatus | OrderStatus, string> = {
  pending: 'yellow',
  active: 'green',
  cancelled: 'gray',
  expired: 'gray',
  paid: 'green',
  failed: 'red',
  refunded: 'blue',
};

/** "$5.00 a seat a month" */
export const perSeat = (cents: number) => `${formatUsd(cents)} a seat a month`;

/** "2¢ a message" / "$0.15 a minute" */
export function unitPrice(product: PlanProduct, cents: number) {
  const price = cents < 100 ? `${cents}¢` : formatUsd(cents);
  return `${price} a ${PLAN_UNITS[product].one}`;
}

/** What the state of a subscription means for its holder, in a sentence. */
export function subscriptionState(s: Subscription) {
  if (s.status === 'pending') return 'Waiting for payment or activation';
  if (s.status === 'active' && s.cancelled_at) return `Canceled: ends ${day(s.current_period_end)}`;
  if (s.status === 'active')
    return s.auto_renew ? `Renews ${day(s.current_period_end)}` : `Ends ${day(s.current_period_end)}`;
  return STATUS_TEXT[s.status];
}

export const productTitle = (p: PlanProduct) => `${PLAN_PRODUCT_LABELS[p]} plans`;
