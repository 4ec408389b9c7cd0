/**
 * routes.md `store` (4) and the admin order management (/v1/admin/order_management, 5). Everyone signed in may shop
 * (account.self); order management is for admins (orders.manage). Another company's item or order is a 404.
 */
import {
  AgentInfo,
  OrderAdminBody,
  OrderFilters,
  OrderRefundBody,
  StoreItem,
  StoreItemList,
  StoreOrder,
  StoreOrderBody,
  StoreOrderList,
  StoreOrderListQuery,
} from '@harbor/shared';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '../../platform/http/pipeline.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { csvLine } from '../imports/lists.js';
import type { Module } from '../types.js';
import {
  agentInfo,
  listItems,
  listOrders,
  loadItem,
  loadOrder,
  ordersForExport,
  placeOrder,
  refundOrder,
  setAdminStatus,
} from './orders.js';
import { storeItems, storeOrders } from './schema.js';

const Id = z.object({ id: z.coerce.number().int().positive() });
const self = { access: 'account.self' as const };
const admin = { access: 'orders.manage' as const };
const usd = (cents: number) => (cents / 100).toFixed(2);

export const storeModule: Module = {
  name: 'store',
  register(scope, { tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const deps = scope.deps;
    const db = deps.database.db;
    tenants.register('store_item', companyRowResolver(storeItems));
    tenants.register('store_order', companyRowResolver(storeOrders));
    const tags = ['store'];

    app.get(
      '/v1/store_items',
      { config: self, schema: { tags, summary: 'Store items on sale', response: { 200: StoreItemList } } },
      async (req) => listItems(db, authOf(req).company.id),
    );
    app.get(
      '/v1/store_items/:id',
      {
        config: { ...self, tenant: { param: 'id', resource: 'store_item' } },
        schema: { tags, summary: 'One store item', params: Id, response: { 200: StoreItem } },
      },
      async (req) => loadItem(db, authOf(req).company.id, req.params.id),
    );
    app.get(
      '/v1/store_orders/agent_info',
      { config: self, schema: { tags, summary: 'Who is ordering and with which card', response: { 200: AgentInfo } } },
      async (req) => agentInfo(db, authOf(req)),
    );
    app.post(
      '/v1/store_orders',
      {
        config: { ...self, idempotent: 'required' },
        schema: {
          tags,
          summary: 'Place an order, paid with the card on file (contacts_scope: the stored contacts search)',
          body: StoreOrderBody,
          response: { 202: StoreOrder },
        },
      },
      async (req, reply) =>
        reply.code(202).send(await placeOrder(deps, authOf(req), req.body, req.idempotency?.key ?? null)),
    );

    const atags = ['admin'];
    const base = '/v1/admin/order_management';
    const byId = { ...admin, tenant: { param: 'id', resource: 'store_order' } };
    app.get(
      base,
      {
        config: admin,
        schema: {
          tags: atags,
          summary: 'Store orders',
          querystring: StoreOrderListQuery,
          response: { 200: StoreOrderList },
        },
      },
      async (req) => listOrders(db, authOf(req).company.id, req.query),
    );
    app.get(
      `${base}/export.csv`,
      {
        config: admin,
        schema: { tags: atags, summary: 'Store orders as CSV (the same filters)', querystring: OrderFilters },
      },
      async (req, reply) => {
        const rows = await ordersForExport(db, authOf(req).company.id, req.query);
        const head = [
          'Order',
          'Date',
          'Agent',
          'Email',
          'Item',
          'Quantity',
          'Contacts',
          'Amount',
          'Refunded',
          'Payment',
          'Status',
          'Card',
        ];
        const body = rows.map((o) =>
          csvLine([
            o.number,
            o.created_at.slice(0, 10),
            o.agent.name,
            o.agent.email,
            o.item.name,
            String(o.quantity),
            o.contacts_count === null ? '' : String(o.contacts_count),
            usd(o.amount),
            usd(o.refunded_amount),
            o.payment_status,
            o.admin_status,
            o.card_last4 ? `${o.card_brand} ${o.card_last4}` : '',
          ]),
        );
        const name = `orders-${new Date().toISOString().slice(0, 10)}.csv`;
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${name}"`)
          .send(csvLine(head) + body.join(''));
      },
    );
    app.get(
      `${base}/:id`,
      { config: byId, schema: { tags: atags, summary: 'One store order', params: Id, response: { 200: StoreOrder } } },
      async (req) => loadOrder(db, authOf(req).company.id, req.params.id),
    );
    app.patch(
      `${base}/:id`,
      {
        config: byId,
        schema: {
          tags: atags,
          summary: 'Set the fulfilment status',
          params: Id,
          body: OrderAdminBody,
          response: { 200: StoreOrder },
        },
      },
      async (req) => setAdminStatus(db, authOf(req).company.id, req.params.id, req.body.admin_status),
    );
    app.post(
      `${base}/:id/refund`,
      {
        config: { ...byId, idempotent: 'required' },
        schema: {
          tags: atags,
          summary: 'Refund part or all of the order through the processor (never more than is left)',
          params: Id,
          body: OrderRefundBody,
          response: { 200: StoreOrder },
        },
      },
      async (req) => refundOrder(deps, authOf(req), req.params.id, req.body.amount),
    );
  },
};
