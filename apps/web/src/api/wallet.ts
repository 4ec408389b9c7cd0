/**
 * The wallet area (shapes from @harbor/shared). Money writes carry an Idempotency-Key: the caller keeps one key per
 * thing the person meant to do, so a retried click or a lost answer never moves money twice.
 */
import type { AutoRefillSettings, UsageType, WalletAnalytics, WalletTransactionKind } from '@harbor/shared';
import { call } from './call';

type Signal = AbortSignal | undefined;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export const newIdempotencyKey = () => crypto.randomUUID();

export const getWallet = (signal?: Signal) => call('GET /v1/wallets', { signal });

export interface CardInput {
  number: string;
  exp_month: number;
  exp_year: number;
  cvc: string;
}
export const tokenizeCard = (card: CardInput) => call('POST /v1/wallets/payment_methods', { body: card });

export const topUp = (
  body: {
    amount: number;
    description?: string;
    payment_method_id: string;
    save_card?: boolean;
    wallet?: 'personal' | 'company';
  },
  key: string,
) => call('POST /v1/wallets/top_up', { body, ...idem(key) });

export const getPayment = (id: number, signal?: Signal) =>
  call('GET /v1/wallets/payments/{id}', { params: { id }, signal });

export const updateSettings = (body: Partial<AutoRefillSettings>, key: string) =>
  call('PUT /v1/wallets/update_settings', { body, ...idem(key) });

export const transactionHistory = (
  q: { page: number; per_page?: number; filter: 'all' | WalletTransactionKind },
  signal?: Signal,
) => call('GET /v1/wallets/transaction_history', { query: q, signal });

export const estimateCost = (usageType: UsageType, quantity: number) =>
  call('POST /v1/wallets/estimate_cost', { body: { usageType, quantity } });

export const walletAnalytics = (period: WalletAnalytics['period'], signal?: Signal) =>
  call('GET /v1/wallets/analytics', { query: { period }, signal });

export const invoiceHistory = (page: number, signal?: Signal) =>
  call('GET /v1/wallets/invoice_history', { query: { page }, signal });

export const usagePricing = (signal?: Signal) => call('GET /v1/wallets/usage_pricing', { signal });

export const walletMembers = (signal?: Signal) => call('GET /v1/wallets/members', { signal });

export const allocate = (body: { user_ids: number[]; amount: number }, key: string) =>
  call('POST /v1/wallets/allocate', { body, ...idem(key) });

export const reclaim = (body: { user_ids: number[]; amount?: number }, key: string) =>
  call('POST /v1/wallets/reclaim', { body, ...idem(key) });
