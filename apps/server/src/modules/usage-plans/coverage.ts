/**
 * What covers a person for a product right now, and their month's usage: the two reads every quota check makes,
 * answered by one statement. Precedence (docs/decisions/usage-plans.md): a paid cover before an unpaid licence,
 * then a company licence, a manager's licence, one's own subscription.
 */
import type { Coverage, PlanProduct } from '@harbor/shared';
import { USAGE_TIME_ZONE } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';

/** The first day of `at`'s month in the usage time zone, as SQL (a date). */
export const monthOf = (at: SQL | Date = sql`now()`): SQL =>
  sql`(date_trunc('month', (${at instanceof Date ? sql`${at.toISOString()}::timestamptz` : at}) at time zone ${USAGE_TIME_ZONE}))::date`;

/** 'YYYY-MM' of a date in the usage time zone. */
export function monthKey(at = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: USAGE_TIME_ZONE,
    year: 'numeric',
    month: '2-digit',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}`;
}

/** An active subscription: its status says so and its paid period has not run out. */
export const liveSql = (s: string) => sql.raw(`${s}.status = 'active' and ${s}.current_period_end > now()`);

type Row = Record<string, unknown>;

export interface CoverageAndUsage {
  coverage: Coverage | null;
  /** This month's usage of the person for the product. */
  used: number;
}

/** The statement of `coverageOf`: one row, the best cover's columns (null without one) and `used`. */
export function coverageSql(companyId: number, userId: number, product: PlanProduct): SQL {
  return sql`with cover as (
          select s.kind, s.id as subscription_id, l.id as licence_id, p.name as plan_name, l.paid,
                 l.allocation, s.unit_price
          from plan_licences l
          join plan_subscriptions s on s.id = l.subscription_id
          join usage_plans p on p.id = s.plan_id
          where l.user_id = ${userId} and l.product = ${product} and l.company_id = ${companyId}
            and l.removed_at is null and ${liveSql('s')}
          union all
          select s.kind, s.id, null, p.name, true, null, s.unit_price
          from plan_subscriptions s join usage_plans p on p.id = s.plan_id
          where s.owner_id = ${userId} and s.product = ${product} and s.company_id = ${companyId}
            and s.kind = 'self' and ${liveSql('s')}
        )
        select c.*, coalesce((select t.quantity from usage_totals t
                      where t.user_id = ${userId} and t.product = ${product} and t.month = ${monthOf()}), 0) as used
        from (select 1) one
        left join lateral (
          select * from cover
          order by paid desc, case kind when 'company' then 0 when 'manager' then 1 else 2 end, licence_id
          limit 1
        ) c on true`;
}

/** A row of `coverageSql` (or one that carries its columns) as the cover and the month's usage. */
export function coverageFromRow(r: Row | undefined): CoverageAndUsage {
  const used = Number(r?.used ?? 0);
  if (!r || r.kind === null || r.kind === undefined) return { coverage: null, used };
  return {
    used,
    coverage: {
      kind: r.kind as Coverage['kind'],
      subscription_id: Number(r.subscription_id),
      licence_id: r.licence_id === null ? null : Number(r.licence_id),
      plan_name: String(r.plan_name),
      paid: Boolean(r.paid),
      allocation: r.allocation === null ? null : Number(r.allocation),
      unit_price: Number(r.unit_price),
    },
  };
}

/** One statement: the best cover of `userId` for `product`, and what they used this month. */
export async function coverageOf(
  db: Db,
  companyId: number,
  userId: number,
  product: PlanProduct,
): Promise<CoverageAndUsage> {
  const res = await db.execute<Row>(coverageSql(companyId, userId, product));
  return coverageFromRow(res.rows[0]);
}
