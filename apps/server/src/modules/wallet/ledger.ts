/**
 * Posting movements on the ledger (docs/decisions/wallet-ledger.md). A movement is one ledger transaction: legs in
 * integer cents that sum to zero, and an idempotency key from its cause. `applyMovements` posts a batch of them in
 * the caller's database transaction, in order, as set-based statements:
 *
 *   1. lock the wallets the batch touches (in id order, so two batches never deadlock), read the system accounts
 *      (never locked: they carry no cached balance) and find the keys already posted, in one round trip: a
 *      replay answers the first posting and adds nothing;
 *   2. decide each movement against the running balances: a wallet never goes below zero (no overdraft);
 *   3. insert the transactions, their entries (with each wallet's balance after) and the new cached balances in
 *      one statement. The database checks again that every transaction balances and no wallet is negative.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { AccountKind } from './accounts.js';

export const TRANSACTION_KINDS = ['top_up', 'auto_refill', 'usage', 'allocation', 'reclaim', 'refund'] as const;
export type TransactionKind = (typeof TRANSACTION_KINDS)[number];

export interface Leg {
  accountId: number;
  /** Signed cents: positive into the account. */
  amount: number;
}

export interface Movement {
  companyId: number;
  /** Unique per company: the cause's own id (a message, a call leg, a payment intent, a request's key). */
  key: string;
  kind: TransactionKind;
  description?: string;
  details?: Record<string, unknown>;
  actorId?: number | null;
  legs: Leg[];
}

export type MovementResult =
  | { status: 'posted'; transactionId: number; balances: Record<number, number> }
  | { status: 'replayed'; transactionId: number }
  /** A wallet would go below zero: nothing was posted. */
  | { status: 'refused'; accountId: number; balance: number; needed: number }
  /** The key was already used by a different movement: nothing was posted. */
  | { status: 'conflict'; transactionId: number };

/** Hooks of a batch: called inside its transaction. */
export interface ApplyHooks {
  /** A posted movement took a wallet with auto-refill from at or above its threshold to under it. */
  onThresholdCrossed?(tx: Db, wallet: { accountId: number; companyId: number }): Promise<void>;
}

/** Another transaction posted one of the batch's keys at the same moment: the caller retries the whole batch. */
export class KeyRace extends Error {}

/** Sane bounds: a movement of more than ten million dollars is a bug, not a payment. */
export const MAX_LEG_CENTS = 1_000_000_000;

/** Throws on a movement that could never be posted (a programming error, not a refusal). */
export function assertMovement(m: Movement) {
  if (!m.key || m.key.length > 200) throw new Error('a movement needs a key of 1 to 200 characters');
  if (m.legs.length < 2) throw new Error('a movement needs at least two legs');
  const seen = new Set<number>();
  let sum = 0;
  for (const l of m.legs) {
    if (!Number.isSafeInteger(l.amount) || l.amount === 0 || Math.abs(l.amount) > MAX_LEG_CENTS) {
      throw new Error(`a leg must be a non-zero whole number of cents up to ${MAX_LEG_CENTS}`);
    }
    if (seen.has(l.accountId)) throw new Error('a movement names each account once');
    seen.add(l.accountId);
    sum += l.amount;
  }
  if (sum !== 0) throw new Error('the legs of a movement must sum to zero');
}

interface AccountRow {
  id: number;
  company_id: number;
  kind: AccountKind;
  balance: number | null;
  threshold: number | null;
}

const legsKey = (legs: Array<[number, number]>) =>
  legs
    .map(([a, n]) => `${a}:${n}`)
    .sort()
    .join(',');

/** Posts `movements` in order inside `tx` (which must be a transaction) and answers each one's result. */
export async function applyMovements(tx: Db, movements: Movement[], hooks: ApplyHooks = {}): Promise<MovementResult[]> {
  for (const m of movements) assertMovement(m);
  const { accounts, posted } = await findAccountsAndKeys(tx, movements, true);
  const plan = decide(movements, accounts, posted);
  const ids = plan.toInsert.length ? await insertMovements(tx, movements, plan) : new Map();
  const results = answers(movements, plan.decisions, ids);
  if (hooks.onThresholdCrossed) {
    for (const [accountId, companyId] of plan.crossed) await hooks.onThresholdCrossed(tx, { accountId, companyId });
  }
  return results;
}

/**
 * The same posting without a transaction or a lock, in two statements that each commit on their own (bench/wallet.ts:
 * BEGIN and COMMIT were half of a batch's round trips). The balances are read unlocked; the write then moves each
 * wallet only from the balance that was read (compare-and-set) and fails whole, with a serialization failure that
 * the caller retries on the locking path, when any wallet moved meanwhile or a key was taken. Answers null, having
 * written nothing, when the batch crosses an auto-refill threshold: its job must be queued in the same transaction.
 */
export async function applyMovementsUnlocked(
  db: Db,
  movements: Movement[],
  hooks: ApplyHooks = {},
): Promise<MovementResult[] | null> {
  for (const m of movements) assertMovement(m);
  const { accounts, posted } = await findAccountsAndKeys(db, movements, false);
  const plan = decide(movements, accounts, posted);
  if (plan.crossed.size && hooks.onThresholdCrossed) return null;
  const read = new Map([...accounts.values()].map((a) => [a.id, a.balance]));
  const ids = plan.toInsert.length ? await insertMovements(db, movements, plan, read) : new Map();
  return answers(movements, plan.decisions, ids);
}

type Decision =
  | { kind: 'posted'; after: Record<number, number> }
  | { kind: 'refused'; accountId: number; balance: number; needed: number }
  | { kind: 'replayed' | 'conflict'; transactionId?: number; of?: number };

interface Plan {
  decisions: Decision[];
  /** Indexes of the movements to insert. */
  toInsert: number[];
  /** Each wallet's balance after the batch. */
  balances: Map<number, number>;
  /** Wallets whose auto-refill threshold the batch crosses, with their company. */
  crossed: Map<number, number>;
}

/** Decides each movement in order against the running balances: a wallet never goes below zero (no overdraft). */
function decide(movements: Movement[], accounts: Map<number, AccountRow>, posted: Map<string, PostedKey>): Plan {
  for (const m of movements) {
    for (const l of m.legs) {
      const a = accounts.get(l.accountId);
      if (!a) throw new Error(`ledger account ${l.accountId} does not exist`);
      if (a.company_id !== m.companyId) throw new Error(`ledger account ${l.accountId} is another company's`);
    }
  }
  const balances = new Map<number, number>();
  for (const a of accounts.values()) if (a.balance !== null) balances.set(a.id, a.balance);

  const decisions: Decision[] = [];
  /** The movement of this batch that takes each key: a repeat within the batch answers it. */
  const taking = new Map<string, number>();
  const crossed = new Map<number, number>();
  for (const [i, m] of movements.entries()) {
    const id = `${m.companyId}:${m.key}`;
    const shape = legsKey(m.legs.map((l) => [l.accountId, l.amount]));
    const before = posted.get(id);
    if (before) {
      decisions.push({ kind: before.legs === shape ? 'replayed' : 'conflict', transactionId: before.id });
      continue;
    }
    const first = taking.get(id);
    if (first !== undefined) {
      const same = legsKey(movements[first].legs.map((l) => [l.accountId, l.amount])) === shape;
      decisions.push({ kind: same ? 'replayed' : 'conflict', of: first });
      continue;
    }
    const short = m.legs.find((l) => {
      const b = balances.get(l.accountId);
      return b !== undefined && b + l.amount < 0;
    });
    if (short) {
      const balance = balances.get(short.accountId)!;
      decisions.push({ kind: 'refused', accountId: short.accountId, balance, needed: -short.amount });
      continue;
    }
    const after: Record<number, number> = {};
    for (const l of m.legs) {
      const b = balances.get(l.accountId);
      if (b === undefined) continue;
      after[l.accountId] = b + l.amount;
      balances.set(l.accountId, b + l.amount);
      const threshold = accounts.get(l.accountId)!.threshold;
      if (threshold !== null && b >= threshold && b + l.amount < threshold) crossed.set(l.accountId, m.companyId);
    }
    taking.set(id, i);
    decisions.push({ kind: 'posted', after });
  }
  const toInsert = decisions.flatMap((d, i) => (d.kind === 'posted' ? [i] : []));
  return { decisions, toInsert, balances, crossed };
}

function answers(movements: Movement[], decisions: Decision[], ids: Map<string, number>) {
  const txIdOf = (i: number) => ids.get(`${movements[i].companyId}:${movements[i].key}`) as number;
  return decisions.map((d, i): MovementResult => {
    switch (d.kind) {
      case 'posted':
        return { status: 'posted', transactionId: txIdOf(i), balances: d.after };
      case 'refused':
        return { status: 'refused', accountId: d.accountId, balance: d.balance, needed: d.needed };
      default:
        return { status: d.kind, transactionId: d.transactionId ?? txIdOf(d.of!) };
    }
  });
}

interface PostedKey {
  id: number;
  legs: string;
}

/**
 * One round trip: the wallets with their auto-refill threshold, locked in id order when `lock` (FOR UPDATE in one
 * statement, so every batch takes its locks in the same order and two batches never deadlock); the system
 * accounts, never locked so they never serialise unrelated debits; and the batch's keys already posted. The key
 * lookup sees the snapshot of the statement's start: a key committed while this batch waited for a lock is caught
 * by the unique index at insert (retried). Only a batch that hits a posted key pays a second round trip for the
 * shape of its legs (to tell a replay from a misused key): folded into this statement as a subquery, the entries
 * lookup is costed at hundreds of rows a key when the table has no statistics, which took every batch past
 * `jit_above_cost` and into a 30-40 ms JIT compile (bench/wallet.ts).
 */
async function findAccountsAndKeys(db: Db, movements: Movement[], lock: boolean) {
  const ids = [...new Set(movements.flatMap((m) => m.legs.map((l) => l.accountId)))];
  const res = await db.execute<{
    src: 'a' | 'k';
    id: number;
    company_id: number;
    kind: string | null;
    balance: number | null;
    threshold: number | null;
    key: string | null;
  }>(
    sql`with w as (
          select a.id, a.company_id, a.kind, a.balance,
                 case when s.auto_refill_enabled then s.auto_refill_threshold end as threshold
          from ledger_accounts a left join wallet_settings s on s.account_id = a.id
          where a.id = any(${sql.param(ids)}::int[]) and a.balance is not null
          ${lock ? sql`order by a.id for update of a` : sql``})
        select 'a' as src, id::bigint, company_id, kind, balance, threshold, null::text as key
        from w
        union all
        select 'a', id, company_id, kind, null, null, null from ledger_accounts
        where id = any(${sql.param(ids)}::int[]) and balance is null
        union all
        select 'k', t.id, t.company_id, null, null, null, t.idempotency_key
        from ledger_transactions t
        join unnest(${sql.param(movements.map((m) => m.companyId))}::int[],
                    ${sql.param(movements.map((m) => m.key))}::text[]) as k(company_id, key)
          on t.company_id = k.company_id and t.idempotency_key = k.key`,
  );
  const accounts = new Map<number, AccountRow>();
  const hits: Array<{ id: number; key: string }> = [];
  for (const r of res.rows) {
    if (r.src === 'a') {
      accounts.set(Number(r.id), {
        id: Number(r.id),
        company_id: Number(r.company_id),
        kind: r.kind as AccountKind,
        balance: r.balance === null ? null : Number(r.balance),
        threshold: r.threshold === null ? null : Number(r.threshold),
      });
    } else {
      hits.push({ id: Number(r.id), key: `${r.company_id}:${r.key}` });
    }
  }
  const posted = new Map<string, PostedKey>();
  if (hits.length) {
    const shapes = await db.execute<{ transaction_id: number; account_id: number; amount: number }>(
      sql`select transaction_id, account_id, amount from ledger_entries
          where transaction_id = any(${sql.param(hits.map((h) => h.id))}::bigint[])`,
    );
    const legsOf = new Map<number, Array<[number, number]>>();
    for (const e of shapes.rows) {
      const id = Number(e.transaction_id);
      legsOf.set(id, [...(legsOf.get(id) ?? []), [Number(e.account_id), Number(e.amount)]]);
    }
    for (const h of hits) posted.set(h.key, { id: h.id, legs: legsKey(legsOf.get(h.id) ?? []) });
  }
  return { accounts, posted };
}

/**
 * One statement: the transactions, their entries and the wallets' new cached balances. A key taken by another
 * transaction since the read (ON CONFLICT skipped it) makes the whole batch roll back and retry (KeyRace). With
 * `read` (the balances the decisions started from, unlocked), each wallet moves only from that balance, and the
 * statement fails whole (ledger_guard, a serialization failure) when a wallet moved meanwhile or a key was taken.
 */
async function insertMovements(db: Db, movements: Movement[], plan: Plan, read?: Map<number, number | null>) {
  const { decisions, toInsert, balances } = plan;
  const ms = toInsert.map((i) => movements[i]);
  const legs = toInsert.flatMap((i) =>
    movements[i].legs.map((l) => ({
      key: movements[i].key,
      companyId: movements[i].companyId,
      accountId: l.accountId,
      amount: l.amount,
      after: (decisions[i] as { after: Record<number, number> }).after[l.accountId] ?? null,
    })),
  );
  const touched = [...new Set(legs.filter((l) => l.after !== null).map((l) => l.accountId))];
  const res = await db.execute<{ id: number | null; company_id: number; idempotency_key: string }>(
    sql`with t as (
          insert into ledger_transactions (company_id, kind, idempotency_key, description, details, actor_id)
          select c, k, key, d, det::jsonb, a
          from unnest(${sql.param(ms.map((m) => m.companyId))}::int[], ${sql.param(ms.map((m) => m.kind))}::text[],
                      ${sql.param(ms.map((m) => m.key))}::text[], ${sql.param(ms.map((m) => m.description ?? ''))}::text[],
                      ${sql.param(ms.map((m) => JSON.stringify(m.details ?? {})))}::text[],
                      ${sql.param(ms.map((m) => m.actorId ?? null))}::int[]) as v(c, k, key, d, det, a)
          on conflict (company_id, idempotency_key) do nothing
          returning id, company_id, idempotency_key),
        e as (
          insert into ledger_entries (transaction_id, account_id, company_id, amount, balance_after)
          select t.id, l.account_id, l.company_id, l.amount, l.balance_after
          from unnest(${sql.param(legs.map((l) => l.key))}::text[], ${sql.param(legs.map((l) => l.companyId))}::int[],
                      ${sql.param(legs.map((l) => l.accountId))}::int[], ${sql.param(legs.map((l) => l.amount))}::bigint[],
                      ${sql.param(legs.map((l) => l.after))}::bigint[])
               as l(key, company_id, account_id, amount, balance_after)
          join t on t.company_id = l.company_id and t.idempotency_key = l.key),
        u as (
          update ledger_accounts a set balance = v.balance
          from unnest(${sql.param(touched)}::int[], ${sql.param(touched.map((id) => balances.get(id)!))}::bigint[],
                      ${sql.param(touched.map((id) => read?.get(id) ?? null))}::bigint[])
               as v(id, balance, was)
          where a.id = v.id ${read ? sql`and a.balance = v.was` : sql``}
          returning a.id)
        ${
          read
            ? // Always one row, so the guard runs even when every key was taken.
              sql`select t.id, t.company_id, t.idempotency_key
                from (select ledger_guard((select count(*) from u) = ${touched.length}
                        and (select count(*) from t) = ${ms.length}, 'a wallet or key of this batch changed')) g
                left join t on true`
            : sql`select id, company_id, idempotency_key from t`
        }`,
  );
  const rows = res.rows.filter((r) => r.id !== null);
  if (rows.length !== ms.length) throw new KeyRace('a key of this batch was posted by another transaction');
  const out = new Map<string, number>();
  for (const r of rows) out.set(`${r.company_id}:${r.idempotency_key}`, Number(r.id));
  return out;
}
