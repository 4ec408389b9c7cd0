/**
 * The wallet area (shapes from @harbor/shared). Money writes carry an Idempotency-Key: the caller keeps one key per
 * thing the person meant to do, so a retried click or a lost answer never moves money twice.
 */
import type { AutoRefillSettings, UsageType } from '@harbor/shared';
import { call } from './call';

const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export const newIdempotencyKey = () => crypto.randomUUID();

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

export const updateSettings = (body: Partial<AutoRefillSettings>, key: string) =>
  call('PUT /v1/wallets/update_settings', { body, ...idem(key) });

export const estimateCost = (usageType: UsageType, quantity: number) =>
  call('POST /v1/wallets/estimate_cost', { body: { usageType, quantity } });

export const allocate = (body: { user_ids: number[]; amount: number }, key: string) =>
  call('POST /v1/wallets/allocate', { body, ...idem(key) });

export const reclaim = (body: { user_ids: number[]; amount?: number }, key: string) =>
  call('POST /v1/wallets/reclaim', { body, ...idem(key) });
