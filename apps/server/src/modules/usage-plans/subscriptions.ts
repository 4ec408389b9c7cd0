/**
 * Subscriptions after the purchase: who sees which (visibility), lists, the active and pending ones, renewal on or
 * off, cancellation (at the period's end, or now with the unused part credited to the wallet) and an admin's
 * activation of a prepared one. docs/decisions/usage-plans-payments.md.
 */
import type {
  AdminSubscriptionListQuery,
  CancelType,
  PlanProduct,
  Subscription,
  SubscriptionList,
} from '@harbor/shared';
import { PLAN_PRODUCT_LABELS } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';
import { ledgerOf } from '../wallet/service.js';
import { coverageOf } from './coverage.js';
import {
  applyPaidOrder,
  creditWithin,
  debitWithin,
  describeOrder,
  payerAccount,
  undoOrder,
  walletLegs,
} from './payment.js';
import { presentSubscription, type Raw, subscriptionOrder, subscriptionSelect } from './presenters.js';

const rows = async (db: Db, q: SQL) => (await db.execute<Raw>(q)).rows;

/** Subscriptions the caller may see: admins every one; others what they bought, hold a licence of, or reach. */
export function visibleSql(auth: AuthContext): SQL {
  if (reachOf(auth) === 'company') return sql`true`;
  const me = auth.user.id;
  return sql`(s.owner_id = ${me}
    or exists (select 1 from plan_licences vl where vl.subscription_id = s.id and vl.user_id = ${me}
               and vl.removed_at is null)
    or ${reachesUserSql(auth, sql`s.owner_id`)})`;
}

/** One subscription of the product the caller may see, or 404. */
export async function loadSubscription(db: Db, auth: AuthContext, product: PlanProduct, id: number, admin = false) {
  const [r] = await rows(
    db,
    sql`${subscriptionSelect} where s.id = ${id} and s.company_id = ${auth.company.id} and s.product = ${product}
        and ${admin ? sql`true` : visibleSql(auth)}`,
  );
  if (!r) throw notFound('subscription');
  return r;
}

/** The caller may change it: its buyer, or an admin. */
export function assertManageable(auth: AuthContext, r: Raw) {
  if (reachOf(auth) !== 'company' && Number(r.owner_id) !== auth.user.id) {
    throw invalid('id', 'is not a subscription you manage: its buyer or an admin changes it');
  }
}

export async function listSubscriptions(
  db: Db,
  auth: AuthContext,
  product: PlanProduct,
  q: Partial<AdminSubscriptionListQuery> & { page: number; limit: number; order: 'asc' | 'desc'; order_field: string },
  admin = false,
): Promise<SubscriptionList> {
  const text = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`s.company_id = ${auth.company.id} and s.product = ${product}
    and ${admin ? sql`true` : visibleSql(auth)}
    ${q.active === true ? sql`and s.status = 'active' and s.current_period_end > now()` : sql``}
    ${q.active === false ? sql`and not (s.status = 'active' and s.current_period_end > now())` : sql``}
    ${q.mine ? sql`and s.owner_id = ${auth.user.id}` : sql``}
    ${q.status ? sql`and s.status = ${q.status}` : sql``}
    ${q.kind ? sql`and s.kind = ${q.kind}` : sql``}
    ${text ? sql`and (p.name ilike ${text} or (o.first_name || ' ' || o.last_name) ilike ${text} or o.email ilike ${text})` : sql``}`;
  const [count] = await rows(
    db,
    sql`select count(*)::int as n from plan_subscriptions s join usage_plans p on p.id = s.plan_id
        join users o on o.id = s.owner_id where ${where}`,
  );
  const found = await rows(
    db,
    sql`${subscriptionSelect} where ${where} order by ${subscriptionOrder(q.order_field, q.order)}
        limit ${q.limit} offset ${pageOffset(q.page, q.limit)}`,
  );
  return {
    data: found.map((r) => presentSubscription(r, auth)),
    meta: pageMeta(q.page, q.limit, Number(count?.n ?? 0)),
  };
}

/** §7 active (type company | personal): the company's active subscription, or the one covering the caller. */
export async function activeSubscription(
  db: Db,
  auth: AuthContext,
  product: PlanProduct,
  type: 'company' | 'personal',
) {
  let id: number | null = null;
  if (type === 'company') {
    const [r] = await rows(
      db,
      sql`select id from plan_subscriptions where company_id = ${auth.company.id} and product = ${product}
          and kind = 'company' and status = 'active' and current_period_end > now()`,
    );
    id = r ? Number(r.id) : null;
  } else {
    id = (await coverageOf(db, auth.company.id, auth.user.id, product)).coverage?.subscription_id ?? null;
  }
  if (id === null) return { data: {} };
  const [r] = await rows(db, sql`${subscriptionSelect} where s.id = ${id}`);
  return { data: presentSubscription(r, auth) };
}

/** The company's subscription waiting for payment or an admin's activation. */
export async function pendingCompanySubscription(db: Db, auth: AuthContext, product: PlanProduct) {
  const [r] = await rows(
    db,
    sql`${subscriptionSelect} where s.company_id = ${auth.company.id} and s.product = ${product}
        and s.kind = 'company' and s.status = 'pending' order by s.id desc limit 1`,
  );
  return { data: r ? presentSubscription(r, auth) : {} };
}

/** PATCH: renewal on or off; turning it on undoes a cancellation at the period's end. */
export async function setAutoRenew(db: Db, auth: AuthContext, r: Raw, autoRenew: boolean) {
  assertManageable(auth, r);
  if (r.status !== 'active' && r.status !== 'pending') throw invalid('id', 'has ended: it can no longer renew');
  await db.execute(
    sql`update plan_subscriptions set auto_renew = ${autoRenew},
          cancelled_at = ${autoRenew ? null : sql`cancelled_at`}, cancelled_by = ${autoRenew ? null : sql`cancelled_by`},
          updated_at = now()
        where id = ${Number(r.id)}`,
  );
}

/** Cents of the current period not yet used: what an immediate cancellation credits. */
export function unusedShare(r: Raw, now = new Date()) {
  const start = new Date(r.current_period_start as string).getTime();
  const end = new Date(r.current_period_end as string).getTime();
  if (!(end > start) || now.getTime() >= end) return 0;
  return Math.floor((Number(r.price) * Number(r.seats) * (end - now.getTime())) / (end - start));
}

/**
 * Cancels. Pending: it and its unpaid orders end. Active, `period_end`: it runs to the end of the paid period and
 * does not renew. Active, `immediate`: it ends now and the unused part of the period goes back to the wallet that
 * pays for it (an invoice is settled outside Harbor: nothing is credited). Answers the credit in cents.
 */
export async function cancelSubscription(deps: Deps, auth: AuthContext, r: Raw, type: CancelType): Promise<number> {
  assertManageable(auth, r);
  const db = deps.database.db;
  const id = Number(r.id);
  const me = auth.user.id;
  if (r.status === 'cancelled' || r.status === 'expired')
    throw invalid('id', `has already ${r.status === 'expired' ? 'ended' : 'been cancelled'}`);
  if (r.status === 'pending') {
    await db.transaction(async (tx) => {
      const pending = await rows(
        tx,
        sql`update plan_orders set status = 'cancelled', cancelled_at = now(), cancelled_by = ${me}, updated_at = now()
            where subscription_id = ${id} and status = 'pending' returning *`,
      );
      for (const o of pending) await undoOrder(tx, o, me);
      await tx.execute(
        sql`update plan_subscriptions set status = 'cancelled', cancelled_at = now(), cancelled_by = ${me},
              auto_renew = false, updated_at = now() where id = ${id}`,
      );
    });
    return 0;
  }
  if (type === 'period_end') {
    await db.execute(
      sql`update plan_subscriptions set auto_renew = false, cancelled_at = now(), cancelled_by = ${me}, updated_at = now()
          where id = ${id} and status = 'active'`,
    );
    return 0;
  }
  const method = String(r.payment_method);
  const credit = method === 'invoice' ? 0 : unusedShare(r);
  const account =
    credit > 0
      ? await payerAccount(
          deps,
          auth.company.id,
          method === 'company_wallet' ? 'company_wallet' : 'wallet',
          Number(r.owner_id),
        )
      : 0;
  const revenue = credit > 0 ? await ledgerOf(deps).accounts.companyAccount(auth.company.id, 'revenue') : 0;
  await db.transaction(async (tx) => {
    const done = await rows(
      tx,
      sql`update plan_subscriptions set status = 'cancelled', cancelled_at = now(), cancelled_by = ${me},
            auto_renew = false, current_period_end = now(), updated_at = now()
          where id = ${id} and status = 'active' returning id`,
    );
    if (!done.length) throw invalid('id', 'changed meanwhile; reload it');
    await creditWithin(deps, tx, {
      companyId: auth.company.id,
      key: `plan-cancel:${id}`,
      account,
      revenue,
      amount: credit,
      description: `${PLAN_PRODUCT_LABELS[r.product as PlanProduct]} plan ${String(r.plan_name)} cancelled: unused part of the month`,
      actorId: me,
      details: { subscription_id: id },
    });
  });
  return credit;
}

/**
 * An admin activates a subscription they prepared: its order is paid from the company wallet (422 when it cannot
 * pay) or recorded as settled by invoice, and its period starts now.
 */
export async function activatePrepared(deps: Deps, auth: AuthContext, r: Raw) {
  if (r.status !== 'pending') throw invalid('id', r.status === 'active' ? 'is already active' : 'has ended');
  const db = deps.database.db;
  const [order] = await rows(
    db,
    sql`select * from plan_orders where subscription_id = ${Number(r.id)} and kind = 'subscription' order by id limit 1`,
  );
  if (order?.status !== 'pending') throw invalid('id', 'has no order waiting to be paid');
  const method = String(order.payment_method);
  if (method === 'card' || method === 'wallet') {
    throw invalid('id', "waits for its buyer's payment; it activates when the payment arrives");
  }
  const amount = Number(order.amount);
  const legs =
    method === 'company_wallet' && amount > 0
      ? await walletLegs(deps, auth.company.id, 'company_wallet', auth.user.id)
      : null;
  await db.transaction(async (tx) => {
    const locked = await rows(
      tx,
      sql`select * from plan_orders where id = ${Number(order.id)} and status = 'pending' for update`,
    );
    if (!locked.length) throw invalid('id', 'changed meanwhile; reload it');
    const ledgerTx = legs
      ? await debitWithin(deps, tx, {
          companyId: auth.company.id,
          orderId: Number(order.id),
          amount,
          legs,
          method: 'company_wallet',
          description: describeOrder(
            r.product as PlanProduct,
            String(r.plan_name),
            Number(order.quantity),
            'subscription',
          ),
          actorId: auth.user.id,
          details: { subscription_id: Number(r.id) },
        })
      : null;
    await tx.execute(
      sql`update plan_orders set status = 'paid', paid_at = now(), ledger_transaction_id = ${ledgerTx}, updated_at = now()
          where id = ${Number(order.id)}`,
    );
    await applyPaidOrder(tx, order);
  });
}

export const present = (r: Raw, auth: AuthContext): Subscription => presentSubscription(r, auth);
