/**
 * The user side of a product (routes.md `sms` and `dialer`, the plan routes): plans, subscriptions, the active and
 * pending ones, usage, licences and orders, under `/v1/<product>/<product>_...`. The same handlers serve both
 * products; only the prefix, the permission and the feature gate differ.
 */
import {
  ActiveQuery,
  CancelBody,
  CancelReply,
  can,
  IdParams as IdParam,
  Licence,
  LicenceList,
  LicenceListQuery,
  LicenceOrderBody,
  LicenceUpdateBody,
  MaybeSubscription,
  Order,
  OrderList,
  OrderListQuery,
  OrderWrite,
  PlanList,
  PlanListQuery,
  type PlanProduct,
  Subscription,
  SubscriptionCreateBody,
  SubscriptionList,
  SubscriptionListQuery,
  SubscriptionUpdateBody,
  SubscriptionWrite,
  UsageSummary,
} from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Deps } from '../../platform/deps.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { reachOf } from '../../platform/reach.js';
import { fundsFromCompany } from '../wallet/service.js';
import { GATES } from './gates.js';
import { listLicences, loadLicence, updateLicence } from './licences.js';
import { listOrders, loadOrder } from './orders.js';
import { plansOnSale } from './plans.js';
import { presentLicence, presentOrder, presentSubscription } from './presenters.js';
import { checkPurchase, createSubscription, orderLicences, planOnSale } from './purchase.js';
import {
  activeSubscription,
  assertManageable,
  cancelSubscription,
  listSubscriptions,
  loadSubscription,
  pendingCompanySubscription,
  setAutoRenew,
} from './subscriptions.js';
import { usageSummary } from './usage.js';

/** The payment method is one the caller may use (wallet on; the company wallet for admins). */
export function assertPaymentMethod(auth: AuthContext, method: string) {
  if (method === 'wallet' && !auth.features.wallet_feature) {
    throw invalid('payment_method', 'The wallet is turned off for your account; pay by card.');
  }
  if (method === 'company_wallet' && !fundsFromCompany(auth)) {
    throw invalid('payment_method', 'Only admins pay from the company wallet.');
  }
}

/** An order and the subscription it bought, as a write answers them. */
export async function writeAnswer(deps: Deps, auth: AuthContext, product: PlanProduct, subId: number, orderId: number) {
  const db = deps.database.db;
  const sub = await loadSubscription(db, auth, product, subId, true);
  const order = await loadOrder(db, auth, product, orderId, true);
  return { data: presentSubscription(sub, auth), order: presentOrder(order) };
}

export function registerProductRoutes(scope: FastifyInstance, product: PlanProduct) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  const base = `/v1/${product}/${product}_`;
  const tags = [product];
  const gate = GATES[product];
  const config = { ...gate };
  const byId = (resource: string) => ({ ...gate, tenant: { param: 'id', resource: `${product}_${resource}` } });

  app.get(
    `${base}plans`,
    { config, schema: { tags, summary: 'Plans on sale', querystring: PlanListQuery, response: { 200: PlanList } } },
    async (req) => plansOnSale(db, authOf(req).company.id, product, false, req.query),
  );
  app.get(
    `${base}plans/enterprise`,
    {
      config,
      schema: {
        tags,
        summary: 'Enterprise plans (sold to a team or the company)',
        querystring: PlanListQuery,
        response: { 200: PlanList },
      },
    },
    async (req) => plansOnSale(db, authOf(req).company.id, product, true, req.query),
  );

  app.get(
    `${base}subscriptions`,
    {
      config,
      schema: {
        tags,
        summary: 'Subscriptions the caller sees (q, order, order_field, page, limit, active, mine)',
        querystring: SubscriptionListQuery,
        response: { 200: SubscriptionList },
      },
    },
    async (req) => listSubscriptions(db, authOf(req), product, req.query),
  );
  // A fixed segment before `{id}` (routes.md routing caution); the router prefers it whatever the order.
  app.get(
    `${base}subscriptions/pending_company_subscription`,
    {
      config,
      schema: { tags, summary: "The company's subscription waiting for payment", response: { 200: MaybeSubscription } },
    },
    async (req) => pendingCompanySubscription(db, authOf(req), product),
  );
  app.get(
    `${base}subscriptions/:id`,
    {
      config: byId('subscription'),
      schema: { tags, summary: 'One subscription', params: IdParam, response: { 200: Subscription } },
    },
    async (req) => {
      const auth = authOf(req);
      return presentSubscription(await loadSubscription(db, auth, product, req.params.id), auth);
    },
  );
  app.post(
    `${base}subscriptions`,
    {
      config: { ...config, idempotent: 'required' },
      schema: {
        tags,
        summary: 'Subscribe: for oneself (self), a team (manager) or the company (admins); paid now or by card',
        body: SubscriptionCreateBody,
        response: { 201: SubscriptionWrite, 202: SubscriptionWrite },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      if (b.kind === 'manager' && !can(auth.subject, 'plans.allocate')) {
        throw invalid('kind', 'Only managers and admins buy seats for a team.');
      }
      if (b.kind === 'company' && reachOf(auth) !== 'company') {
        throw invalid('kind', 'Only admins buy a company subscription.');
      }
      assertPaymentMethod(auth, b.payment_method);
      const plan = await planOnSale(db, auth.company.id, product, b.plan_id);
      await checkPurchase(db, {
        companyId: auth.company.id,
        product,
        plan,
        kind: b.kind,
        ownerId: auth.user.id,
        seats: b.seats,
      });
      const ids = await createSubscription(deps, {
        companyId: auth.company.id,
        product,
        plan,
        kind: b.kind,
        ownerId: auth.user.id,
        seats: b.seats,
        method: b.payment_method,
        paymentMethodId: b.payment_method_id,
        autoRenew: b.auto_renew,
        actorId: auth.user.id,
        requestKey: req.idempotency?.key ?? null,
        activate: true,
      });
      const answer = await writeAnswer(deps, auth, product, ids.subscriptionId, ids.orderId);
      return reply.code(answer.order.status === 'pending' ? 202 : 201).send(answer);
    },
  );
  app.patch(
    `${base}subscriptions/:id`,
    {
      config: byId('subscription'),
      schema: {
        tags,
        summary: 'Renewal on or off',
        params: IdParam,
        body: SubscriptionUpdateBody,
        response: { 200: Subscription },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const sub = await loadSubscription(db, auth, product, req.params.id);
      await setAutoRenew(db, auth, sub, req.body.auto_renew);
      return presentSubscription(await loadSubscription(db, auth, product, req.params.id), auth);
    },
  );
  app.post(
    `${base}subscriptions/:id/cancel`,
    {
      config: { ...byId('subscription'), idempotent: true },
      schema: {
        tags,
        summary: 'Cancel (type period_end: runs out the paid month; immediate: ends now, unused part to the wallet)',
        params: IdParam,
        body: CancelBody,
        response: { 200: CancelReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const sub = await loadSubscription(db, auth, product, req.params.id);
      const credited = await cancelSubscription(deps, auth, sub, req.body.type);
      return { data: presentSubscription(await loadSubscription(db, auth, product, req.params.id), auth), credited };
    },
  );

  app.get(
    `${base}subscriptions_active`,
    {
      config,
      schema: {
        tags,
        summary: "The company's active subscription (type company) or the one covering the caller (personal)",
        querystring: ActiveQuery,
        response: { 200: MaybeSubscription },
      },
    },
    async (req) => activeSubscription(db, authOf(req), product, req.query.type),
  );
  app.get(
    `${base}subscriptions_usage`,
    { config, schema: { tags, summary: "The caller's month (and their team's)", response: { 200: UsageSummary } } },
    async (req) => usageSummary(db, authOf(req), product),
  );

  app.get(
    `${base}licenses`,
    {
      config,
      schema: {
        tags,
        summary: 'Licences the caller holds or manages',
        querystring: LicenceListQuery,
        response: { 200: LicenceList },
      },
    },
    async (req) => listLicences(db, authOf(req), product, req.query),
  );
  app.patch(
    `${base}licenses/:id`,
    {
      config: {
        access: 'plans.allocate',
        feature: gate.feature,
        tenant: { param: 'id', resource: `${product}_licence` },
      },
      schema: {
        tags,
        summary: 'Hand a licence to someone and/or set their monthly allocation (managers and admins)',
        params: IdParam,
        body: LicenceUpdateBody,
        response: { 200: Licence },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await updateLicence(db, auth, await loadLicence(db, auth, product, req.params.id), req.body);
      return presentLicence(await loadLicence(db, auth, product, req.params.id), auth);
    },
  );
  app.post(
    `${base}licenses_order`,
    {
      config: { ...config, idempotent: 'required' },
      schema: {
        tags,
        summary: 'Buy more licences for a team or company subscription (charged for the rest of the month)',
        body: LicenceOrderBody,
        response: { 201: OrderWrite, 202: OrderWrite },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      assertPaymentMethod(auth, b.payment_method);
      const sub = await loadSubscription(db, auth, product, b.subscription_id).catch(() => {
        throw invalid('subscription_id', 'is not a subscription you can see');
      });
      assertManageable(auth, sub);
      const orderId = await orderLicences(deps, {
        companyId: auth.company.id,
        sub,
        quantity: b.quantity,
        method: b.payment_method,
        paymentMethodId: b.payment_method_id,
        actorId: auth.user.id,
        payerUserId: auth.user.id,
        requestKey: req.idempotency?.key ?? null,
      });
      const order = presentOrder(await loadOrder(db, auth, product, orderId, true));
      return reply.code(order.status === 'pending' ? 202 : 201).send({ data: order });
    },
  );

  app.get(
    `${base}orders`,
    {
      config,
      schema: {
        tags,
        summary: 'Orders the caller placed or manages',
        querystring: OrderListQuery,
        response: { 200: OrderList },
      },
    },
    async (req) => listOrders(db, authOf(req), product, req.query),
  );
  app.get(
    `${base}orders/:id`,
    { config: byId('order'), schema: { tags, summary: 'One order', params: IdParam, response: { 200: Order } } },
    async (req) => presentOrder(await loadOrder(db, authOf(req), product, req.params.id)),
  );
}
