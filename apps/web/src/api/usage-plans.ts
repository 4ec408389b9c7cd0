/**
 * Texting and dialer plans (routes.md `sms`, `dialer` and their admin areas; shapes from @harbor/shared). One set of
 * functions for both products. Purchases and every money write carry an Idempotency-Key the caller keeps per thing
 * the person meant to do, so a second click or a lost answer never buys twice.
 */
import type {
  AdminCancelBodyInput,
  AdminSubscriptionBodyInput,
  AdminSubscriptionListQueryInput,
  AdminUsage,
  AdminUsageQueryInput,
  CancelBodyInput,
  CancelReply,
  Licence,
  LicenceList,
  LicenceListQueryInput,
  LicenceOrderBody,
  LicenceUpdateBody,
  MaybeSubscription,
  Order,
  OrderList,
  OrderListQueryInput,
  OrderWrite,
  Plan,
  PlanBodyInput,
  PlanList,
  PlanListQueryInput,
  PlanProduct,
  Subscription,
  SubscriptionCreateBodyInput,
  SubscriptionList,
  SubscriptionListQueryInput,
  SubscriptionWrite,
  UsageSummary,
} from '@harbor/shared';
import { api } from './client';

type Signal = AbortSignal | undefined;
type Query = Record<string, string | number | boolean | undefined>;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });
const user = (p: PlanProduct) => `/v1/${p}/${p}_`;
const admin = (p: PlanProduct) => `/v1/admin/${p}`;

export const newIdempotencyKey = () => crypto.randomUUID();

/** A subscription answer is `{}` when there is none (spec §5): this tells the two apart. */
export const isSubscription = (d: MaybeSubscription['data']): d is Subscription => 'id' in d;

export const plansApi = {
  plans: (p: PlanProduct, q: PlanListQueryInput = {}, signal?: Signal) =>
    api.get<PlanList>(`${user(p)}plans`, { query: q as Query, signal }),
  enterprisePlans: (p: PlanProduct, q: PlanListQueryInput = {}, signal?: Signal) =>
    api.get<PlanList>(`${user(p)}plans/enterprise`, { query: q as Query, signal }),

  subscriptions: (p: PlanProduct, q: SubscriptionListQueryInput, signal?: Signal) =>
    api.get<SubscriptionList>(`${user(p)}subscriptions`, { query: q as Query, signal }),
  subscription: (p: PlanProduct, id: number, signal?: Signal) =>
    api.get<Subscription>(`${user(p)}subscriptions/${id}`, { signal }),
  pendingCompany: (p: PlanProduct, signal?: Signal) =>
    api.get<MaybeSubscription>(`${user(p)}subscriptions/pending_company_subscription`, { signal }),
  subscribe: (p: PlanProduct, body: SubscriptionCreateBodyInput, key: string) =>
    api.post<SubscriptionWrite>(`${user(p)}subscriptions`, body, idem(key)),
  setAutoRenew: (p: PlanProduct, id: number, autoRenew: boolean) =>
    api.patch<Subscription>(`${user(p)}subscriptions/${id}`, { auto_renew: autoRenew }),
  cancel: (p: PlanProduct, id: number, body: CancelBodyInput, key: string) =>
    api.post<CancelReply>(`${user(p)}subscriptions/${id}/cancel`, body, idem(key)),
  active: (p: PlanProduct, type: 'company' | 'personal', signal?: Signal) =>
    api.get<MaybeSubscription>(`${user(p)}subscriptions_active`, { query: { type }, signal }),
  usage: (p: PlanProduct, signal?: Signal) => api.get<UsageSummary>(`${user(p)}subscriptions_usage`, { signal }),

  licences: (p: PlanProduct, q: LicenceListQueryInput, signal?: Signal) =>
    api.get<LicenceList>(`${user(p)}licenses`, { query: q as Query, signal }),
  updateLicence: (p: PlanProduct, id: number, body: LicenceUpdateBody) =>
    api.patch<Licence>(`${user(p)}licenses/${id}`, body),
  orderLicences: (p: PlanProduct, body: LicenceOrderBody, key: string) =>
    api.post<OrderWrite>(`${user(p)}licenses_order`, body, idem(key)),

  orders: (p: PlanProduct, q: OrderListQueryInput, signal?: Signal) =>
    api.get<OrderList>(`${user(p)}orders`, { query: q as Query, signal }),
  order: (p: PlanProduct, id: number, signal?: Signal) => api.get<Order>(`${user(p)}orders/${id}`, { signal }),
};

export const plansAdminApi = {
  usage: (p: PlanProduct, q: AdminUsageQueryInput, signal?: Signal) =>
    api.get<AdminUsage>(`${admin(p)}/usage`, { query: q as Query, signal }),
  subscriptions: (p: PlanProduct, q: AdminSubscriptionListQueryInput, signal?: Signal) =>
    api.get<SubscriptionList>(`${admin(p)}/subscriptions`, { query: q as Query, signal }),
  prepare: (p: PlanProduct, body: AdminSubscriptionBodyInput, key: string) =>
    api.post<SubscriptionWrite>(`${admin(p)}/subscriptions`, body, idem(key)),
  activate: (p: PlanProduct, id: number, key: string) =>
    api.post<SubscriptionWrite>(`${admin(p)}/active_subscription`, { id }, idem(key)),
  cancel: (p: PlanProduct, body: AdminCancelBodyInput, key: string) =>
    api.post<CancelReply>(`${admin(p)}/cancel_subscription`, body, idem(key)),
  orders: (p: PlanProduct, q: OrderListQueryInput, signal?: Signal) =>
    api.get<OrderList>(`${admin(p)}/orders`, { query: q as Query, signal }),
  addSeats: (
    p: PlanProduct,
    body: { subscription_id: number; quantity: number; payment_method: 'company_wallet' | 'invoice' },
    key: string,
  ) => api.post<OrderWrite>(`${admin(p)}/orders`, body, idem(key)),
  cancelOrder: (p: PlanProduct, id: number, key: string) =>
    api.post<OrderWrite>(`${admin(p)}/cancel_order`, { id }, idem(key)),
  plans: (p: PlanProduct, q: PlanListQueryInput, signal?: Signal) =>
    api.get<PlanList>(`${admin(p)}/${p}_plans`, { query: q as Query, signal }),
  createPlan: (p: PlanProduct, body: PlanBodyInput) => api.post<Plan>(`${admin(p)}/${p}_plans`, body),
  updatePlan: (p: PlanProduct, id: number, body: Partial<PlanBodyInput>) =>
    api.patch<Plan>(`${admin(p)}/${p}_plans/${id}`, body),
  deletePlan: (p: PlanProduct, id: number) => api.delete<undefined>(`${admin(p)}/${p}_plans/${id}`),
};
