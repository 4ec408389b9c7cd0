/**
 * For tests of any area that needs someone covered by a texting or dialer plan (the SMS and voice tests): puts a
 * plan, an active subscription, its paid order and (for company and manager kinds) a licence straight into the
 * database, as a purchase would leave them. Not for production code: purchases go through subscriptions.ts.
 */
import type { PlanProduct, SubscriptionKind } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';

export interface Grant {
  companyId: number;
  userId: number;
  product: PlanProduct;
  /** 'manager' (default): a licence of a manager-paid subscription; 'company'; or 'self'. */
  kind?: SubscriptionKind;
  /** Units a month on the licence (company and manager kinds; default 100). */
  allocation?: number;
  /** The licence's order is paid (default true). */
  paid?: boolean;
  /** Who bought it (default the user themselves). */
  ownerId?: number;
  unitPrice?: number;
}

export async function grantPlan(db: Db, g: Grant) {
  const kind = g.kind ?? 'manager';
  const paid = g.paid ?? true;
  const owner = g.ownerId ?? g.userId;
  const plan = await db.execute<{ id: number }>(
    sql`insert into usage_plans (company_id, product, name, tier, enterprise, price, units, unit_price, min_seats)
        values (${g.companyId}, ${g.product}, ${`Test plan ${kind} ${g.userId} ${Date.now()} ${Math.random()}`},
                'standard', false, 500, 1000, ${g.unitPrice ?? 3}, 1)
        returning id`,
  );
  const planId = Number(plan.rows[0].id);
  const sub = await db.execute<{ id: number }>(
    sql`insert into plan_subscriptions (company_id, product, plan_id, kind, owner_id, seats, status, payment_method,
          price, units, unit_price, current_period_start, current_period_end, activated_at, created_by)
        values (${g.companyId}, ${g.product}, ${planId}, ${kind}, ${owner}, 1, 'active', 'invoice', 500, 1000,
          ${g.unitPrice ?? 3}, now(), now() + interval '1 month', now(), ${owner})
        returning id`,
  );
  const subscriptionId = Number(sub.rows[0].id);
  const order = await db.execute<{ id: number }>(
    sql`insert into plan_orders (company_id, product, subscription_id, order_type, kind, quantity, amount, status,
          payment_method, placed_by, paid_at)
        values (${g.companyId}, ${g.product}, ${subscriptionId}, ${kind === 'self' ? 'SelfPay' : 'ManagerPay'},
          'subscription', 1, 500, ${paid ? 'paid' : 'pending'}, 'invoice', ${owner}, ${paid ? sql`now()` : null})
        returning id`,
  );
  const orderId = Number(order.rows[0].id);
  let licenceId: number | null = null;
  if (kind !== 'self') {
    const lic = await db.execute<{ id: number }>(
      sql`insert into plan_licences (company_id, product, subscription_id, order_id, user_id, allocation, paid)
          values (${g.companyId}, ${g.product}, ${subscriptionId}, ${orderId}, ${g.userId}, ${g.allocation ?? 100},
            ${paid}) returning id`,
    );
    licenceId = Number(lic.rows[0].id);
  }
  return { planId, subscriptionId, orderId, licenceId };
}
