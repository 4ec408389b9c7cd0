/**
 * Licences: the seats of a company or manager subscription. Its buyer (or an admin) hands each to someone they reach
 * and sets how many messages or minutes a month it allows; the allocations of a subscription never exceed its pool
 * (units x seats). Every change is recorded with its old and new values (plan_licence_changes).
 */
import {
  type LicenceList,
  type LicenceListQuery,
  type LicenceUpdateBody,
  PLAN_PRODUCT_LABELS,
  type PlanProduct,
  unitsLabel,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { reachesUser, reachesUserSql, reachOf } from '../../platform/reach.js';
import { licenceSelect, presentLicence, type Raw } from './presenters.js';
import { assertManageable } from './subscriptions.js';

const rows = async (db: Db, q: SQL) => (await db.execute<Raw>(q)).rows;

/** Licences the caller may see: their own, and those of subscriptions bought by people they reach (admins: all). */
function visibleSql(auth: AuthContext): SQL {
  if (reachOf(auth) === 'company') return sql`true`;
  return sql`(l.user_id = ${auth.user.id} or ${reachesUserSql(auth, sql`s.owner_id`)})`;
}

export async function listLicences(
  db: Db,
  auth: AuthContext,
  product: PlanProduct,
  q: LicenceListQuery,
): Promise<LicenceList> {
  const text = q.q ? `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = sql`l.company_id = ${auth.company.id} and l.product = ${product} and l.removed_at is null
    and s.status in ('pending', 'active') and ${visibleSql(auth)}
    ${q.subscription_id ? sql`and l.subscription_id = ${q.subscription_id}` : sql``}
    ${text ? sql`and ((u.first_name || ' ' || u.last_name) ilike ${text} or u.email ilike ${text})` : sql``}`;
  const [count] = await rows(
    db,
    sql`select count(*)::int as n from plan_licences l join plan_subscriptions s on s.id = l.subscription_id
        left join users u on u.id = l.user_id where ${where}`,
  );
  const found = await rows(
    db,
    sql`${licenceSelect} where ${where}
        order by l.subscription_id desc, (l.user_id is null), lower(u.last_name), lower(u.first_name), l.id
        limit ${q.limit} offset ${pageOffset(q.page, q.limit)}`,
  );
  // The pool is the buyer's (or an admin's) business: a holder sees their own licence, not the team's figures.
  let pool: LicenceList['pool'] = null;
  if (q.subscription_id) {
    const [p] = await rows(
      db,
      sql`select s.units * s.seats as size,
            (select coalesce(sum(allocation), 0) from plan_licences where subscription_id = s.id and removed_at is null) as allocated
          from plan_subscriptions s where s.id = ${q.subscription_id} and s.company_id = ${auth.company.id}
            and ${reachOf(auth) === 'company' ? sql`true` : sql`s.owner_id = ${auth.user.id}`}`,
    );
    if (p) pool = { size: Number(p.size), allocated: Number(p.allocated) };
  }
  return {
    data: found.map((r) => presentLicence(r, auth)),
    meta: pageMeta(q.page, q.limit, Number(count?.n ?? 0)),
    pool,
  };
}

export async function loadLicence(db: Db, auth: AuthContext, product: PlanProduct, id: number) {
  const [r] = await rows(
    db,
    sql`${licenceSelect} where l.id = ${id} and l.company_id = ${auth.company.id} and l.product = ${product}
        and l.removed_at is null and ${visibleSql(auth)}`,
  );
  if (!r) throw notFound('licence');
  return r;
}

const nameSql = sql`coalesce(nullif(trim(u.first_name || ' ' || u.last_name), ''), u.email)`;

/** PATCH: hand the licence to someone (null takes it back) and/or set its monthly allocation. */
export async function updateLicence(db: Db, auth: AuthContext, licence: Raw, body: LicenceUpdateBody) {
  assertManageable(auth, licence);
  const product = licence.product as PlanProduct;
  const label = PLAN_PRODUCT_LABELS[product].toLowerCase();
  if (licence.subscription_status !== 'active' && licence.subscription_status !== 'pending') {
    throw invalid('id', 'belongs to a subscription that has ended');
  }
  const id = Number(licence.id);
  const subId = Number(licence.subscription_id);
  if (body.user_id != null && body.user_id !== licence.user_id) {
    if (!(await reachesUser(db, auth, body.user_id))) throw invalid('user_id', 'is not someone you manage');
  }
  await db.transaction(async (tx) => {
    // The subscription's row orders every change to its licences: two managers' saves never overshoot the pool.
    const [sub] = await rows(tx, sql`select * from plan_subscriptions where id = ${subId} for update`);
    const [current] = await rows(tx, sql`select * from plan_licences where id = ${id} and removed_at is null`);
    if (!current) throw notFound('licence');
    const toUser = body.user_id === undefined ? (current.user_id as number | null) : body.user_id;
    const toAllocation = body.allocation ?? Number(current.allocation);
    if (toUser !== null && toUser !== current.user_id) {
      const [held] = await rows(
        tx,
        sql`select ${nameSql} as holder, p.name as plan_name,
              coalesce(nullif(trim(o.first_name || ' ' || o.last_name), ''), o.email) as owner
            from plan_licences l join plan_subscriptions s on s.id = l.subscription_id
            join usage_plans p on p.id = s.plan_id join users u on u.id = l.user_id join users o on o.id = s.owner_id
            where l.user_id = ${toUser} and l.product = ${product} and l.removed_at is null and l.id <> ${id}
              and s.status in ('pending', 'active')
            limit 1`,
      );
      if (held) {
        throw invalid(
          'user_id',
          `${held.holder} already holds a ${label} licence (${held.owner}'s ${held.plan_name}); take it back there first.`,
        );
      }
    }
    if (toAllocation !== Number(current.allocation)) {
      const [others] = await rows(
        tx,
        sql`select coalesce(sum(allocation), 0) as n from plan_licences
            where subscription_id = ${subId} and removed_at is null and id <> ${id}`,
      );
      const pool = Number(sub.units) * Number(sub.seats);
      const left = pool - Number(others.n);
      if (toAllocation > Number(current.allocation) && toAllocation > left) {
        throw invalid(
          'allocation',
          `Only ${unitsLabel(product, Math.max(0, left))} are left to allocate of this subscription's ${unitsLabel(product, pool)} (${sub.seats} seats x ${unitsLabel(product, Number(sub.units))}).`,
        );
      }
    }
    if (toUser === current.user_id && toAllocation === Number(current.allocation)) return;
    await tx.execute(
      sql`update plan_licences set user_id = ${toUser}, allocation = ${toAllocation}, updated_at = now() where id = ${id}`,
    );
    await tx.execute(
      sql`insert into plan_licence_changes (company_id, licence_id, actor_id, from_user_id, to_user_id, from_allocation,
            to_allocation)
          values (${auth.company.id}, ${id}, ${auth.user.id}, ${current.user_id as number | null}, ${toUser},
            ${Number(current.allocation)}, ${toAllocation})`,
    );
  });
}
