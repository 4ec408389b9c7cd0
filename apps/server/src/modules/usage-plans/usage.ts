/**
 * Usage as people see it: a person's month (used, allocation, what covers them, and for the dialer whether calls may
 * be placed and why not), a manager's team, and the admin's month of the whole company.
 */
import type { AdminUsage, AdminUsageQuery, PlanProduct, UsageSummary } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { reachOf } from '../../platform/reach.js';
import { coverageOf, liveSql, monthKey, monthOf } from './coverage.js';
import { dialerEnablement } from './enforcement.js';
import type { Raw } from './presenters.js';

const rows = async (db: Db, q: SQL) => (await db.execute<Raw>(q)).rows;
const nameOf = (r: Raw) => `${String(r.first_name ?? '')} ${String(r.last_name ?? '')}`.trim() || String(r.email ?? '');

export async function usageSummary(db: Db, auth: AuthContext, product: PlanProduct): Promise<UsageSummary> {
  const { coverage, used } = await coverageOf(db, auth.company.id, auth.user.id, product);
  const allocation = coverage?.allocation ?? null;
  let enablement: UsageSummary['enablement'] = null;
  if (product === 'dialer') {
    const e = await dialerEnablement(db, { companyId: auth.company.id, userId: auth.user.id });
    enablement = { enabled: e.enabled, reasons: e.messages };
  }
  // The people holding licences of live subscriptions the caller bought (an admin: the company's too).
  const company = reachOf(auth) === 'company' ? sql`or s.kind = 'company'` : sql``;
  const team = await rows(
    db,
    sql`select l.id as licence_id, l.allocation, u.id as user_id, u.first_name, u.last_name, u.email,
          coalesce(t.quantity, 0) as used
        from plan_licences l
        join plan_subscriptions s on s.id = l.subscription_id
        join users u on u.id = l.user_id
        left join usage_totals t on t.user_id = u.id and t.product = l.product and t.month = ${monthOf()}
        where l.company_id = ${auth.company.id} and l.product = ${product} and l.removed_at is null
          and ${liveSql('s')} and (s.owner_id = ${auth.user.id} ${company})
        order by lower(u.last_name), lower(u.first_name), u.id
        limit 500`,
  );
  return {
    product,
    month: monthKey(),
    used,
    allocation,
    remaining: allocation === null ? null : Math.max(0, allocation - used),
    coverage,
    enablement,
    team: team.map((r) => ({
      user: { id: Number(r.user_id), name: nameOf(r) },
      used: Number(r.used),
      allocation: Number(r.allocation),
      licence_id: Number(r.licence_id),
    })),
  };
}

/** GET /v1/admin/<product>/usage: every person of the company with the month's usage, most first. */
export async function adminUsage(
  db: Db,
  auth: AuthContext,
  product: PlanProduct,
  q: AdminUsageQuery,
): Promise<AdminUsage> {
  const month = q.month ?? monthKey();
  const first = sql`${`${month}-01`}::date`;
  const text = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`u.company_id = ${auth.company.id} and u.deleted_at is null
    ${text ? sql`and ((u.first_name || ' ' || u.last_name) ilike ${text} or u.email ilike ${text})` : sql``}`;
  const [count] = await rows(db, sql`select count(*)::int as n from users u where ${where}`);
  const found = await rows(
    db,
    sql`select u.id, u.first_name, u.last_name, u.email, coalesce(t.quantity, 0) as used,
          cov.kind, cov.plan_name, cov.allocation
        from users u
        left join usage_totals t on t.user_id = u.id and t.product = ${product} and t.month = ${first}
        left join lateral (
          select * from (
            select s.kind, p.name as plan_name, l.allocation, l.paid
            from plan_licences l join plan_subscriptions s on s.id = l.subscription_id
            join usage_plans p on p.id = s.plan_id
            where l.user_id = u.id and l.product = ${product} and l.removed_at is null and ${liveSql('s')}
            union all
            select s.kind, p.name, null, true
            from plan_subscriptions s join usage_plans p on p.id = s.plan_id
            where s.owner_id = u.id and s.product = ${product} and s.kind = 'self' and ${liveSql('s')}
          ) c order by c.paid desc, case c.kind when 'company' then 0 when 'manager' then 1 else 2 end limit 1
        ) cov on true
        where ${where}
        order by coalesce(t.quantity, 0) desc, lower(u.last_name), lower(u.first_name), u.id
        limit ${q.limit} offset ${pageOffset(q.page, q.limit)}`,
  );
  const [totals] = await rows(
    db,
    sql`select coalesce(sum(quantity), 0) as used, count(*) filter (where quantity > 0) as people from usage_totals
        where company_id = ${auth.company.id} and product = ${product} and month = ${first}`,
  );
  return {
    month,
    data: found.map((r) => ({
      user: { id: Number(r.id), name: nameOf(r), email: String(r.email) },
      used: Number(r.used),
      allocation: r.allocation === null || r.allocation === undefined ? null : Number(r.allocation),
      coverage_kind: (r.kind as AdminUsage['data'][number]['coverage_kind']) ?? null,
      plan_name: (r.plan_name as string | null) ?? null,
    })),
    meta: pageMeta(q.page, q.limit, Number(count?.n ?? 0)),
    totals: { used: Number(totals?.used ?? 0), people: Number(totals?.people ?? 0) },
  };
}
