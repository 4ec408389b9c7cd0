/**
 * The admin side of a product (routes.md `sms-admin` and `dialer-admin`, all but the SMS numbers): the company's
 * usage, every subscription (prepare one, activate, cancel), every order (add seats, cancel or refund), and the
 * plans' CRUD, under `/v1/admin/<product>/`.
 */
import {
  AdminCancelBody,
  AdminOrderBody,
  AdminOrderRef,
  AdminSubscriptionBody,
  AdminSubscriptionListQuery,
  AdminSubscriptionRef,
  AdminUsage,
  AdminUsageQuery,
  CancelReply,
  can,
  OrderList,
  OrderListQuery,
  OrderWrite,
  type PlanProduct,
  SubscriptionList,
  SubscriptionWrite,
} from '@harbor/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buildAuthContext } from '../../platform/auth/context.js';
import { users } from '../../platform/db/schema.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import type { TenantRegistry } from '../../platform/tenancy.js';
import { GATES } from './gates.js';
import { cancelOrder, listOrders, loadOrder } from './orders.js';
import { registerPlanAdmin } from './plans.js';
import { presentOrder, presentSubscription } from './presenters.js';
import { checkPurchase, createSubscription, orderLicences, planOnSale } from './purchase.js';
import { writeAnswer } from './routes.js';
import { activatePrepared, cancelSubscription, listSubscriptions, loadSubscription } from './subscriptions.js';
import { adminUsage } from './usage.js';

export function registerAdminRoutes(scope: FastifyInstance, tenants: TenantRegistry, product: PlanProduct) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  const base = `/v1/admin/${product}`;
  const tags = [`${product}-admin`];
  const config = { access: 'plans.admin' as const, feature: GATES[product].feature };
  const money = { ...config, idempotent: true as const };

  app.get(
    `${base}/usage`,
    {
      config,
      schema: {
        tags,
        summary: "The company's month, person by person",
        querystring: AdminUsageQuery,
        response: { 200: AdminUsage },
      },
    },
    async (req) => adminUsage(db, authOf(req), product, req.query),
  );

  app.get(
    `${base}/subscriptions`,
    {
      config,
      schema: {
        tags,
        summary: 'Every subscription of the company (q, order, order_field, page, limit, active, mine, status, kind)',
        querystring: AdminSubscriptionListQuery,
        response: { 200: SubscriptionList },
      },
    },
    async (req) => listSubscriptions(db, authOf(req), product, req.query, true),
  );
  app.post(
    `${base}/subscriptions`,
    {
      config: { ...config, idempotent: 'required' },
      schema: {
        tags,
        summary: "Prepare a subscription (pending until activated): for a person, a manager's team or the company",
        body: AdminSubscriptionBody,
        response: { 201: SubscriptionWrite },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      let ownerId = auth.user.id;
      let ownerName: string | undefined;
      if (b.kind !== 'company') {
        if (!b.user_id) throw invalid('user_id', 'is required: whose subscription it is');
        const [u] = await db
          .select()
          .from(users)
          .where(and(eq(users.id, b.user_id), eq(users.companyId, auth.company.id), isNull(users.deletedAt)));
        if (!u) throw invalid('user_id', 'is not a user of the company');
        if (b.kind === 'manager' && !can(buildAuthContext(u, auth.company, null).subject, 'plans.allocate')) {
          throw invalid('user_id', 'is not a manager: a team subscription needs someone who hands licences out');
        }
        ownerId = u.id;
        ownerName = `${u.firstName} ${u.lastName}`.trim() || u.email;
      } else if (b.user_id) {
        throw invalid('user_id', 'must be left out: a company subscription belongs to the company');
      }
      const plan = await planOnSale(db, auth.company.id, product, b.plan_id);
      await checkPurchase(db, {
        companyId: auth.company.id,
        product,
        plan,
        kind: b.kind,
        ownerId,
        seats: b.seats,
        ownerName,
      });
      const ids = await createSubscription(deps, {
        companyId: auth.company.id,
        product,
        plan,
        kind: b.kind,
        ownerId,
        seats: b.seats,
        method: b.payment_method,
        autoRenew: true,
        actorId: auth.user.id,
        requestKey: req.idempotency?.key ?? null,
        activate: false,
      });
      return reply.code(201).send(await writeAnswer(deps, auth, product, ids.subscriptionId, ids.orderId));
    },
  );
  app.post(
    `${base}/active_subscription`,
    {
      config: money,
      schema: {
        tags,
        summary: 'Activate a prepared subscription (pays it from the company wallet, or records the invoice)',
        body: AdminSubscriptionRef,
        response: { 200: SubscriptionWrite },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const sub = await loadSubscription(db, auth, product, req.body.id, true).catch(() => {
        throw notFound('id');
      });
      await activatePrepared(deps, auth, sub);
      const after = await loadSubscription(db, auth, product, req.body.id, true);
      const orders = await listOrders(db, auth, product, { subscription_id: req.body.id, page: 1, limit: 1 }, true);
      return { data: presentSubscription(after, auth), order: orders.data[0] ?? null };
    },
  );
  app.post(
    `${base}/cancel_subscription`,
    {
      config: money,
      schema: {
        tags,
        summary: 'Cancel any subscription of the company (type immediate by default, or period_end)',
        body: AdminCancelBody,
        response: { 200: CancelReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const sub = await loadSubscription(db, auth, product, req.body.id, true).catch(() => {
        throw notFound('id');
      });
      const credited = await cancelSubscription(deps, auth, sub, req.body.type);
      return {
        data: presentSubscription(await loadSubscription(db, auth, product, req.body.id, true), auth),
        credited,
      };
    },
  );

  app.get(
    `${base}/orders`,
    {
      config,
      schema: {
        tags,
        summary: 'Every order of the company',
        querystring: OrderListQuery,
        response: { 200: OrderList },
      },
    },
    async (req) => listOrders(db, authOf(req), product, req.query, true),
  );
  app.post(
    `${base}/orders`,
    {
      config: { ...config, idempotent: 'required' },
      schema: {
        tags,
        summary: 'Add seats to a team or company subscription (company wallet, or settled by invoice)',
        body: AdminOrderBody,
        response: { 201: OrderWrite },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      const sub = await loadSubscription(db, auth, product, b.subscription_id, true).catch(() => {
        throw invalid('subscription_id', 'is not a subscription of the company');
      });
      const orderId = await orderLicences(deps, {
        companyId: auth.company.id,
        sub,
        quantity: b.quantity,
        method: b.payment_method,
        actorId: auth.user.id,
        payerUserId: auth.user.id,
        requestKey: req.idempotency?.key ?? null,
      });
      return reply.code(201).send({ data: presentOrder(await loadOrder(db, auth, product, orderId, true)) });
    },
  );
  app.post(
    `${base}/cancel_order`,
    {
      config: money,
      schema: {
        tags,
        summary: 'Cancel an order: a pending one ends; a paid one is refunded the way it was paid',
        body: AdminOrderRef,
        response: { 200: OrderWrite },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const order = await loadOrder(db, auth, product, req.body.id, true).catch(() => {
        throw notFound('id');
      });
      await cancelOrder(deps, auth, order);
      return { data: presentOrder(await loadOrder(db, auth, product, req.body.id, true)) };
    },
  );

  registerPlanAdmin(scope, tenants, product);
}
