/**
 * Texting and dialer plans (routes.md `sms`, `dialer` and their admin areas; shapes from @harbor/shared). One set of
 * functions for both products. Purchases and every money write carry an Idempotency-Key the caller keeps per thing
 * the person meant to do, so a second click or a lost answer never buys twice.
 */
import type {
  AdminCancelBodyInput,
  AdminSubscriptionBodyInput,
  CancelBodyInput,
  LicenceOrderBody,
  LicenceUpdateBody,
  MaybeSubscription,
  PlanBodyInput,
  PlanProduct,
  Subscription,
  SubscriptionCreateBodyInput,
} from '@harbor/shared';
import type { QueryClient } from '@tanstack/react-query';
import { call, type QueryOf } from './call';
import type { Method } from './client';
import { qkUnder } from './queries';

type Signal = AbortSignal | undefined;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });
/**
 * Both products register the same routes from the same code and shared schemas (usage-plans/routes.ts), so a
 * product's key is typed as the texting one; the contract check compares each product's routes on its own.
 */
export const planKey = <M extends Method, R extends string>(m: M, p: PlanProduct, rest: R) =>
  `${m} /v1/${p}/${p}_${rest}` as `${M} /v1/sms/sms_${R}`;
export const planAdminKey = <M extends Method, R extends string>(m: M, p: PlanProduct, rest: R) =>
  `${m} /v1/admin/${p}/${rest.replace('{p}', p)}` as `${M} /v1/admin/sms/${R extends `{p}${infer T}` ? `sms${T}` : R}`;

/** After a purchase, a cancellation or an admin change: every query of the product's own routes. */
export const invalidatePlans = (qc: QueryClient, p: PlanProduct) => qc.invalidateQueries(qkUnder(`/v1/${p}`));
/** The admin's queries of the product. */
export const invalidatePlansAdmin = (qc: QueryClient, p: PlanProduct) =>
  qc.invalidateQueries(qkUnder(`/v1/admin/${p}`));

export const newIdempotencyKey = () => crypto.randomUUID();

/** A subscription answer is `{}` when there is none (spec §5): this tells the two apart. */
export const isSubscription = (d: MaybeSubscription['data']): d is Subscription => 'id' in d;

export const plansApi = {
  plans: (p: PlanProduct, q: QueryOf<'GET /v1/sms/sms_plans'> = {}, signal?: Signal) =>
    call(planKey('GET', p, 'plans'), { query: q, signal }),
  enterprisePlans: (p: PlanProduct, q: QueryOf<'GET /v1/sms/sms_plans/enterprise'> = {}, signal?: Signal) =>
    call(planKey('GET', p, 'plans/enterprise'), { query: q, signal }),

  subscriptions: (p: PlanProduct, q: QueryOf<'GET /v1/sms/sms_subscriptions'>, signal?: Signal) =>
    call(planKey('GET', p, 'subscriptions'), { query: q, signal }),
  subscription: (p: PlanProduct, id: number, signal?: Signal) =>
    call(planKey('GET', p, 'subscriptions/{id}'), { params: { id }, signal }),
  pendingCompany: (p: PlanProduct, signal?: Signal) =>
    call(planKey('GET', p, 'subscriptions/pending_company_subscription'), { signal }),
  subscribe: (p: PlanProduct, body: SubscriptionCreateBodyInput, key: string) =>
    call(planKey('POST', p, 'subscriptions'), { body, ...idem(key) }),
  setAutoRenew: (p: PlanProduct, id: number, autoRenew: boolean) =>
    call(planKey('PATCH', p, 'subscriptions/{id}'), { params: { id }, body: { auto_renew: autoRenew } }),
  cancel: (p: PlanProduct, id: number, body: CancelBodyInput, key: string) =>
    call(planKey('POST', p, 'subscriptions/{id}/cancel'), { params: { id }, body, ...idem(key) }),
  active: (p: PlanProduct, type: 'company' | 'personal', signal?: Signal) =>
    call(planKey('GET', p, 'subscriptions_active'), { query: { type }, signal }),
  usage: (p: PlanProduct, signal?: Signal) => call(planKey('GET', p, 'subscriptions_usage'), { signal }),

  licences: (p: PlanProduct, q: QueryOf<'GET /v1/sms/sms_licenses'>, signal?: Signal) =>
    call(planKey('GET', p, 'licenses'), { query: q, signal }),
  updateLicence: (p: PlanProduct, id: number, body: LicenceUpdateBody) =>
    call(planKey('PATCH', p, 'licenses/{id}'), { params: { id }, body }),
  orderLicences: (p: PlanProduct, body: LicenceOrderBody, key: string) =>
    call(planKey('POST', p, 'licenses_order'), { body, ...idem(key) }),

  orders: (p: PlanProduct, q: QueryOf<'GET /v1/sms/sms_orders'>, signal?: Signal) =>
    call(planKey('GET', p, 'orders'), { query: q, signal }),
  order: (p: PlanProduct, id: number, signal?: Signal) =>
    call(planKey('GET', p, 'orders/{id}'), { params: { id }, signal }),
};

export const plansAdminApi = {
  usage: (p: PlanProduct, q: QueryOf<'GET /v1/admin/sms/usage'>, signal?: Signal) =>
    call(planAdminKey('GET', p, 'usage'), { query: q, signal }),
  subscriptions: (p: PlanProduct, q: QueryOf<'GET /v1/admin/sms/subscriptions'>, signal?: Signal) =>
    call(planAdminKey('GET', p, 'subscriptions'), { query: q, signal }),
  prepare: (p: PlanProduct, body: AdminSubscriptionBodyInput, key: string) =>
    call(planAdminKey('POST', p, 'subscriptions'), { body, ...idem(key) }),
  activate: (p: PlanProduct, id: number, key: string) =>
    call(planAdminKey('POST', p, 'active_subscription'), { body: { id }, ...idem(key) }),
  cancel: (p: PlanProduct, body: AdminCancelBodyInput, key: string) =>
    call(planAdminKey('POST', p, 'cancel_subscription'), { body, ...idem(key) }),
  orders: (p: PlanProduct, q: QueryOf<'GET /v1/admin/sms/orders'>, signal?: Signal) =>
    call(planAdminKey('GET', p, 'orders'), { query: q, signal }),
  addSeats: (
    p: PlanProduct,
    body: { subscription_id: number; quantity: number; payment_method: 'company_wallet' | 'invoice' },
    key: string,
  ) => call(planAdminKey('POST', p, 'orders'), { body, ...idem(key) }),
  cancelOrder: (p: PlanProduct, id: number, key: string) =>
    call(planAdminKey('POST', p, 'cancel_order'), { body: { id }, ...idem(key) }),
  plans: (p: PlanProduct, q: QueryOf<'GET /v1/admin/sms/sms_plans'>, signal?: Signal) =>
    call(planAdminKey('GET', p, '{p}_plans'), { query: q, signal }),
  createPlan: (p: PlanProduct, body: PlanBodyInput) => call(planAdminKey('POST', p, '{p}_plans'), { body }),
  updatePlan: (p: PlanProduct, id: number, body: Partial<PlanBodyInput>) =>
    call(planAdminKey('PATCH', p, '{p}_plans/{id}'), { params: { id }, body }),
  deletePlan: (p: PlanProduct, id: number) => call(planAdminKey('DELETE', p, '{p}_plans/{id}'), { params: { id } }),
};
