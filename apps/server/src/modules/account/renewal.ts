/**
 * The monthly turn of account plans and Max Plus (job `account.renew`, every five minutes): a cancelled plan whose
 * month is over ends and the person is unpaid again; an active plan or Max Plus whose month is over is charged again
 * off-session with the payer's card on file (key per subscription and period, so a rerun never charges twice) and
 * extended when the processor confirms; no card, or a failed charge, ends it.
 */
import { ACCOUNT_PLANS, type AccountPlanId, MAX_PLUS_PLAN_INFO, type MaxPlusPlan } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { cardOnFile, startCharge } from './charges.js';

export const RENEW_JOB = 'account.renew';
const BATCH = 200;

type Due = { id: number; company_id: number; payer: number; plan: string; period_end: string };

export async function endAccountPlans(db: Db, where: ReturnType<typeof sql>) {
  const res = await db.execute<{ user_id: number }>(
    sql`update account_subscriptions set status = 'ended', updated_at = now() where ${where} returning user_id`,
  );
  const ids = res.rows.map((r) => Number(r.user_id));
  if (ids.length) {
    await db.execute(sql`update users set paid = false, updated_at = now() where id = any(${sql.param(ids)}::int[])`);
    invalidateAuth({ users: ids });
  }
  return ids.length;
}

export async function endMaxPlus(db: Db, where: ReturnType<typeof sql>) {
  const res = await db.execute<{ user_id: number }>(
    sql`update max_plus_subscriptions set status = 'cancelled', cancelled_at = now(), updated_at = now()
        where ${where} returning user_id`,
  );
  const ids = res.rows.map((r) => Number(r.user_id));
  if (ids.length) {
    await db.execute(
      sql`update users set max_plus_active = false, updated_at = now() where id = any(${sql.param(ids)}::int[])`,
    );
    invalidateAuth({ users: ids });
  }
}

export async function renewDue(deps: Deps) {
  const db = deps.database.db;
  const ended = await endAccountPlans(db, sql`status = 'cancelled' and current_period_end <= now()`);
  const plans = await db.execute<Due>(
    sql`select id, company_id, user_id as payer, plan, current_period_end as period_end from account_subscriptions
        where status = 'active' and current_period_end <= now() order by id limit ${BATCH}`,
  );
  const maxPlus = await db.execute<Due>(
    sql`select id, company_id, paid_by as payer, plan, current_period_end as period_end from max_plus_subscriptions
        where status = 'active' and current_period_end <= now() order by id limit ${BATCH}`,
  );
  let charged = 0;
  for (const [kind, rows] of [
    ['account_plan', plans.rows],
    ['max_plus', maxPlus.rows],
  ] as const) {
    for (const s of rows) {
      const table = kind === 'account_plan' ? sql`account_subscriptions` : sql`max_plus_subscriptions`;
      const card = await cardOnFile(db, Number(s.payer));
      if (!card) {
        if (kind === 'account_plan') await endAccountPlans(db, sql`id = ${s.id}`);
        else await endMaxPlus(db, sql`id = ${s.id}`);
        continue;
      }
      const price =
        kind === 'account_plan'
          ? ACCOUNT_PLANS[s.plan as AccountPlanId].price
          : MAX_PLUS_PLAN_INFO[s.plan as MaxPlusPlan].price;
      const label =
        kind === 'account_plan'
          ? `Harbor ${ACCOUNT_PLANS[s.plan as AccountPlanId].name} plan, renewal`
          : `${MAX_PLUS_PLAN_INFO[s.plan as MaxPlusPlan].label}, renewal`;
      await startCharge(
        deps,
        {
          companyId: Number(s.company_id),
          userId: Number(s.payer),
          kind,
          amount: price,
          description: label,
          requestKey: `renew:${s.id}:${new Date(s.period_end).getTime()}`,
          card,
          offSession: true,
        },
        async (tx, chargeId) => {
          await tx.execute(sql`update ${table} set charge_id = ${chargeId}, updated_at = now() where id = ${s.id}`);
        },
      );
      charged++;
    }
  }
  return { ended, charged };
}
