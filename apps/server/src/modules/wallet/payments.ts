/**
 * Card money into wallets: a top-up by hand and an auto-refill. The request (or the job) records a pending payment
 * and asks the processor to charge; the wallet is credited ONLY when the processor's signed webhook says the
 * payment succeeded (`handleProcessorEvent`, in the webhook job's transaction, keyed by the payment intent so a
 * replayed or duplicated event credits once). The browser's word is never taken for money.
 */
import type { TopUpBody, WalletPayment } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Payments } from '../../integrations/stripe/payments.js';
import { ProcessorUnavailable } from '../../integrations/stripe/payments.js';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { ensureCompanyAccount } from './accounts.js';
import { balanceOf, fundsFromCompany, ledgerOf, readSettings } from './service.js';

export const PURPOSE = 'wallet_payment';

type Row = Record<string, unknown>;

export function presentPayment(r: Row, balance: number, companyWallet: boolean): WalletPayment {
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    id: Number(r.id),
    kind: r.kind as WalletPayment['kind'],
    wallet: companyWallet ? 'company' : 'personal',
    amount: Number(r.amount),
    description: String(r.description),
    status: r.status as WalletPayment['status'],
    card_brand: (r.card_brand as string | null) ?? null,
    card_last4: (r.card_last4 as string | null) ?? null,
    failure_message: (r.failure_message as string | null) ?? null,
    invoice_number: (r.invoice_number as string | null) ?? null,
    created_at: iso(r.created_at)!,
    paid_at: iso(r.paid_at),
    balance,
  };
}

/** One of the caller's own payments (anyone else's, another company's included, is not found). */
export async function findPayment(db: Db, auth: AuthContext, id: number) {
  const res = await db.execute<Row>(
    sql`select p.*, a.kind as account_kind from wallet_payments p join ledger_accounts a on a.id = p.account_id
        where p.id = ${id} and p.company_id = ${auth.company.id} and p.user_id = ${auth.user.id}`,
  );
  const r = res.rows[0];
  if (!r) return null;
  return presentPayment(r, await balanceOf(db, Number(r.account_id)), r.account_kind === 'company_wallet');
}

const UNAVAILABLE = 'The card processor did not answer. Please try again; you will not be charged twice.';

/**
 * POST /v1/wallets/top_up. Answers 202 with the pending payment once the processor accepted the charge; the
 * wallet is credited by the webhook. A declined card or one that wants authentication is a 422 naming the reason.
 */
export async function topUp(
  deps: Deps,
  auth: AuthContext,
  body: TopUpBody,
  requestKey: string,
): Promise<WalletPayment> {
  const db = deps.database.db;
  const ledger = ledgerOf(deps);
  const toCompany = body.wallet === 'company';
  if (toCompany && !fundsFromCompany(auth)) {
    throw invalid('wallet', 'Only admins fund the company wallet.');
  }
  const personal = (await ledger.accounts.userWallet(auth.company.id, auth.user.id))!;
  const account = toCompany ? await ledger.accounts.companyAccount(auth.company.id, 'company_wallet') : personal;
  const card = await deps.payments.paymentMethod(body.payment_method_id);
  if (!card) throw invalid('payment_method_id', 'is not a card of the processor');
  const settings = await readSettings(db, personal);
  if (card.customerId && card.customerId !== settings.customerId) {
    throw invalid('payment_method_id', 'is not a card of the processor'); // someone else's saved card
  }
  let customerId = settings.customerId;
  if (body.save_card && !customerId) {
    customerId = await deps.payments.createCustomer({
      email: auth.user.email,
      name: `${auth.user.firstName} ${auth.user.lastName}`.trim(),
      metadata: { company_id: String(auth.company.id), user_id: String(auth.user.id) },
      idempotencyKey: `wallet-customer-${auth.user.id}`,
    });
  }
  const description = body.description || 'Wallet top-up';
  const inserted = await db.execute<Row>(
    sql`insert into wallet_payments (company_id, user_id, account_id, kind, amount, description, card_brand,
          card_last4, request_key)
        values (${auth.company.id}, ${auth.user.id}, ${account}, 'top_up', ${body.amount}, ${description},
          ${card.brand}, ${card.last4}, ${requestKey})
        on conflict (user_id, request_key) do update set updated_at = now()
        returning *`,
  );
  const payment = inserted.rows[0];
  const id = Number(payment.id);
  if (payment.status === 'pending' && !payment.processor_payment_id) {
    let outcome: Awaited<ReturnType<Payments['charge']>>;
    try {
      outcome = await deps.payments.charge({
        amount: body.amount,
        description,
        paymentMethodId: card.paymentMethodId,
        customerId: body.save_card ? customerId : card.customerId,
        saveCard: Boolean(body.save_card),
        metadata: { purpose: PURPOSE, company_id: String(auth.company.id), payment_id: String(id) },
        idempotencyKey: `wallet-payment-${id}`,
      });
    } catch (err) {
      if (err instanceof ProcessorUnavailable) throw new HttpError(503, { card: [UNAVAILABLE] });
      throw err;
    }
    await db.execute(
      sql`update wallet_payments set processor_payment_id = coalesce(processor_payment_id, ${outcome.paymentIntentId}),
            status = case when status = 'pending' and ${outcome.status} in ('failed', 'requires_action')
                          then ${outcome.status} else status end,
            failure_message = ${'message' in outcome ? outcome.message : null}, updated_at = now()
          where id = ${id}`,
    );
    if (body.save_card && outcome.status === 'succeeded') {
      await saveCard(db, personal, auth.company.id, customerId, card);
    }
    if (outcome.status === 'failed' || outcome.status === 'requires_action') {
      throw invalid('card', outcome.message);
    }
  } else if (payment.status === 'failed' || payment.status === 'requires_action') {
    throw invalid('card', String(payment.failure_message ?? 'The card payment did not complete.'));
  }
  return (await findPayment(db, auth, id))!;
}

async function saveCard(
  db: Db,
  accountId: number,
  companyId: number,
  customerId: string | null,
  card: { paymentMethodId: string; brand: string; last4: string; expMonth: number; expYear: number },
) {
  await db.execute(
    sql`insert into wallet_settings (account_id, company_id, processor_customer_id, payment_method_id, card_brand,
          card_last4, card_exp_month, card_exp_year)
        values (${accountId}, ${companyId}, ${customerId}, ${card.paymentMethodId}, ${card.brand}, ${card.last4},
          ${card.expMonth}, ${card.expYear})
        on conflict (account_id) do update set processor_customer_id = excluded.processor_customer_id,
          payment_method_id = excluded.payment_method_id, card_brand = excluded.card_brand,
          card_last4 = excluded.card_last4, card_exp_month = excluded.card_exp_month,
          card_exp_year = excluded.card_exp_year, updated_at = now()`,
  );
}

/**
 * The webhook's work (in its transaction): a succeeded payment intent credits the wallet once (ledger key
 * `pi:<id>`), and its payment becomes an invoice; a failed one is marked failed. Events that disagree with the
 * payment we recorded (another amount or company) are refused loudly rather than credited.
 */
export async function handleProcessorEvent(deps: Deps, type: string, object: Row, tx: Db) {
  const meta = (object.metadata ?? {}) as Record<string, string>;
  const id = Number(meta.payment_id);
  const company = Number(meta.company_id);
  if (!Number.isSafeInteger(id) || !Number.isSafeInteger(company)) return;
  const res = await tx.execute<Row>(
    sql`select * from wallet_payments where id = ${id} and company_id = ${company} for update`,
  );
  const p = res.rows[0];
  if (!p) throw new Error(`wallet payment ${id} of company ${company} not found`);
  if (type === 'payment_intent.payment_failed' && p.status === 'pending') {
    const error = (object.last_payment_error ?? {}) as { message?: string };
    await tx.execute(
      sql`update wallet_payments set status = 'failed', processor_payment_id = coalesce(processor_payment_id, ${String(object.id)}),
            failure_message = ${error.message ?? 'The card payment failed.'}, updated_at = now() where id = ${id}`,
    );
    return;
  }
  if (type !== 'payment_intent.succeeded' || p.status === 'succeeded') return;
  if (Number(object.amount_received ?? object.amount) !== Number(p.amount) || object.currency !== 'usd') {
    throw new Error(`payment intent ${String(object.id)} does not match wallet payment ${id}`);
  }
  const ledger = ledgerOf(deps);
  // In the webhook's own transaction: on the embedded database a query outside it would wait for it to end.
  const clearing = await ensureCompanyAccount(tx, company, 'processor_clearing');
  const [result] = await ledger.postWithin(tx, [
    {
      companyId: company,
      key: `pi:${String(object.id)}`,
      kind: p.kind === 'auto_refill' ? 'auto_refill' : 'top_up',
      description: String(p.description),
      details: { payment_id: id, card_brand: p.card_brand, card_last4: p.card_last4 },
      actorId: Number(p.user_id),
      legs: [
        { accountId: clearing, amount: -Number(p.amount) },
        { accountId: Number(p.account_id), amount: Number(p.amount) },
      ],
    },
  ]);
  if (result.status !== 'posted' && result.status !== 'replayed') {
    throw new Error(`crediting payment ${id}: ${result.status}`);
  }
  const year = new Date().getUTCFullYear();
  await tx.execute(
    sql`update wallet_payments set status = 'succeeded', failure_message = null, paid_at = now(), updated_at = now(),
          processor_payment_id = coalesce(processor_payment_id, ${String(object.id)}),
          ledger_transaction_id = ${result.transactionId},
          invoice_number = ${`HW-${year}-${String(id).padStart(6, '0')}`}
        where id = ${id}`,
  );
}

/**
 * The `wallet.auto_refill` job: one off-session charge of the saved card, when auto-refill is still on and the
 * balance is still under the threshold. The partial unique index lets only one auto-refill be pending per wallet,
 * so a second job (or a second process) finds it and stops.
 */
export async function runAutoRefill(deps: Deps, accountId: number) {
  const db = deps.database.db;
  const acc = await db.execute<Row>(
    sql`select a.id, a.company_id, a.user_id, a.balance from ledger_accounts a
        where a.id = ${accountId} and a.kind = 'agent_wallet'`,
  );
  const a = acc.rows[0];
  if (!a) return;
  const s = await readSettings(db, accountId);
  if (!s.enabled || !s.paymentMethodId || Number(a.balance) >= s.threshold) return;
  const ins = await db.execute<{ id: number }>(
    sql`insert into wallet_payments (company_id, user_id, account_id, kind, amount, description, card_brand, card_last4)
        values (${a.company_id}, ${a.user_id}, ${accountId}, 'auto_refill', ${s.amount}, 'Auto-refill',
          ${s.card?.brand ?? null}, ${s.card?.last4 ?? null})
        on conflict (account_id) where kind = 'auto_refill' and status = 'pending' do nothing returning id`,
  );
  if (!ins.rows[0]) return; // one is already on its way
  const id = Number(ins.rows[0].id);
  const outcome = await deps.payments.charge({
    amount: s.amount,
    description: 'Auto-refill',
    paymentMethodId: s.paymentMethodId,
    customerId: s.customerId,
    offSession: true,
    metadata: { purpose: PURPOSE, company_id: String(a.company_id), payment_id: String(id) },
    idempotencyKey: `wallet-payment-${id}`,
  });
  await db.execute(
    sql`update wallet_payments set processor_payment_id = coalesce(processor_payment_id, ${outcome.paymentIntentId}),
          status = case when status = 'pending' and ${outcome.status} in ('failed', 'requires_action')
                        then 'failed' else status end,
          failure_message = ${'message' in outcome ? outcome.message : null}, updated_at = now()
        where id = ${id}`,
  );
}
