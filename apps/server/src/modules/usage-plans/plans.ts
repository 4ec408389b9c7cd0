/**
 * Plans: what people may buy (the active personal plans, and the enterprise ones sold to a team or the company)
 * and the admin's CRUD of them (platform/http/crud.ts). A plan is soft-deleted, and refused deletion while a live
 * subscription names it: switch it off instead.
 */
import {
  Plan,
  PlanBody,
  PlanCrud,
  type PlanList,
  type PlanListQuery,
  PlanListQuery as PlanListQuerySchema,
  type PlanProduct,
} from '@harbor/shared';
import { and, asc, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db/client.js';
import { crudRoutes, given } from '../../platform/http/crud.js';
import { invalid } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import type { TenantRegistry } from '../../platform/tenancy.js';
import { GATES } from './gates.js';
import { presentPlan } from './presenters.js';
import { usagePlans } from './schema.js';

const search = (q: string | undefined): SQL | undefined => {
  if (!q) return undefined;
  const text = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`(${usagePlans.name} ilike ${text} or ${usagePlans.description} ilike ${text})`;
};

const byPrice = (dir: unknown) =>
  dir === 'desc'
    ? [desc(usagePlans.price), asc(usagePlans.name), asc(usagePlans.id)]
    : [asc(usagePlans.price), asc(usagePlans.name), asc(usagePlans.id)];

/** GET .../<product>_plans (personal) and .../enterprise: active plans on sale, cheapest first by default. */
export async function plansOnSale(
  db: Db,
  companyId: number,
  product: PlanProduct,
  enterprise: boolean,
  q: PlanListQuery,
): Promise<PlanList> {
  const where = and(
    eq(usagePlans.companyId, companyId),
    eq(usagePlans.product, product),
    isNull(usagePlans.deletedAt),
    eq(usagePlans.active, true),
    eq(usagePlans.enterprise, enterprise),
    search(q.q),
  );
  const [{ n }] = await db.select({ n: sql<number>`count(*)::int` }).from(usagePlans).where(where);
  const sorted = db
    .select()
    .from(usagePlans)
    .where(where)
    .orderBy(...byPrice(q.order));
  if (q.all) {
    const found = await sorted;
    return { data: found.map(presentPlan), meta: pageMeta(1, Math.max(1, Number(n)), Number(n)) };
  }
  const found = await sorted.limit(q.limit).offset(pageOffset(q.page, q.limit));
  return { data: found.map(presentPlan), meta: pageMeta(q.page, q.limit, Number(n)) };
}

/** The admin's five plan routes of a product: /v1/admin/<product>/<product>_plans. */
export function registerPlanAdmin(scope: FastifyInstance, tenants: TenantRegistry, product: PlanProduct) {
  const live = and(eq(usagePlans.product, product), isNull(usagePlans.deletedAt));
  crudRoutes(scope, tenants, {
    base: `/v1/admin/${product}/${product}_plans`,
    resource: `${product}_plan`,
    access: 'plans.admin',
    feature: GATES[product].feature,
    tags: [`${product}-admin`],
    table: usagePlans,
    body: PlanBody,
    reply: Plan,
    schemas: PlanCrud,
    present: presentPlan,
    live,
    listQuery: {
      schema: PlanListQuerySchema,
      where: (q) => search(q.q as string | undefined),
      order: (q) => byPrice(q.order),
      all: (q) => q.all === true,
    },
    columns: (b) =>
      given({
        product,
        name: b.name,
        description: b.description,
        tier: b.tier,
        enterprise: b.enterprise,
        price: b.price,
        units: b.units,
        unitPrice: b.unit_price,
        minSeats: b.min_seats,
        active: b.active,
        updatedAt: new Date(),
      }),
    async check(db, companyId, body, id) {
      if (body.name === undefined) return;
      const [dup] = await db
        .select({ id: usagePlans.id })
        .from(usagePlans)
        .where(
          and(
            eq(usagePlans.companyId, companyId),
            live,
            sql`lower(${usagePlans.name}) = lower(${String(body.name)})`,
            id ? sql`${usagePlans.id} <> ${id}` : undefined,
          ),
        );
      if (dup) throw invalid('name', 'has already been taken');
    },
    async inUse(db, id) {
      const res = await db.execute<{ n: number }>(
        sql`select count(*)::int as n from plan_subscriptions where plan_id = ${id} and status in ('pending', 'active')`,
      );
      const n = Number(res.rows[0]?.n ?? 0);
      return n > 0
        ? `is used by ${n} live ${n === 1 ? 'subscription' : 'subscriptions'}; switch it off instead (nobody new can buy it)`
        : null;
    },
    async remove(tx, companyId, id) {
      await tx
        .update(usagePlans)
        .set({ deletedAt: new Date(), active: false, updatedAt: new Date() })
        .where(and(eq(usagePlans.id, id), eq(usagePlans.companyId, companyId)));
    },
    summaries: {
      list: `Plans of the ${product} product (q, order by price, page, limit, all)`,
      create: 'Create a plan',
      show: 'One plan',
      update: 'Update a plan (price changes apply to new subscriptions)',
      remove: 'Delete a plan (refused while a live subscription uses it)',
    },
  });
}
