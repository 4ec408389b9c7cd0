/**
 * Money for plans, on the wallet's ledger (never a ledger of our own; docs/decisions/usage-plans-payments.md):
 *
 * - wallet / company_wallet: the payer's wallet -> revenue, in the same database transaction as the order and what
 *   it buys, so a wallet that cannot pay leaves nothing behind (422 naming the balance);
 * - card: the order waits (pending) until the processor's signed webhook says the charge succeeded; then clearing ->
 *   revenue and the order's effects, in the webhook's transaction, once per payment intent;
 * - invoice (admins): settled outside Harbor; the order records it and no money moves here.
 * Credits and refunds go back the way the money came (revenue -> wallet, or a processor refund).
 */
import { formatUsd, type PaymentMethod, PLAN_PRODUCT_LABELS, type PlanProduct } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { type ChargeOutcome, ProcessorUnavailable } from '../../integrations/stripe/payments.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { ensureCompanyAccount } from '../wallet/accounts.js';
import { ledgerOf } from '../wallet/service.js';
import type { Raw } from './presenters.js';

/** `metadata.purpose` of the processor payments of plan orders: their events come to `handleProcessorEvent`. */
export const PLAN_PURPOSE = 'usage_plan_order';

const UNAVAILABLE = 'The card processor did not answer. Please try again; you will not be charged twice.';

/** The wallet that pays for (and is credited back for) a purchase by `method`. */
export async function payerAccount(deps: Deps, companyId: number, method: PaymentMethod, payerUserId: number) {
  const ledger = ledgerOf(deps);
  if (method === 'company_wallet') return ledger.accounts.companyAccount(companyId, 'company_wallet');
  const id = await ledger.accounts.userWallet(companyId, payerUserId);
  if (!id) throw new Error(`user ${payerUserId} has no wallet in company ${companyId}`);
  return id;
}

/** Account ids a wallet payment needs, resolved BEFORE its transaction (the embedded database has one connection). */
export async function walletLegs(deps: Deps, companyId: number, method: PaymentMethod, payerUserId: number) {
  return {
    payer: await payerAccount(deps, companyId, method, payerUserId),
    revenue: await ledgerOf(deps).accounts.companyAccount(companyId, 'revenue'),
  };
}

export const describeOrder = (product: PlanProduct, planName: string, quantity: number, what: string) =>
  `${PLAN_PRODUCT_LABELS[product]} plan ${planName}: ${what} (${quantity} ${quantity === 1 ? 'seat' : 'seats'})`;

/**
 * Debits the payer for an order inside `tx`; a wallet that cannot pay throws 422 (the caller's transaction rolls
 * back with everything it wrote). Answers the ledger transaction id (null for a free order).
 */
export async function debitWithin(
  deps: Deps,
  tx: Db,
  p: {
    companyId: number;
    orderId: number;
    amount: number;
    legs: { payer: number; revenue: number };
    method: PaymentMethod;
    description: string;
    actorId: number;
    details?: Record<string, unknown>;
  },
): Promise<number | null> {
  if (p.amount === 0) return null;
  const [result] = await ledgerOf(deps).postWithin(tx, [
    {
      companyId: p.companyId,
      key: `plan-order:${p.orderId}`,
      kind: 'usage',
      description: p.description,
      details: { ...p.details, plan_order: p.orderId },
      actorId: p.actorId,
      legs: [
        { accountId: p.legs.payer, amount: -p.amount },
        { accountId: p.legs.revenue, amount: p.amount },
      ],
    },
  ]);
  if (result.status === 'refused') {
    const whose = p.method === 'company_wallet' ? 'The company wallet holds' : 'Your wallet holds';
    throw invalid(
      'payment_method',
      `${whose} ${formatUsd(result.balance)}; this costs ${formatUsd(p.amount)}. Top up the wallet, or pay by card.`,
    );
  }
  if (result.status === 'conflict') throw new Error(`plan order ${p.orderId} was already charged differently`);
  return result.transactionId;
}

/** Money back into a wallet (revenue -> wallet), once per `key`. */
export async function creditWithin(
  deps: Deps,
  tx: Db,
  c: {
    companyId: number;
    key: string;
    account: number;
    revenue: number;
    amount: number;
    description: string;
    actorId: number;
    details?: Record<string, unknown>;
  },
) {
  if (c.amount <= 0) return null;
  const [result] = await ledgerOf(deps).postWithin(tx, [
    {
      companyId: c.companyId,
      key: c.key,
      kind: 'refund',
      description: c.description,
      details: c.details ?? {},
      actorId: c.actorId,
      legs: [
        { accountId: c.revenue, amount: -c.amount },
        { accountId: c.account, amount: c.amount },
      ],
    },
  ]);
  if (result.status === 'conflict' || result.status === 'refused') throw new Error(`credit ${c.key}: ${result.status}`);
  return result.transactionId;
}

/** A card on the processor (from the card form), or 422. */
export async function cardFor(deps: Deps, paymentMethodId: string | undefined) {
  if (!paymentMethodId) throw invalid('payment_method_id', 'is required to pay by card');
  let card: Awaited<ReturnType<Deps['payments']['paymentMethod']>>;
  try {
    card = await deps.payments.paymentMethod(paymentMethodId);
  } catch (err) {
    if (err instanceof ProcessorUnavailable) throw new HttpError(503, { card: [UNAVAILABLE] });
    throw err;
  }
  if (!card) throw invalid('payment_method_id', 'is not a card of the processor');
  return card;
}

/** Asks the processor to charge an order already recorded as pending; the webhook settles it. */
export async function chargeCard(
  deps: Deps,
  o: {
    companyId: number;
    orderId: number;
    amount: number;
    description: string;
    paymentMethodId: string;
    customerId: string | null;
  },
): Promise<ChargeOutcome> {
  try {
    return await deps.payments.charge({
      amount: o.amount,
      description: o.description,
      paymentMethodId: o.paymentMethodId,
      customerId: o.customerId,
      metadata: { purpose: PLAN_PURPOSE, company_id: String(o.companyId), order_id: String(o.orderId) },
      idempotencyKey: `plan-order-${o.orderId}`,
    });
  } catch (err) {
    if (err instanceof ProcessorUnavailable) throw new HttpError(503, { card: [UNAVAILABLE] });
    throw err;
  }
}

/** An order's effects once it is paid: its subscription starts, its licences cover. */
export async function applyPaidOrder(tx: Db, order: Raw) {
  const id = Number(order.id);
  if (order.kind === 'subscription') {
    await tx.execute(
      sql`update plan_subscriptions set status = 'active', activated_at = now(), current_period_start = now(),
            current_period_end = now() + interval '1 month', updated_at = now()
          where id = ${Number(order.subscription_id)} and status = 'pending'`,
    );
  }
  await tx.execute(sql`update plan_licences set paid = true, updated_at = now() where order_id = ${id}`);
}

/**
 * An order that failed, was cancelled or refunded takes back what it bought: a new subscription ends (now, when it
 * had started), more seats are removed from the subscription. Licences are kept, marked removed, for the record.
 */
export async function undoOrder(tx: Db, order: Raw, byUserId: number | null) {
  const id = Number(order.id);
  const sub = Number(order.subscription_id);
  if (order.kind === 'subscription' || order.kind === 'renewal') {
    await tx.execute(
      sql`update plan_subscriptions set status = 'cancelled', cancelled_at = coalesce(cancelled_at, now()),
            cancelled_by = coalesce(cancelled_by, ${byUserId}), auto_renew = false,
            current_period_end = case when current_period_end > now() then now() else current_period_end end,
            updated_at = now()
          where id = ${sub} and status in ('pending', 'active')`,
    );
  }
  if (order.kind === 'licences') {
    const removed = await tx.execute<{ n: number }>(
      sql`with r as (update plan_licences set removed_at = now(), paid = false, updated_at = now()
                     where order_id = ${id} and removed_at is null returning 1)
          select count(*)::int as n from r`,
    );
    const n = Number(removed.rows[0]?.n ?? 0);
    if (n > 0) {
      await tx.execute(
        sql`update plan_subscriptions set seats = greatest(1, seats - ${n}), updated_at = now() where id = ${sub}`,
      );
    }
  } else {
    await tx.execute(
      sql`update plan_licences set paid = false, updated_at = now() where order_id = ${id} and removed_at is null`,
    );
  }
}

/**
 * The processor's word on a plan order, in the webhook job's transaction (payments.onEvent): a succeeded intent
 * moves clearing -> revenue once (key per intent) and applies the order; a failed one undoes it. A payment that
 * lands after its order was cancelled is refunded at once.
 */
export async function handleProcessorEvent(deps: Deps, type: string, object: Raw, tx: Db) {
  const meta = (object.metadata ?? {}) as Record<string, string>;
  const id = Number(meta.order_id);
  const company = Number(meta.company_id);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(company)) return;
  if (type !== 'payment_intent.succeeded' && type !== 'payment_intent.payment_failed') return;
  const res = await tx.execute<Raw>(
    sql`select * from plan_orders where id = ${id} and company_id = ${company} for update`,
  );
  const order = res.rows[0];
  if (!order) throw new Error(`plan order ${id} of company ${company} not found`);
  const intent = String(object.id);
  if (type === 'payment_intent.payment_failed') {
    if (order.status !== 'pending') return;
    const error = (object.last_payment_error ?? {}) as { message?: string };
    await tx.execute(
      sql`update plan_orders set status = 'failed', failure_message = ${error.message ?? 'The card payment failed.'},
            processor_payment_id = coalesce(processor_payment_id, ${intent}), updated_at = now() where id = ${id}`,
    );
    await undoOrder(tx, order, null);
    return;
  }
  if (order.status === 'paid' || order.status === 'refunded') return;
  if (Number(object.amount_received ?? object.amount) !== Number(order.amount) || object.currency !== 'usd') {
    throw new Error(`payment intent ${intent} does not match plan order ${id}`);
  }
  const clearing = await ensureCompanyAccount(tx, company, 'processor_clearing');
  const revenue = await ensureCompanyAccount(tx, company, 'revenue');
  const [moved] = await ledgerOf(deps).postWithin(tx, [
    {
      companyId: company,
      key: `plan-pi:${intent}`,
      kind: 'usage',
      description: `Card payment of plan order ${id}`,
      details: { plan_order: id, card_brand: order.card_brand, card_last4: order.card_last4 },
      actorId: Number(order.placed_by),
      legs: [
        { accountId: clearing, amount: -Number(order.amount) },
        { accountId: revenue, amount: Number(order.amount) },
      ],
    },
  ]);
  if (moved.status !== 'posted' && moved.status !== 'replayed') throw new Error(`plan order ${id}: ${moved.status}`);
  if (order.status === 'cancelled') {
    // Cancelled while the card was being charged: the money goes straight back.
    await refundCardWithin(deps, tx, { ...order, processor_payment_id: intent }, Number(order.amount), 'cancelled');
    return;
  }
  await tx.execute(
    sql`update plan_orders set status = 'paid', paid_at = now(), failure_message = null, updated_at = now(),
          processor_payment_id = coalesce(processor_payment_id, ${intent}), ledger_transaction_id = ${moved.transactionId}
        where id = ${id}`,
  );
  await applyPaidOrder(tx, order);
}

/** A card refund: the processor gives the money back and the ledger moves it revenue -> clearing. */
export async function refundCardWithin(
  deps: Deps,
  tx: Db,
  order: Raw,
  amount: number,
  status: 'refunded' | 'cancelled',
) {
  const id = Number(order.id);
  const company = Number(order.company_id);
  const refund = await deps.payments.refund({
    paymentIntentId: String(order.processor_payment_id),
    amount,
    metadata: { purpose: PLAN_PURPOSE, company_id: String(company), order_id: String(id) },
    idempotencyKey: `plan-refund-${id}`,
  });
  if ('error' in refund) throw invalid('id', `The processor refused the refund: ${refund.error}`);
  const clearing = await ensureCompanyAccount(tx, company, 'processor_clearing');
  const revenue = await ensureCompanyAccount(tx, company, 'revenue');
  const [moved] = await ledgerOf(deps).postWithin(tx, [
    {
      companyId: company,
      key: `plan-refund:${id}`,
      kind: 'refund',
      description: `Card refund of plan order ${id}`,
      details: { plan_order: id, card_brand: order.card_brand, card_last4: order.card_last4 },
      actorId: null,
      legs: [
        { accountId: revenue, amount: -amount },
        { accountId: clearing, amount },
      ],
    },
  ]);
  if (moved.status === 'refused' || moved.status === 'conflict')
    throw new Error(`refund of order ${id}: ${moved.status}`);
  await tx.execute(
    sql`update plan_orders set status = ${status}, refunded_amount = ${amount}, updated_at = now(),
          cancelled_at = coalesce(cancelled_at, now()) where id = ${id}`,
  );
}
