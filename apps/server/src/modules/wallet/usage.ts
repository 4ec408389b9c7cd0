/**
 * Paid usage on the ledger: the one door through which other areas (texts, calls, phone numbers, lookups) take
 * money from a person's wallet. The price comes from the shared list (USAGE_PRICES), so what `estimate_cost` and
 * `usage_pricing` show is what is charged. A debit is keyed by its cause (`sms:<message id>`,
 * `call:<call sid>:<leg>`): a retried send or a duplicated provider callback answers the first charge and adds
 * nothing. A wallet never goes below zero: a debit it cannot pay is refused whole, and the caller does not send.
 *
 *   const r = await chargeUsage(deps, { companyId, userId, usageType: 'sms', quantity: segments,
 *                                       idempotencyKey: `sms:${message.id}`, details: { to }, ref: { type: 'sms_message', id } });
 *   if (!r.ok) return refuse(r.message);   // insufficient funds (or a key reused for another charge)
 *
 * Calls: charge per started minute (`startedMinutes(seconds)`), and cap a call before it starts with
 * `affordableQuantity` (how many units the balance pays for). See docs/ARCHITECTURE.md "Charging usage".
 */
import { formatPhone, formatUsd, USAGE_PRICES, type UsageType } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { ensureCompanyAccount, ensureUserWallet } from './accounts.js';
import type { Movement, MovementResult } from './ledger.js';
import type { Ledger } from './poster.js';
import { balanceOf, ledgerOf } from './service.js';

export const costOf = (usageType: UsageType, quantity: number) => USAGE_PRICES[usageType].unit_price * quantity;

/** Seconds of a call leg to billable minutes: every started minute counts (0 s is nothing, 1-60 s is one). */
export const startedMinutes = (seconds: number) => (seconds > 0 ? Math.ceil(seconds / 60) : 0);

export interface UsageChargeRequest {
  companyId: number;
  /** Whose wallet pays (a user of `companyId`; anyone else is an error, never a charge across tenants). */
  userId: number;
  usageType: UsageType;
  /** Whole units of the price list: segments, started minutes, lookups, months. At least 1. */
  quantity: number;
  /** The cause's own id, unique per company for this charge: `sms:<message id>`, `call:<call sid>:<leg>`. */
  idempotencyKey: string;
  /** Shown in the wallet's history instead of the generated text ("Text to 1-555-123-4567, 2 segments"). */
  description?: string;
  /** What it paid for, shown in the history: `to` (a phone number), `seconds` (a call's length), ... */
  details?: Record<string, unknown>;
  /** The record that caused it (kept with the transaction, for "where did my money go"). */
  ref?: { type: string; id: string | number };
  /** Who acted, when not the wallet's owner (a manager's bulk text). */
  actorId?: number | null;
  /**
   * Cents a unit when the person's texting or dialer plan prices it (the quota checks' `unitPrice`,
   * modules/usage-plans); without it, the shared list.
   */
  unitPrice?: number;
}

export type UsageChargeResult =
  | {
      ok: true;
      /** `charged` now, or `already_charged` by an earlier call with the same key (nothing added). */
      status: 'charged' | 'already_charged';
      transactionId: number;
      /** Cents taken. */
      amount: number;
    }
  | {
      ok: false;
      /** The wallet cannot pay: nothing was charged, and the usage must not happen. */
      reason: 'insufficient_funds';
      balance: number;
      needed: number;
      message: string;
    }
  | {
      ok: false;
      /** The key was used before for a different charge (another amount or wallet): nothing was charged. */
      reason: 'key_conflict';
      transactionId: number;
      message: string;
    };

export const insufficientFundsMessage = (balance: number, needed: number) =>
  `Your wallet balance (${formatUsd(balance)}) does not cover this (${formatUsd(needed)}). Please top up your wallet.`;

/** Cents a unit of this charge: the plan's price when given, else the shared list's. */
const unitPriceOf = (c: UsageChargeRequest) => c.unitPrice ?? USAGE_PRICES[c.usageType].unit_price;

function check(c: UsageChargeRequest) {
  if (c.unitPrice !== undefined && (!Number.isSafeInteger(c.unitPrice) || c.unitPrice < 1)) {
    throw new RangeError(`a unit price is a whole number of cents of at least 1 (got ${c.unitPrice})`);
  }
  if (!Number.isSafeInteger(c.quantity) || c.quantity < 1) {
    throw new RangeError(`usage quantity must be a whole number of at least 1 (got ${c.quantity})`);
  }
  if (!USAGE_PRICES[c.usageType]) throw new RangeError(`unknown usage type ${String(c.usageType)}`);
  if (!c.idempotencyKey || c.idempotencyKey.length > 200)
    throw new RangeError('an idempotency key of 1 to 200 characters');
}

function movement(c: UsageChargeRequest, wallet: number, revenue: number): Movement {
  const amount = unitPriceOf(c) * c.quantity;
  return {
    companyId: c.companyId,
    key: c.idempotencyKey,
    kind: 'usage',
    description: c.description ?? '',
    actorId: c.actorId ?? c.userId,
    details: {
      ...c.details,
      ...(c.ref ? { ref: c.ref } : {}),
      usage_type: c.usageType,
      quantity: c.quantity,
      unit_price: unitPriceOf(c),
    },
    legs: [
      { accountId: wallet, amount: -amount },
      { accountId: revenue, amount },
    ],
  };
}

function answer(c: UsageChargeRequest, r: MovementResult): UsageChargeResult {
  const amount = unitPriceOf(c) * c.quantity;
  switch (r.status) {
    case 'posted':
      return { ok: true, status: 'charged', transactionId: r.transactionId, amount };
    case 'replayed':
      return { ok: true, status: 'already_charged', transactionId: r.transactionId, amount };
    case 'refused':
      return {
        ok: false,
        reason: 'insufficient_funds',
        balance: r.balance,
        needed: r.needed,
        message: insufficientFundsMessage(r.balance, r.needed),
      };
    case 'conflict':
      return {
        ok: false,
        reason: 'key_conflict',
        transactionId: r.transactionId,
        message: `The key ${c.idempotencyKey} was already used for another charge.`,
      };
  }
}

/**
 * Debits the user's wallet for usage, in its own transaction through the ledger's group commit (many debits at
 * once on one wallet are cheap). Throws only for a programming error: a bad quantity or key, or a user who is not
 * of the company.
 */
export async function chargeUsage(deps: Deps, c: UsageChargeRequest): Promise<UsageChargeResult> {
  return chargeUsageOn(ledgerOf(deps), c);
}

/** `chargeUsage` on a given ledger (the bench's, a test's). */
export async function chargeUsageOn(ledger: Ledger, c: UsageChargeRequest): Promise<UsageChargeResult> {
  check(c);
  const wallet = await ledger.accounts.userWallet(c.companyId, c.userId);
  if (!wallet) throw new Error(`user ${c.userId} is not a user of company ${c.companyId}`);
  const revenue = await ledger.accounts.companyAccount(c.companyId, 'revenue');
  return answer(c, await ledger.post(movement(c, wallet, revenue)));
}

/**
 * The same debit inside the caller's database transaction (`tx`): it commits or rolls back with the caller's own
 * writes (a message row and its charge together). The wallet row stays locked until `tx` ends, so keep `tx` short.
 */
export async function chargeUsageWithin(deps: Deps, tx: Db, c: UsageChargeRequest): Promise<UsageChargeResult> {
  check(c);
  // Through `tx`: on the embedded database a statement outside it would wait for it to end.
  const wallet = await ensureUserWallet(tx, c.companyId, c.userId);
  if (!wallet) throw new Error(`user ${c.userId} is not a user of company ${c.companyId}`);
  const revenue = await ensureCompanyAccount(tx, c.companyId, 'revenue');
  const [r] = await ledgerOf(deps).postWithin(tx, [movement(c, wallet, revenue)]);
  return answer(c, r);
}

/**
 * How many units of `usageType` the user's wallet pays for now (0 when it cannot pay one): what a call may last,
 * in minutes, before it starts. Other debits may land meanwhile, so the charge itself can still be refused.
 */
export async function affordableQuantity(
  deps: Deps,
  companyId: number,
  userId: number,
  usageType: UsageType,
  /** The plan's price of a unit, when it has one (as in `chargeUsage`). */
  unitPrice?: number,
): Promise<number> {
  const ledger = ledgerOf(deps);
  const wallet = await ledger.accounts.userWallet(companyId, userId);
  if (!wallet) throw new Error(`user ${userId} is not a user of company ${companyId}`);
  return Math.floor((await balanceOf(deps.database.db, wallet)) / (unitPrice ?? USAGE_PRICES[usageType].unit_price));
}

const duration = (s: number) => {
  const m = Math.floor(s / 60);
  const r = s % 60;
  return m ? `${m} min${r ? ` ${r} s` : ''}` : `${r} s`;
};

/** "Text to 1-555-123-4567", "Outbound call to ... (2 min 5 s)", "Phone number validation x 40". */
export function describeUsage(details: Record<string, unknown>): string {
  const type = details.usage_type as UsageType | undefined;
  const price = type ? USAGE_PRICES[type] : undefined;
  if (!price) return 'Usage';
  const to = typeof details.to === 'string' ? ` to ${formatPhone(details.to) || details.to}` : '';
  const seconds = typeof details.seconds === 'number' ? ` (${duration(details.seconds)})` : '';
  const quantity = Number(details.quantity ?? 1);
  switch (type) {
    case 'sms':
      return `Text${to}${quantity > 1 ? `, ${quantity} segments` : ''}`;
    case 'mms':
      return `Picture message${to}`;
    case 'outbound_call_minute':
    case 'inbound_call_minute':
      return `${price.label}${to}${seconds || ` (${quantity} min)`}`;
    default:
      return quantity > 1 ? `${price.label} x ${quantity}` : price.label;
  }
}

export type UsageReversal =
  | { status: 'reversed' | 'already_reversed'; transactionId: number; amount: number }
  /** No debit was ever posted under the key: nothing to give back. */
  | { status: 'not_charged' };

/**
 * Gives back a usage debit whole (a text the carrier never took), inside the caller's transaction: the debit's own
 * entries, negated, posted as a `refund` under the key `reversal:<debit key>`, so a second call answers the first
 * reversal and moves nothing. The amount comes from the ledger, never from the caller, so it is exactly what was
 * taken, at whatever price applied then.
 */
export async function reverseUsageWithin(
  deps: Deps,
  tx: Db,
  r: { companyId: number; idempotencyKey: string; description: string; actorId?: number | null },
): Promise<UsageReversal> {
  const res = await tx.execute<{ id: number; account_id: number; amount: number; details: unknown }>(
    sql`select t.id, e.account_id, e.amount, t.details from ledger_transactions t
        join ledger_entries e on e.transaction_id = t.id
        where t.company_id = ${r.companyId} and t.idempotency_key = ${r.idempotencyKey} and t.kind = 'usage'
        order by e.id`,
  );
  if (!res.rows.length) return { status: 'not_charged' };
  const original = Number(res.rows[0].id);
  const legs = res.rows.map((e) => ({ accountId: Number(e.account_id), amount: -Number(e.amount) }));
  const amount = legs.filter((l) => l.amount > 0).reduce((n, l) => n + l.amount, 0);
  const details = (typeof res.rows[0].details === 'string' ? JSON.parse(res.rows[0].details) : res.rows[0].details) as
    | Record<string, unknown>
    | undefined;
  const [posted] = await ledgerOf(deps).postWithin(tx, [
    {
      companyId: r.companyId,
      key: `reversal:${r.idempotencyKey}`,
      kind: 'refund',
      description: r.description,
      actorId: r.actorId ?? null,
      details: { reverses: original, ...(details?.ref ? { ref: details.ref } : {}) },
      legs,
    },
  ]);
  if (posted.status === 'posted') return { status: 'reversed', transactionId: posted.transactionId, amount };
  if (posted.status === 'replayed') return { status: 'already_reversed', transactionId: posted.transactionId, amount };
  // A credit back cannot overdraw a wallet, and the key is ours alone: anything else is a bug.
  throw new Error(`reversal of ${r.idempotencyKey}: ${posted.status}`);
}
