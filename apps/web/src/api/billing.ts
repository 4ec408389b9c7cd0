/**
 * Account billing, Max Plus, the store and admin order management (shapes from @harbor/shared). Money writes carry
 * an Idempotency-Key kept per thing the person meant to do, so a retried click never charges twice.
 */
import type {
  AccountInfo,
  AgentInfo,
  BillingHistory,
  ManageableUser,
  MaxPlusPlan,
  MaxPlusWrite,
  OrderAdminStatus,
  StoreItem,
  StoreOrder,
  StoreOrderList,
  StoreOrderListQuery,
} from '@harbor/shared';
import { api } from './client';

type Signal = AbortSignal | undefined;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export const accountInfo = (signal?: Signal) => api.get<AccountInfo>('/v1/accounts/info', { signal });
export const connectCard = (card: { number: string; exp_month: number; exp_year: number; cvc: string }) =>
  api.post<AccountInfo>('/v1/accounts/connect_card', card);
export const updatePlan = (plan: string, key: string) =>
  api.post<AccountInfo>('/v1/accounts/update_plan', { plan }, idem(key));
export const billingHistory = (q: { page: number; limit?: number }, signal?: Signal) =>
  api.get<BillingHistory>('/v1/accounts/history', { query: q, signal });
export const cancelAccountPlan = () => api.put<AccountInfo>('/v1/accounts/cancel_subscription', {});

export const maxPlusSubscribe = (plan: MaxPlusPlan, key: string) =>
  api.post<MaxPlusWrite>('/v1/max_plus_subscriptions', { payment_type: 'credit_card', plan }, idem(key));
export const maxPlusCancel = () => api.post<MaxPlusWrite>('/v1/max_plus_subscriptions/cancel', {});
export const maxPlusCancelFor = (user_id: number) =>
  api.post<MaxPlusWrite>('/v1/max_plus_subscriptions/cancel_for_user', { user_id });
export const maxPlusBulk = (user_ids: number[], plan: MaxPlusPlan, key: string) =>
  api.post<MaxPlusWrite>('/v1/max_plus_subscriptions/bulk_subscribe', { user_ids, plan }, idem(key));
export const manageableUsers = (signal?: Signal) =>
  api.get<{ data: ManageableUser[] }>('/v1/max_plus_subscriptions/manageable_users', { signal });

export const storeItems = (signal?: Signal) => api.get<{ data: StoreItem[] }>('/v1/store_items', { signal });
export const storeItem = (id: number, signal?: Signal) => api.get<StoreItem>(`/v1/store_items/${id}`, { signal });
export const agentInfo = (signal?: Signal) => api.get<AgentInfo>('/v1/store_orders/agent_info', { signal });
export const placeOrder = (
  body: { store_item_id: number; quantity: number; notes?: string; contacts_scope?: Record<string, unknown> },
  key: string,
) => api.post<StoreOrder>('/v1/store_orders', { ...body, payment_type: 'credit_card' }, idem(key));

export const adminOrders = (q: StoreOrderListQuery, signal?: Signal) =>
  api.get<StoreOrderList>('/v1/admin/order_management', { query: q, signal });
export const adminOrder = (id: number, signal?: Signal) =>
  api.get<StoreOrder>(`/v1/admin/order_management/${id}`, { signal });
export const setOrderStatus = (id: number, admin_status: OrderAdminStatus) =>
  api.patch<StoreOrder>(`/v1/admin/order_management/${id}`, { admin_status });
export const refundOrder = (id: number, amount: number, key: string) =>
  api.post<StoreOrder>(`/v1/admin/order_management/${id}/refund`, { amount }, idem(key));
