/**
 * Allocate and reclaim: managers and admins move money between their funding wallet and the wallets of the people
 * they reach (platform/reach.ts). Both are one ledger movement (never a balance overwrite): every leg or none. The
 * funding wallet is the company wallet for admins (company reach) and the caller's own wallet for everyone else.
 */
import { formatUsd, type WalletMember, type WalletMove } from '@harbor/shared';
import { and, asc, inArray, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import { users } from '../../platform/db/schema.js';
import type { Deps } from '../../platform/deps.js';
import { conflict, HttpError, invalid } from '../../platform/http/errors.js';
import { reachableIds, reachCondition } from '../../platform/reach.js';
import type { Movement, MovementResult } from './ledger.js';
import { balanceOf, fundsFromCompany, ledgerOf } from './service.js';

const nameOf = (u: { firstName: string; lastName: string; email: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || u.email;

/** The people the caller may move money to and from, with what each holds. */
export async function members(deps: Deps, auth: AuthContext): Promise<WalletMember[]> {
  const rows = await deps.database.db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      // Spelled out: drizzle renders a lone column of the main table without its table name.
      balance: sql<number | null>`(select a.balance from ledger_accounts a
        where a.kind = 'agent_wallet' and a.user_id = "users"."id")`,
    })
    .from(users)
    .where(reachCondition(auth))
    .orderBy(asc(users.lastName), asc(users.firstName), asc(users.id))
    .limit(1_000);
  return rows.map((r) => ({ id: r.id, name: nameOf(r), email: r.email, balance: Number(r.balance ?? 0) }));
}

/** Every id must be someone the caller reaches; one query for the whole set, 404 naming the others. */
async function targets(deps: Deps, auth: AuthContext, ids: number[]) {
  const reached = await reachableIds(deps.database.db, auth, ids);
  const missing = ids.filter((id) => !reached.has(id));
  if (missing.length) {
    throw new HttpError(404, { user_ids: [`not found among the people you manage: ${missing.join(', ')}`] });
  }
  const rows = await deps.database.db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, email: users.email })
    .from(users)
    .where(and(inArray(users.id, ids), reachCondition(auth)));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const ledger = ledgerOf(deps);
  const wallets = new Map<number, number>();
  for (const id of ids) wallets.set(id, (await ledger.accounts.userWallet(auth.company.id, id))!);
  return { wallets, names: new Map(ids.map((id) => [id, nameOf(byId.get(id)!)])) };
}

async function fundingWallet(deps: Deps, auth: AuthContext) {
  const ledger = ledgerOf(deps);
  return fundsFromCompany(auth)
    ? { id: await ledger.accounts.companyAccount(auth.company.id, 'company_wallet'), kind: 'company' as const }
    : { id: (await ledger.accounts.userWallet(auth.company.id, auth.user.id))!, kind: 'personal' as const };
}

async function answer(
  deps: Deps,
  result: MovementResult,
  moved: Array<{ user_id: number; amount: number; wallet: number }>,
  funding: { id: number; kind: 'company' | 'personal' },
): Promise<WalletMove> {
  if (result.status === 'conflict') throw conflict('idempotency_key', 'was already used for another movement');
  const db = deps.database.db;
  const out = [];
  for (const m of moved) out.push({ user_id: m.user_id, amount: m.amount, balance: await balanceOf(db, m.wallet) });
  return { moved: out, funding_balance: await balanceOf(db, funding.id), funding_wallet: funding.kind };
}

export async function allocate(
  deps: Deps,
  auth: AuthContext,
  body: { user_ids: number[]; amount: number },
  requestKey: string,
): Promise<WalletMove> {
  const { wallets, names } = await targets(deps, auth, body.user_ids);
  const funding = await fundingWallet(deps, auth);
  if ([...wallets.values()].includes(funding.id)) throw invalid('user_ids', 'cannot include your own wallet');
  const total = body.amount * body.user_ids.length;
  const movement: Movement = {
    companyId: auth.company.id,
    key: `allocate:${auth.user.id}:${requestKey}`,
    kind: 'allocation',
    description: `Allocation from ${nameOf(auth.user)}`,
    details: { by: auth.user.id, by_name: nameOf(auth.user), to: body.user_ids, funding: funding.kind },
    actorId: auth.user.id,
    legs: [
      { accountId: funding.id, amount: -total },
      ...body.user_ids.map((id) => ({ accountId: wallets.get(id)!, amount: body.amount })),
    ],
  };
  const result = await ledgerOf(deps).post(movement);
  if (result.status === 'refused') {
    const whose = funding.kind === 'company' ? 'The company wallet holds' : 'Your wallet holds';
    throw invalid(
      'amount',
      `${whose} ${formatUsd(result.balance)}; ${formatUsd(body.amount)} for ${names.size} ${names.size === 1 ? 'person' : 'people'} needs ${formatUsd(total)}.`,
    );
  }
  const moved = body.user_ids.map((id) => ({ user_id: id, amount: body.amount, wallet: wallets.get(id)! }));
  return answer(deps, result, moved, funding);
}

export async function reclaim(
  deps: Deps,
  auth: AuthContext,
  body: { user_ids: number[]; amount?: number },
  requestKey: string,
): Promise<WalletMove> {
  const { wallets, names } = await targets(deps, auth, body.user_ids);
  const funding = await fundingWallet(deps, auth);
  if ([...wallets.values()].includes(funding.id)) throw invalid('user_ids', 'cannot include your own wallet');
  const db = deps.database.db;
  const moved: Array<{ user_id: number; amount: number; wallet: number }> = [];
  for (const id of body.user_ids) {
    const held = await balanceOf(db, wallets.get(id)!);
    if (body.amount !== undefined && held < body.amount) {
      throw invalid('amount', `${names.get(id)} holds ${formatUsd(held)}, less than ${formatUsd(body.amount)}.`);
    }
    const amount = body.amount ?? held;
    if (amount > 0) moved.push({ user_id: id, amount, wallet: wallets.get(id)! });
  }
  if (!moved.length) throw invalid('user_ids', 'Nobody you picked holds any money.');
  const total = moved.reduce((s, m) => s + m.amount, 0);
  const result = await ledgerOf(deps).post({
    companyId: auth.company.id,
    key: `reclaim:${auth.user.id}:${requestKey}`,
    kind: 'reclaim',
    description: `Reclaimed by ${nameOf(auth.user)}`,
    details: { by: auth.user.id, by_name: nameOf(auth.user), from: moved.map((m) => m.user_id), funding: funding.kind },
    actorId: auth.user.id,
    legs: [{ accountId: funding.id, amount: total }, ...moved.map((m) => ({ accountId: m.wallet, amount: -m.amount }))],
  });
  if (result.status === 'refused') {
    // A debit landed between reading the balances and posting: nothing moved; the caller looks again.
    throw conflict('amount', 'A balance changed while reclaiming; nothing was moved. Please try again.');
  }
  return answer(deps, result, moved, funding);
}
