/**
 * Max Plus (routes.md `max-plus`; docs/decisions/max-plus.md): subscribing with the card on file (active once the
 * processor's webhook lands), cancelling (ends now), managers bulk-subscribing the people they reach on their own
 * card and cancelling for one of them. The live subscription is mirrored on the user (`max_plus_active`,
 * `max_plus_plan`), which the current user and the SMS feature gate read.
 */
import { MAX_PLUS_PLAN_INFO, type MaxPlusPlan } from '@harbor/shared';
import { and, inArray, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import type { Deps } from '../../platform/deps.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { reachableIds, reachCondition } from '../../platform/reach.js';
import { type ChargeRow, onCharge, presentCharge, requireCard, startCharge } from '../account/charges.js';
import { endMaxPlus } from '../account/renewal.js';

type Row = Record<string, unknown>;
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
const nameOf = (r: { firstName: string | null; lastName: string | null; email: string }) =>
  `${r.firstName ?? ''} ${r.lastName ?? ''}`.trim() || r.email;

export function presentMaxPlus(r: Row) {
  return {
    id: Number(r.id),
    user_id: Number(r.user_id),
    plan: String(r.plan) as MaxPlusPlan,
    status: String(r.status),
    paid_by: (r.paid_by_name as string | null) ?? null,
    current_period_end: iso(r.current_period_end),
    failure_message: (r.failure_message as string | null) ?? null,
  };
}

async function rowsOfCharge(db: Db, chargeId: number) {
  const res = await db.execute<Row>(
    sql`select m.*, trim(coalesce(p.first_name, '') || ' ' || coalesce(p.last_name, '')) as paid_by_name
        from max_plus_subscriptions m join users p on p.id = m.paid_by where m.charge_id = ${chargeId} order by m.id`,
  );
  return res.rows;
}

async function answer(db: Db, charge: ChargeRow | null, rows?: Row[]) {
  return {
    data: (rows ?? (charge ? await rowsOfCharge(db, charge.id) : [])).map(presentMaxPlus),
    charge: charge ? presentCharge(charge) : null,
  };
}

/** Names of those of `ids` who already have a live (pending or active) Max Plus. */
async function alreadyLive(db: Db, companyId: number, ids: number[]) {
  const res = await db.execute<{ name: string }>(
    sql`select trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as name
        from max_plus_subscriptions m join users u on u.id = m.user_id
        where m.company_id = ${companyId} and m.user_id = any(${sql.param(ids)}::int[]) and m.status in ('pending', 'active')`,
  );
  return res.rows.map((r) => r.name);
}

/** Subscribes `userIds` to `plan`, paid by the caller's card: one charge for all, pending until the webhook. */
async function subscribe(deps: Deps, auth: AuthContext, userIds: number[], plan: MaxPlusPlan, key: string | null) {
  const db = deps.database.db;
  const card = await requireCard(db, auth.user.id);
  const live = await alreadyLive(db, auth.company.id, userIds);
  if (live.length) {
    const who =
      userIds.length === 1 && userIds[0] === auth.user.id
        ? 'You already have'
        : `${live.join(', ')} already ha${live.length === 1 ? 's' : 've'}`;
    throw invalid('plan', `${who} Max Plus; cancel it first to change the plan.`);
  }
  const info = MAX_PLUS_PLAN_INFO[plan];
  const n = userIds.length;
  const charge = await startCharge(
    deps,
    {
      companyId: auth.company.id,
      userId: auth.user.id,
      kind: 'max_plus',
      amount: info.price * n,
      description: `${info.label}, one month${n > 1 ? ` for ${n} people` : ''}`,
      requestKey: key,
      card,
    },
    async (tx, chargeId) => {
      await tx.execute(
        sql`insert into max_plus_subscriptions (company_id, user_id, plan, paid_by, charge_id)
            select ${auth.company.id}, id, ${plan}, ${auth.user.id}, ${chargeId}
            from unnest(${sql.param(userIds)}::int[]) as id`,
      );
    },
  );
  return answer(db, charge);
}

export const subscribeSelf = (deps: Deps, auth: AuthContext, plan: MaxPlusPlan, key: string | null) =>
  subscribe(deps, auth, [auth.user.id], plan, key);

export async function bulkSubscribe(
  deps: Deps,
  auth: AuthContext,
  ids: number[],
  plan: MaxPlusPlan,
  key: string | null,
) {
  const unique = [...new Set(ids)];
  const reached = await reachableIds(deps.database.db, auth, unique);
  const missing = unique.filter((id) => !reached.has(id));
  if (missing.length) {
    throw new HttpError(404, { user_ids: [`not found among the people you manage: ${missing.join(', ')}`] });
  }
  return subscribe(deps, auth, unique, plan, key);
}

/** Ends `userId`'s active Max Plus now (nothing is charged again); 422 when there is none. */
export async function cancelFor(deps: Deps, auth: AuthContext, userId: number) {
  const db = deps.database.db;
  const rows = await db.transaction(async (tx) => {
    const res = await tx.execute<Row>(
      sql`update max_plus_subscriptions set status = 'cancelled', cancelled_at = now(), cancelled_by = ${auth.user.id},
            updated_at = now()
          where user_id = ${userId} and company_id = ${auth.company.id} and status = 'active' returning *`,
    );
    if (!res.rows.length) return res.rows;
    await tx.execute(sql`update users set max_plus_active = false, updated_at = now() where id = ${userId}`);
    return res.rows;
  });
  if (!rows.length) {
    throw invalid('user_id', userId === auth.user.id ? 'You have no active Max Plus.' : 'has no active Max Plus.');
  }
  invalidateAuth({ users: [userId] });
  return answer(db, null, rows);
}

export async function cancelForUser(deps: Deps, auth: AuthContext, userId: number) {
  const reached = await reachableIds(deps.database.db, auth, [userId]);
  if (!reached.has(userId)) throw new HttpError(404, { user_id: ['not found among the people you manage'] });
  return cancelFor(deps, auth, userId);
}

/** The people a manager may subscribe or cancel for, with their Max Plus. */
export async function manageableUsers(db: Db, auth: AuthContext) {
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.accountType,
      active: users.maxPlusActive,
      plan: users.maxPlusPlan,
      status: sql<string | null>`(select m.status from max_plus_subscriptions m where m.user_id = ${users.id}
                                    order by m.id desc limit 1)`,
    })
    .from(users)
    .where(and(reachCondition(auth), sql`${users.id} <> ${auth.user.id}`))
    .orderBy(users.lastName, users.firstName, users.id)
    .limit(1_000);
  return {
    data: rows.map((r) => ({
      id: r.id,
      name: nameOf(r),
      email: r.email,
      role: String(r.role),
      max_plus_subscription: { active: r.active, plan: r.active ? r.plan : null, status: r.status ?? null },
    })),
  };
}

/** A Max Plus charge settled: its subscriptions start (and the users carry them) or fail. */
onCharge('max_plus', {
  async paid(tx, charge) {
    const res = await tx.execute<{ user_id: number; plan: string }>(
      sql`update max_plus_subscriptions set status = 'active', updated_at = now(),
            current_period_end = greatest(coalesce(current_period_end, now()), now()) + interval '1 month'
          where charge_id = ${charge.id} and status in ('pending', 'active') returning user_id, plan`,
    );
    for (const plan of new Set(res.rows.map((r) => r.plan))) {
      const ids = res.rows.filter((r) => r.plan === plan).map((r) => Number(r.user_id));
      await tx
        .update(users)
        .set({ maxPlusActive: true, maxPlusPlan: plan, updatedAt: new Date() })
        .where(inArray(users.id, ids));
    }
    if (res.rows.length) invalidateAuth({ users: res.rows.map((r) => Number(r.user_id)) });
  },
  async failed(tx, charge, message) {
    await tx.execute(
      sql`update max_plus_subscriptions set status = 'failed', failure_message = ${message}, updated_at = now()
          where charge_id = ${charge.id} and status = 'pending'`,
    );
    // A renewal that failed: Max Plus ends.
    await endMaxPlus(tx, sql`charge_id = ${charge.id} and status = 'active'`);
  },
});
