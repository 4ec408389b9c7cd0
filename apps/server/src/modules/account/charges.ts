/**
 * Card charges of billing, Max Plus and the store (`card_charges`), on the wallet's ledger: a charge is written
 * pending with what it buys (in one transaction), the processor is asked to charge the card on file, and only its
 * signed webhook (purpose `harbor_charge`) marks it paid (clearing -> revenue, once per payment intent) and lets the
 * area apply it. A decline marks it failed and the area undoes what it would have bought. Refunds, of part or all,
 * go back through the processor and the ledger (revenue -> clearing); never more than what is left of the charge.
 */
import { sql } from 'drizzle-orm';
import { ProcessorUnavailable } from '../../integrations/stripe/payments.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { ensureCompanyAccount } from '../wallet/accounts.js';
import { ledgerOf } from '../wallet/service.js';

export const CHARGE_PURPOSE = 'harbor_charge';
const UNAVAILABLE = 'The card processor did not answer. Please try again; you will not be charged twice.';

export type ChargeKind = 'account_plan' | 'max_plus' | 'store_order';
export type ChargeRow = Record<string, unknown> & {
  id: number;
  company_id: number;
  user_id: number;
  kind: ChargeKind;
  amount: number;
  refunded_amount: number;
  status: string;
};

/** What an area does when one of its charges is settled, inside the webhook's transaction. */
export interface ChargeEffects {
  paid(tx: Db, charge: ChargeRow): Promise<void>;
  failed(tx: Db, charge: ChargeRow, message: string): Promise<void>;
}
const effects = new Map<ChargeKind, ChargeEffects>();
export function onCharge(kind: ChargeKind, e: ChargeEffects) {
  effects.set(kind, e);
}

export type CardOnFileRow = Record<string, unknown> & {
  user_id: number;
  processor_customer_id: string | null;
  payment_method_id: string;
  brand: string;
  last4: string;
  exp_month: number;
  exp_year: number;
};

export async function cardOnFile(db: Db, userId: number): Promise<CardOnFileRow | null> {
  const res = await db.execute<CardOnFileRow>(sql`select * from account_cards where user_id = ${userId}`);
  return res.rows[0] ?? null;
}

/** The card on file, or a 422 telling the person to connect one. */
export async function requireCard(db: Db, userId: number) {
  const card = await cardOnFile(db, userId);
  if (!card) throw invalid('payment_type', 'Connect a credit card first (Billing, Update card).');
  return card;
}

const num = (r: Record<string, unknown>) =>
  ({
    ...r,
    id: Number(r.id),
    company_id: Number(r.company_id),
    user_id: Number(r.user_id),
    amount: Number(r.amount),
    refunded_amount: Number(r.refunded_amount),
  }) as ChargeRow;

export async function loadCharge(db: Db, id: number) {
  const res = await db.execute<Record<string, unknown>>(sql`select * from card_charges where id = ${id}`);
  return res.rows[0] ? num(res.rows[0]) : null;
}

/**
 * Writes a pending charge and what it buys (`write`, same transaction), then asks the processor. A request retried
 * with the same key finds its charge and charges nothing more. A decline is a 422 with the processor's reason, after
 * the charge is marked failed and `failed` undid what it bought.
 */
export async function startCharge(
  deps: Deps,
  c: {
    companyId: number;
    userId: number;
    kind: ChargeKind;
    amount: number;
    description: string;
    requestKey: string | null;
    card: CardOnFileRow;
    offSession?: boolean;
  },
  write: (tx: Db, chargeId: number) => Promise<void>,
): Promise<ChargeRow> {
  const db = deps.database.db;
  if (c.requestKey) {
    const found = await db.execute<Record<string, unknown>>(
      sql`select * from card_charges where user_id = ${c.userId} and kind = ${c.kind} and request_key = ${c.requestKey}`,
    );
    if (found.rows[0]) return num(found.rows[0]);
  }
  const id = await db.transaction(async (tx) => {
    const ins = await tx.execute<{ id: number }>(
      sql`insert into card_charges (company_id, user_id, kind, amount, description, card_brand, card_last4, request_key)
          values (${c.companyId}, ${c.userId}, ${c.kind}, ${c.amount}, ${c.description}, ${c.card.brand},
                  ${c.card.last4}, ${c.requestKey}) returning id`,
    );
    const chargeId = Number(ins.rows[0].id);
    await write(tx, chargeId);
    return chargeId;
  });
  let outcome: Awaited<ReturnType<Deps['payments']['charge']>>;
  try {
    outcome = await deps.payments.charge({
      amount: c.amount,
      description: c.description,
      paymentMethodId: c.card.payment_method_id,
      customerId: c.card.processor_customer_id,
      saveCard: !c.offSession && Boolean(c.card.processor_customer_id),
      offSession: c.offSession,
      metadata: { purpose: CHARGE_PURPOSE, company_id: String(c.companyId), charge_id: String(id) },
      idempotencyKey: `card-charge-${id}`,
    });
  } catch (err) {
    if (err instanceof ProcessorUnavailable) throw new HttpError(503, { card: [UNAVAILABLE] });
    throw err;
  }
  if (outcome.paymentIntentId) {
    await db.execute(
      sql`update card_charges set processor_payment_id = coalesce(processor_payment_id, ${outcome.paymentIntentId}),
            updated_at = now() where id = ${id}`,
    );
  }
  if (outcome.status === 'failed' || outcome.status === 'requires_action') {
    await db.transaction(async (tx) => settleFailed(tx, id, outcome.message));
    if (!c.offSession) throw invalid('card', outcome.message);
  }
  return (await loadCharge(db, id))!;
}

async function settleFailed(tx: Db, id: number, message: string) {
  const res = await tx.execute<Record<string, unknown>>(
    sql`update card_charges set status = 'failed', failure_message = ${message}, updated_at = now()
        where id = ${id} and status = 'pending' returning *`,
  );
  const charge = res.rows[0] ? num(res.rows[0]) : null;
  if (charge) await effects.get(charge.kind)?.failed(tx, charge, message);
}

/** The processor's word on a charge, in the webhook job's transaction. */
export async function handleChargeEvent(deps: Deps, type: string, object: Record<string, unknown>, tx: Db) {
  const meta = (object.metadata ?? {}) as Record<string, string>;
  const id = Number(meta.charge_id);
  const company = Number(meta.company_id);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(company)) return;
  if (type === 'payment_intent.payment_failed') {
    const error = (object.last_payment_error ?? {}) as { message?: string };
    return settleFailed(tx, id, error.message ?? 'The card payment failed.');
  }
  if (type !== 'payment_intent.succeeded') return;
  const res = await tx.execute<Record<string, unknown>>(
    sql`select * from card_charges where id = ${id} and company_id = ${company} for update`,
  );
  if (!res.rows[0]) throw new Error(`card charge ${id} of company ${company} not found`);
  const charge = num(res.rows[0]);
  if (charge.status !== 'pending' && charge.status !== 'failed') return;
  const intent = String(object.id);
  if (Number(object.amount_received ?? object.amount) !== charge.amount || object.currency !== 'usd') {
    throw new Error(`payment intent ${intent} does not match card charge ${id}`);
  }
  const clearing = await ensureCompanyAccount(tx, company, 'processor_clearing');
  const revenue = await ensureCompanyAccount(tx, company, 'revenue');
  const [moved] = await ledgerOf(deps).postWithin(tx, [
    {
      companyId: company,
      key: `charge-pi:${intent}`,
      kind: 'usage',
      description: charge.description as string,
      details: { card_charge: id, card_brand: charge.card_brand, card_last4: charge.card_last4 },
      actorId: charge.user_id,
      legs: [
        { accountId: clearing, amount: -charge.amount },
        { accountId: revenue, amount: charge.amount },
      ],
    },
  ]);
  if (moved.status !== 'posted' && moved.status !== 'replayed') throw new Error(`card charge ${id}: ${moved.status}`);
  await tx.execute(
    sql`update card_charges set status = 'succeeded', paid_at = now(), failure_message = null, updated_at = now(),
          processor_payment_id = coalesce(processor_payment_id, ${intent}), ledger_transaction_id = ${moved.transactionId}
        where id = ${id}`,
  );
  await effects.get(charge.kind)?.paid(tx, { ...charge, status: 'succeeded' });
}

/**
 * Gives back `amount` cents of a paid charge through the processor; more than what is left is a 422 and nothing
 * moves. The refund's keys carry what was refunded before, so a retried request refunds once.
 */
export async function refundCharge(deps: Deps, chargeId: number, amount: number, actorId: number) {
  return deps.database.db.transaction(async (t) => {
    const tx = t;
    const res = await tx.execute<Record<string, unknown>>(
      sql`select * from card_charges where id = ${chargeId} for update`,
    );
    const charge = num(res.rows[0]);
    if (charge.status !== 'succeeded' && charge.status !== 'partially_refunded') {
      throw invalid('amount', 'Only a paid order can be refunded.');
    }
    const left = charge.amount - charge.refunded_amount;
    if (amount > left) {
      throw invalid('amount', `is more than what is left to refund ($${(left / 100).toFixed(2)}).`);
    }
    const after = charge.refunded_amount + amount;
    let refund: Awaited<ReturnType<Deps['payments']['refund']>>;
    try {
      refund = await deps.payments.refund({
        paymentIntentId: String(charge.processor_payment_id),
        amount,
        metadata: { purpose: CHARGE_PURPOSE, company_id: String(charge.company_id), charge_id: String(chargeId) },
        idempotencyKey: `card-refund-${chargeId}-${after}`,
      });
    } catch (err) {
      if (err instanceof ProcessorUnavailable) throw new HttpError(503, { card: [UNAVAILABLE] });
      throw err;
    }
    if ('error' in refund) throw invalid('amount', `The processor refused the refund: ${refund.error}`);
    const clearing = await ensureCompanyAccount(tx, charge.company_id, 'processor_clearing');
    const revenue = await ensureCompanyAccount(tx, charge.company_id, 'revenue');
    const [moved] = await ledgerOf(deps).postWithin(tx, [
      {
        companyId: charge.company_id,
        key: `charge-refund:${chargeId}:${after}`,
        kind: 'refund',
        description: `Card refund: ${charge.description}`,
        details: { card_charge: chargeId, refund: refund.id },
        actorId,
        legs: [
          { accountId: revenue, amount: -amount },
          { accountId: clearing, amount },
        ],
      },
    ]);
    if (moved.status === 'refused' || moved.status === 'conflict')
      throw new Error(`refund ${chargeId}: ${moved.status}`);
    await tx.execute(
      sql`update card_charges set refunded_amount = ${after}, updated_at = now(),
            status = case when ${after} >= amount then 'refunded' else 'partially_refunded' end
          where id = ${chargeId}`,
    );
    return (await loadCharge(tx, chargeId))!;
  });
}

export const presentCharge = (c: ChargeRow) => ({
  id: c.id,
  kind: c.kind,
  description: String(c.description ?? ''),
  amount: c.amount,
  refunded_amount: c.refunded_amount,
  status: c.status as 'pending' | 'succeeded' | 'failed' | 'refunded' | 'partially_refunded',
  card_brand: (c.card_brand as string | null) ?? null,
  card_last4: (c.card_last4 as string | null) ?? null,
  failure_message: (c.failure_message as string | null) ?? null,
  created_at: new Date(c.created_at as string).toISOString(),
  paid_at: c.paid_at ? new Date(c.paid_at as string).toISOString() : null,
});
