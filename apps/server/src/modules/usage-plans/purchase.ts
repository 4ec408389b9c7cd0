/**
 * Buying: a new subscription (by its buyer, or prepared by an admin) and more seats on one. Each is an order; the
 * order, the subscription and its licences are written with the payment (wallet: one transaction, all or nothing;
 * card: pending until the processor's webhook; docs/decisions/usage-plans-payments.md). A request retried with
 * the same Idempotency-Key finds its order instead of buying twice.
 */
import { type PaymentMethod, PLAN_PRODUCT_LABELS, type PlanProduct, type SubscriptionKind } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid } from '../../platform/http/errors.js';
import { applyPaidOrder, cardFor, chargeCard, debitWithin, describeOrder, undoOrder, walletLegs } from './payment.js';
import type { Raw } from './presenters.js';

const first = async (db: Db, q: ReturnType<typeof sql>) => (await db.execute<Raw>(q)).rows[0];

/** A plan on sale in the company for the product (active, not deleted), or 422. */
export async function planOnSale(db: Db, companyId: number, product: PlanProduct, planId: number) {
  const plan = await first(
    db,
    sql`select * from usage_plans where id = ${planId} and company_id = ${companyId} and product = ${product}
        and deleted_at is null and active`,
  );
  if (!plan) throw invalid('plan_id', 'is not a plan on sale');
  return plan;
}

/** What the spec and docs/decisions/usage-plans.md allow a purchase to be. */
export async function checkPurchase(
  db: Db,
  p: {
    companyId: number;
    product: PlanProduct;
    plan: Raw;
    kind: SubscriptionKind;
    ownerId: number;
    seats: number;
    ownerName?: string;
  },
) {
  const label = PLAN_PRODUCT_LABELS[p.product].toLowerCase();
  if (p.kind === 'self') {
    if (p.plan.enterprise) throw invalid('plan_id', 'is an enterprise plan: it is sold to a team or the company');
    if (p.seats !== 1) throw invalid('seats', 'must be 1 for a subscription of your own');
    const live = await first(
      db,
      sql`select id from plan_subscriptions where owner_id = ${p.ownerId} and product = ${p.product}
          and kind = 'self' and status in ('pending', 'active')`,
    );
    if (live) {
      const who = p.ownerName ? `${p.ownerName} already has` : 'You already have';
      throw invalid('plan_id', `${who} a ${label} subscription of their own; cancel it first or let it end.`);
    }
    return;
  }
  const min = Number(p.plan.min_seats);
  if (p.seats < min) throw invalid('seats', `must be at least ${min} for this plan`);
  if (p.kind === 'company') {
    const live = await first(
      db,
      sql`select id from plan_subscriptions where company_id = ${p.companyId} and product = ${p.product}
          and kind = 'company' and status in ('pending', 'active')`,
    );
    if (live) throw invalid('kind', `The company already has a ${label} subscription (pending or active).`);
  }
}

export interface NewSubscription {
  companyId: number;
  product: PlanProduct;
  plan: Raw;
  kind: SubscriptionKind;
  ownerId: number;
  seats: number;
  method: PaymentMethod;
  paymentMethodId?: string;
  autoRenew: boolean;
  actorId: number;
  requestKey: string | null;
  /** false: an admin prepares it; it waits (pending) until activated. */
  activate: boolean;
}

const orderTypeOf = (kind: SubscriptionKind) => (kind === 'self' ? 'SelfPay' : 'ManagerPay');

/** A retried request: the order it already made (same person, product and key). */
async function earlier(db: Db, actorId: number, product: PlanProduct, key: string | null) {
  if (!key) return null;
  return first(
    db,
    sql`select * from plan_orders where placed_by = ${actorId} and product = ${product} and request_key = ${key}`,
  );
}

function unique(err: unknown) {
  const code = (err as { code?: string }).code ?? (err as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

async function insertLicences(
  tx: Db,
  s: {
    companyId: number;
    product: string;
    subscriptionId: number;
    orderId: number;
    n: number;
    units: number;
    paid: boolean;
  },
) {
  await tx.execute(
    sql`insert into plan_licences (company_id, product, subscription_id, order_id, allocation, paid)
        select ${s.companyId}, ${s.product}, ${s.subscriptionId}, ${s.orderId}, ${s.units}, ${s.paid}
        from generate_series(1, ${s.n})`,
  );
}

/** Creates the subscription, its order and licences, and pays (or leaves it pending). Answers their ids. */
export async function createSubscription(
  deps: Deps,
  n: NewSubscription,
): Promise<{ subscriptionId: number; orderId: number }> {
  const db = deps.database.db;
  const again = await earlier(db, n.actorId, n.product, n.requestKey);
  if (again) return { subscriptionId: Number(again.subscription_id), orderId: Number(again.id) };
  const amount = Number(n.plan.price) * n.seats;
  const byCard = n.method === 'card' && amount > 0;
  const card = byCard ? await cardFor(deps, n.paymentMethodId) : null;
  const payNow = n.activate && !byCard && n.method !== 'invoice';
  const legs = payNow && amount > 0 ? await walletLegs(deps, n.companyId, n.method, n.ownerId) : null;
  const description = describeOrder(n.product, String(n.plan.name), n.seats, 'subscription');
  let ids: { subscriptionId: number; orderId: number };
  try {
    ids = await db.transaction(async (tx) => {
      const sub = await first(
        tx,
        sql`insert into plan_subscriptions (company_id, product, plan_id, kind, owner_id, seats, status, auto_renew,
              payment_method, price, units, unit_price, created_by)
            values (${n.companyId}, ${n.product}, ${Number(n.plan.id)}, ${n.kind}, ${n.ownerId}, ${n.seats}, 'pending',
              ${n.autoRenew}, ${n.method}, ${Number(n.plan.price)}, ${Number(n.plan.units)},
              ${Number(n.plan.unit_price)}, ${n.actorId})
            returning id`,
      );
      const subscriptionId = Number(sub!.id);
      const order = (await first(
        tx,
        sql`insert into plan_orders (company_id, product, subscription_id, order_type, kind, quantity, amount,
              payment_method, card_brand, card_last4, placed_by, request_key)
            values (${n.companyId}, ${n.product}, ${subscriptionId}, ${orderTypeOf(n.kind)}, 'subscription', ${n.seats},
              ${amount}, ${n.method}, ${card?.brand ?? null}, ${card?.last4 ?? null}, ${n.actorId}, ${n.requestKey})
            returning *`,
      ))!;
      const orderId = Number(order.id);
      if (n.kind !== 'self') {
        await insertLicences(tx, {
          companyId: n.companyId,
          product: n.product,
          subscriptionId,
          orderId,
          n: n.seats,
          units: Number(n.plan.units),
          paid: false,
        });
      }
      if (payNow) {
        const ledgerTx = legs
          ? await debitWithin(deps, tx, {
              companyId: n.companyId,
              orderId,
              amount,
              legs,
              method: n.method,
              description,
              actorId: n.actorId,
              details: { product: n.product, plan_id: Number(n.plan.id), seats: n.seats },
            })
          : null;
        await tx.execute(
          sql`update plan_orders set status = 'paid', paid_at = now(), ledger_transaction_id = ${ledgerTx}
              where id = ${orderId}`,
        );
        await applyPaidOrder(tx, order);
      }
      return { subscriptionId, orderId };
    });
  } catch (err) {
    if (unique(err)) {
      // Two purchases raced past the checks: the unique indexes let one through.
      const again2 = await earlier(db, n.actorId, n.product, n.requestKey);
      if (again2) return { subscriptionId: Number(again2.subscription_id), orderId: Number(again2.id) };
      throw invalid('plan_id', 'A subscription like this one was just bought; reload to see it.');
    }
    throw err;
  }
  if (byCard && card) await payByCard(deps, n.companyId, ids.orderId, amount, description, card);
  return ids;
}

/** Charges a pending order's card; a decline undoes the order and answers 422 with the processor's reason. */
async function payByCard(
  deps: Deps,
  companyId: number,
  orderId: number,
  amount: number,
  description: string,
  card: { paymentMethodId: string; customerId: string | null },
) {
  const db = deps.database.db;
  const outcome = await chargeCard(deps, {
    companyId,
    orderId,
    amount,
    description,
    paymentMethodId: card.paymentMethodId,
    customerId: card.customerId,
  });
  if (outcome.status === 'failed' || outcome.status === 'requires_action') {
    await db.transaction(async (tx) => {
      const order = await first(
        tx,
        sql`update plan_orders set status = 'failed', failure_message = ${outcome.message},
              processor_payment_id = coalesce(processor_payment_id, ${outcome.paymentIntentId}), updated_at = now()
            where id = ${orderId} and status = 'pending' returning *`,
      );
      if (order) await undoOrder(tx, order, null);
    });
    throw invalid('card', outcome.message);
  }
  await db.execute(
    sql`update plan_orders set processor_payment_id = coalesce(processor_payment_id, ${outcome.paymentIntentId}),
          updated_at = now() where id = ${orderId}`,
  );
}

/** Share of a month's price for what is left of the current period (more seats bought mid-period). */
export function prorate(fullAmount: number, start: Date, end: Date, now = new Date()) {
  const total = end.getTime() - start.getTime();
  const left = Math.max(0, end.getTime() - now.getTime());
  if (total <= 0) return 0;
  return Math.ceil((fullAmount * left) / total);
}

/** More seats on an active company or manager subscription, charged for the rest of the period. */
export async function orderLicences(
  deps: Deps,
  o: {
    companyId: number;
    sub: Raw;
    quantity: number;
    method: PaymentMethod;
    paymentMethodId?: string;
    actorId: number;
    payerUserId: number;
    requestKey: string | null;
  },
): Promise<number> {
  const db = deps.database.db;
  const product = o.sub.product as PlanProduct;
  if (o.sub.kind === 'self') throw invalid('subscription_id', 'is a subscription of one person: it has no licences');
  if (o.sub.status !== 'active' || new Date(o.sub.current_period_end as string).getTime() <= Date.now()) {
    throw invalid('subscription_id', 'is not active: licences are added to an active subscription');
  }
  const again = await earlier(db, o.actorId, product, o.requestKey);
  if (again) return Number(again.id);
  const amount = prorate(
    Number(o.sub.price) * o.quantity,
    new Date(o.sub.current_period_start as string),
    new Date(o.sub.current_period_end as string),
  );
  const byCard = o.method === 'card' && amount > 0;
  const card = byCard ? await cardFor(deps, o.paymentMethodId) : null;
  const payNow = !byCard;
  const legs =
    payNow && amount > 0 && o.method !== 'invoice'
      ? await walletLegs(deps, o.companyId, o.method, o.payerUserId)
      : null;
  const description = describeOrder(product, String(o.sub.plan_name ?? 'plan'), o.quantity, 'more licences');
  const orderId = await db.transaction(async (tx) => {
    const order = (await first(
      tx,
      sql`insert into plan_orders (company_id, product, subscription_id, order_type, kind, quantity, amount,
            payment_method, card_brand, card_last4, placed_by, request_key)
          values (${o.companyId}, ${product}, ${Number(o.sub.id)}, 'ManagerPay', 'licences', ${o.quantity}, ${amount},
            ${o.method}, ${card?.brand ?? null}, ${card?.last4 ?? null}, ${o.actorId}, ${o.requestKey})
          returning *`,
    ))!;
    const id = Number(order.id);
    await tx.execute(
      sql`update plan_subscriptions set seats = seats + ${o.quantity}, updated_at = now() where id = ${Number(o.sub.id)}`,
    );
    await insertLicences(tx, {
      companyId: o.companyId,
      product,
      subscriptionId: Number(o.sub.id),
      orderId: id,
      n: o.quantity,
      units: Number(o.sub.units),
      paid: false,
    });
    if (payNow) {
      const ledgerTx = legs
        ? await debitWithin(deps, tx, {
            companyId: o.companyId,
            orderId: id,
            amount,
            legs,
            method: o.method,
            description,
            actorId: o.actorId,
            details: { product, subscription_id: Number(o.sub.id), quantity: o.quantity },
          })
        : null;
      await tx.execute(
        sql`update plan_orders set status = 'paid', paid_at = now(), ledger_transaction_id = ${ledgerTx} where id = ${id}`,
      );
      await applyPaidOrder(tx, order);
    }
    return id;
  });
  if (byCard && card) await payByCard(deps, o.companyId, orderId, amount, description, card);
  return orderId;
}
