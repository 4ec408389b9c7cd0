/** What the billing steps share: the account query, the card line, and dates as people read them. */
import { CARD_BRAND_LABELS, type CardBrand, type PaymentInfo } from '@harbor/shared';
import { useQuery } from '@tanstack/react-query';
import { callQuery, qk } from '../../api/queries';

export const ACCOUNT_KEY = qk('GET /v1/accounts/info');

/** The account's billing state; polls while a payment is being settled by the processor. */
export function useAccountInfo() {
  return useQuery({
    ...callQuery('GET /v1/accounts/info'),
    refetchInterval: (q) => (q.state.data?.info.subscription?.status === 'pending' ? 700 : false),
  });
}

export const cardLine = (c: PaymentInfo) =>
  `${CARD_BRAND_LABELS[c.brand as CardBrand] ?? c.brand} ending in ${c.last4}, expires ${String(c.exp_month).padStart(2, '0')}/${String(c.exp_year).slice(-2)}`;

export const longDate = (iso: string | null) =>
  iso ? new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric' }) : 'N/A';
