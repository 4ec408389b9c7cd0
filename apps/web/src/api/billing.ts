/**
 * Account billing, Max Plus, the store and admin order management (shapes from @harbor/shared). Money writes carry
 * an Idempotency-Key kept per thing the person meant to do, so a retried click never charges twice.
 */
import type { MaxPlusPlan, OrderAdminStatus, StoreOrderListQuery } from '@harbor/shared';
import { type BodyOf, call } from './call';

type Signal = AbortSignal | undefined;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export const accountInfo = (signal?: Signal) => call('GET /v1/accounts/info', { signal });
export const connectCard = (card: { number: string; exp_month: number; exp_year: number; cvc: string }) =>
  call('POST /v1/accounts/connect_card', { body: card });
export const updatePlan = (plan: BodyOf<'POST /v1/accounts/update_plan'>['plan'], key: string) =>
  call('POST /v1/accounts/update_plan', { body: { plan }, ...idem(key) });
export const cancelAccountPlan = () => call('PUT /v1/accounts/cancel_subscription');

export const maxPlusSubscribe = (plan: MaxPlusPlan, key: string) =>
  call('POST /v1/max_plus_subscriptions', { body: { payment_type: 'credit_card', plan }, ...idem(key) });
export const maxPlusCancel = () => call('POST /v1/max_plus_subscriptions/cancel');
export const maxPlusCancelFor = (user_id: number) =>
  call('POST /v1/max_plus_subscriptions/cancel_for_user', { body: { user_id } });
export const maxPlusBulk = (user_ids: number[], plan: MaxPlusPlan, key: string) =>
  call('POST /v1/max_plus_subscriptions/bulk_subscribe', { body: { user_ids, plan }, ...idem(key) });
export const placeOrder = (
  body: { store_item_id: number; quantity: number; notes?: string; contacts_scope?: Record<string, unknown> },
  key: string,
) => call('POST /v1/store_orders', { body: { ...body, payment_type: 'credit_card' }, ...idem(key) });

export const adminOrders = (q: StoreOrderListQuery, signal?: Signal) =>
  call('GET /v1/admin/order_management', { query: q, signal });
export const setOrderStatus = (id: number, admin_status: OrderAdminStatus) =>
  call('PATCH /v1/admin/order_management/{id}', { params: { id }, body: { admin_status } });
export const refundOrder = (id: number, amount: number, key: string) =>
  call('POST /v1/admin/order_management/{id}/refund', { params: { id }, body: { amount }, ...idem(key) });
