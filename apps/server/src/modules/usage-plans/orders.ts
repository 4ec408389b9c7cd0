/**
 * Orders: every purchase of a subscription, more licences or a renewal. People see the orders they placed and
 * those of subscriptions they bought (managers: of the people they reach; admins: the company's). An admin may
 * cancel an order: an unpaid one simply ends, a paid one is refunded the way it was paid and what it bought is
 * taken back (docs/decisions/usage-plans-payments.md).
 */
import type { OrderList, OrderListQuery, PlanProduct } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';
import { ledgerOf } from '../wallet/service.js';
import { creditWithin, payerAccount, refundCardWithin, undoOrder } from './payment.js';
import { orderSelect, presentOrder, type Raw } from './presenters.js';

const rows = async (db: Db, q: SQL) => (await db.execute<Raw>(q)).rows;

function visibleSql(auth: AuthContext, admin: boolean): SQL {
  if (admin || reachOf(auth) === 'company') return sql`true`;
  const me = auth.user.id;
  return sql`(po.placed_by = ${me} or s.owner_id = ${me} or ${reachesUserSql(auth, sql`po.placed_by`)})`;
}

export async function listOrders(
  db: Db,
  auth: AuthContext,
  product: PlanProduct,
  q: OrderListQuery,
  admin = false,
): Promise<OrderList> {
  const text = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`po.company_id = ${auth.company.id} and po.product = ${product} and ${visibleSql(auth, admin)}
    ${q.status ? sql`and po.status = ${q.status}` : sql``}
    ${q.subscription_id ? sql`and po.subscription_id = ${q.subscription_id}` : sql``}
    ${text ? sql`and (p.name ilike ${text} or (u.first_name || ' ' || u.last_name) ilike ${text} or u.email ilike ${text})` : sql``}`;
  const [count] = await rows(
    db,
    sql`select count(*)::int as n from plan_orders po join plan_subscriptions s on s.id = po.subscription_id
        join usage_plans p on p.id = s.plan_id join users u on u.id = po.placed_by where ${where}`,
  );
  const found = await rows(
    db,
    sql`${orderSelect} where ${where} order by po.id desc limit ${q.limit} offset ${pageOffset(q.page, q.limit)}`,
  );
  return { data: found.map(presentOrder), meta: pageMeta(q.page, q.limit, Number(count?.n ?? 0)) };
}

export async function loadOrder(db: Db, auth: AuthContext, product: PlanProduct, id: number, admin = false) {
  const [r] = await rows(
    db,
    sql`${orderSelect} where po.id = ${id} and po.company_id = ${auth.company.id} and po.product = ${product}
        and ${visibleSql(auth, admin)}`,
  );
  if (!r) throw notFound('order');
  return r;
}

/** Admin cancel_order: pending -> cancelled; paid -> refunded (wallet credit, card refund, or invoice recorded). */
export async function cancelOrder(deps: Deps, auth: AuthContext, order: Raw) {
  const db = deps.database.db;
  const id = Number(order.id);
  const me = auth.user.id;
  if (order.status === 'pending') {
    await db.transaction(async (tx) => {
      const [o] = await rows(
        tx,
        sql`update plan_orders set status = 'cancelled', cancelled_at = now(), cancelled_by = ${me}, updated_at = now()
            where id = ${id} and status = 'pending' returning *`,
      );
      if (!o) throw invalid('id', 'changed meanwhile; reload it');
      await undoOrder(tx, o, me);
    });
    return;
  }
  if (order.status !== 'paid') throw invalid('id', `is ${order.status}: only a pending or paid order can be cancelled`);
  const amount = Number(order.amount) - Number(order.refunded_amount);
  const method = String(order.payment_method);
  const walletPaid = (method === 'wallet' || method === 'company_wallet') && amount > 0;
  const account = walletPaid
    ? await payerAccount(deps, auth.company.id, method as 'wallet' | 'company_wallet', Number(order.placed_by))
    : 0;
  const revenue = walletPaid ? await ledgerOf(deps).accounts.companyAccount(auth.company.id, 'revenue') : 0;
  await db.transaction(async (tx) => {
    const [o] = await rows(tx, sql`select * from plan_orders where id = ${id} and status = 'paid' for update`);
    if (!o) throw invalid('id', 'changed meanwhile; reload it');
    if (method === 'card' && amount > 0) {
      await refundCardWithin(deps, tx, o, amount, 'refunded');
    } else {
      if (walletPaid) {
        await creditWithin(deps, tx, {
          companyId: auth.company.id,
          key: `plan-refund:${id}`,
          account,
          revenue,
          amount,
          description: `Refund of plan order ${id}`,
          actorId: me,
          details: { plan_order: id },
        });
      }
      await tx.execute(
        sql`update plan_orders set status = 'refunded', refunded_amount = amount, cancelled_at = now(),
              updated_at = now() where id = ${id}`,
      );
    }
    await tx.execute(sql`update plan_orders set cancelled_by = ${me} where id = ${id}`);
    await undoOrder(tx, o, me);
  });
}
