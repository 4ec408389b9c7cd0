/**
 * The wallet area (shapes from @harbor/shared). Money writes carry an Idempotency-Key: the caller keeps one key per
 * thing the person meant to do, so a retried click or a lost answer never moves money twice.
 */
import type {
  AutoRefillSettings,
  CostEstimate,
  InvoiceHistory,
  TransactionHistory,
  UsageType,
  WalletAnalytics,
  WalletMember,
  WalletMove,
  WalletPayment,
  WalletState,
  WalletTransactionKind,
} from '@harbor/shared';
import { api } from './client';

type Signal = AbortSignal | undefined;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export const newIdempotencyKey = () => crypto.randomUUID();

export const getWallet = (signal?: Signal) => api.get<WalletState>('/v1/wallets', { signal });

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}
export const tokenizeCard = (card: CardInput) =>
  api.post<{ id: string; brand: string; last4: string; exp_month: number; exp_year: number }>(
    '/v1/wallets/payment_methods',
    card,
  );

export const topUp = (
  body: {
    amount: number;
    description?: string;
    payment_method_id: string;
    save_card?: boolean;
    wallet?: 'personal' | 'company';
  },
  key: string,
) => api.post<WalletPayment>('/v1/wallets/top_up', body, idem(key));

export const getPayment = (id: number, signal?: Signal) =>
  api.get<WalletPayment>(`/v1/wallets/payments/${id}`, { signal });

export const updateSettings = (body: Partial<AutoRefillSettings>, key: string) =>
  api.put<WalletState>('/v1/wallets/update_settings', body, idem(key));

export const transactionHistory = (
  q: { page: number; per_page?: number; filter: 'all' | WalletTransactionKind },
  signal?: Signal,
) => api.get<TransactionHistory>('/v1/wallets/transaction_history', { query: q, signal });

export const estimateCost = (usageType: UsageType, quantity: number) =>
  api.post<CostEstimate>('/v1/wallets/estimate_cost', { usageType, quantity });

export const walletAnalytics = (period: WalletAnalytics['period'], signal?: Signal) =>
  api.get<WalletAnalytics>('/v1/wallets/analytics', { query: { period }, signal });

export const invoiceHistory = (page: number, signal?: Signal) =>
  api.get<InvoiceHistory>('/v1/wallets/invoice_history', { query: { page }, signal });

export const usagePricing = (signal?: Signal) =>
  api.get<{ prices: Array<{ usage_type: UsageType; label: string; unit: string; unit_price: number }> }>(
    '/v1/wallets/usage_pricing',
    { signal },
  );

export const walletMembers = (signal?: Signal) =>
  api.get<{ members: WalletMember[] }>('/v1/wallets/members', { signal });

export const allocate = (body: { user_ids: number[]; amount: number }, key: string) =>
  api.post<WalletMove>('/v1/wallets/allocate', body, idem(key));

export const reclaim = (body: { user_ids: number[]; amount?: number }, key: string) =>
  api.post<WalletMove>('/v1/wallets/reclaim', body, idem(key));
