/**
 * The only shapes of plans, subscriptions, licences and orders that leave the server, and the SELECTs they read
 * (one statement per list: names, seat counts and the month's usage come with the rows).
 */
import type { Licence, Order, Plan, PlanProduct, Subscription } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import { reachOf } from '../../platform/reach.js';
import { monthOf } from './coverage.js';

export type Raw = Record<string, unknown>;

const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
const num = (v: unknown) => Number(v ?? 0);
const nameOf = (first: unknown, last: unknown, email: unknown) =>
  `${String(first ?? '')} ${String(last ?? '')}`.trim() || String(email ?? '');

export function presentPlan(r: Raw): Plan {
  return {
    id: num(r.id),
    product: (r.product as PlanProduct) ?? 'sms',
    name: String(r.name),
    description: String(r.description ?? ''),
    tier: r.tier as Plan['tier'],
    enterprise: Boolean(r.enterprise),
    price: num(r.price),
    units: num(r.units),
    unit_price: num(r.unit_price ?? r.unitPrice),
    min_seats: num(r.min_seats ?? r.minSeats),
    active: Boolean(r.active),
    created_at: iso(r.created_at ?? r.createdAt)!,
    updated_at: iso(r.updated_at ?? r.updatedAt)!,
  };
}

/** Admins manage every subscription of the company; anyone else the ones they bought. */
export const canManage = (auth: AuthContext, ownerId: number) =>
  reachOf(auth) === 'company' || ownerId === auth.user.id;

/**
 * Subscriptions with their plan, owner, seat figures and the month's usage of the people they cover (the owner of
 * a self subscription; the holders of a group subscription's live licences).
 */
export const subscriptionSelect = sql`
  select s.*, p.name as plan_name, p.tier as plan_tier, p.enterprise as plan_enterprise,
    o.first_name as owner_first, o.last_name as owner_last, o.email as owner_email,
    (select count(*) from plan_licences l where l.subscription_id = s.id and l.removed_at is null
       and l.user_id is not null) as assigned,
    (select coalesce(sum(l.allocation), 0) from plan_licences l where l.subscription_id = s.id
       and l.removed_at is null) as allocated,
    (select coalesce(sum(t.quantity), 0) from usage_totals t
       where t.product = s.product and t.month = ${monthOf()}
         and t.user_id in (select l.user_id from plan_licences l where l.subscription_id = s.id
                             and l.removed_at is null and l.user_id is not null
                           union select s.owner_id where s.kind = 'self')) as current_usage,
    (select po.order_type from plan_orders po where po.subscription_id = s.id order by po.id limit 1) as order_type
  from plan_subscriptions s
  join usage_plans p on p.id = s.plan_id
  join users o on o.id = s.owner_id`;

export function presentSubscription(r: Raw, auth: AuthContext): Subscription {
  const status = r.status as Subscription['status'];
  const end = r.current_period_end ? new Date(r.current_period_end as string) : null;
  const kind = r.kind as Subscription['kind'];
  return {
    id: num(r.id),
    product: r.product as PlanProduct,
    kind,
    order_type: (r.order_type as Subscription['order_type']) ?? (kind === 'self' ? 'SelfPay' : 'ManagerPay'),
    status,
    active: status === 'active' && end !== null && end.getTime() > Date.now(),
    plan: {
      id: num(r.plan_id),
      name: String(r.plan_name),
      tier: r.plan_tier as Subscription['plan']['tier'],
      enterprise: Boolean(r.plan_enterprise),
    },
    owner: { id: num(r.owner_id), name: nameOf(r.owner_first, r.owner_last, r.owner_email) },
    seats: num(r.seats),
    assigned: num(r.assigned),
    price: num(r.price),
    amount: num(r.price) * num(r.seats),
    units: num(r.units),
    unit_price: num(r.unit_price),
    pool: num(r.units) * num(r.seats),
    allocated: num(r.allocated),
    current_usage: num(r.current_usage),
    auto_renew: Boolean(r.auto_renew),
    payment_method: r.payment_method as Subscription['payment_method'],
    current_period_start: iso(r.current_period_start),
    current_period_end: iso(r.current_period_end),
    cancelled_at: iso(r.cancelled_at),
    created_at: iso(r.created_at)!,
    can_manage: canManage(auth, num(r.owner_id)),
  };
}

export const licenceSelect = sql`
  select l.*, s.kind as subscription_kind, s.status as subscription_status, s.owner_id, p.name as plan_name,
    u.first_name, u.last_name, u.email,
    coalesce((select t.quantity from usage_totals t where t.user_id = l.user_id and t.product = l.product
       and t.month = ${monthOf()}), 0) as used
  from plan_licences l
  join plan_subscriptions s on s.id = l.subscription_id
  join usage_plans p on p.id = s.plan_id
  left join users u on u.id = l.user_id`;

export function presentLicence(r: Raw, auth: AuthContext): Licence {
  return {
    id: num(r.id),
    product: r.product as PlanProduct,
    subscription_id: num(r.subscription_id),
    subscription_kind: r.subscription_kind as Licence['subscription_kind'],
    subscription_status: r.subscription_status as Licence['subscription_status'],
    plan_name: String(r.plan_name),
    user: r.user_id === null ? null : { id: num(r.user_id), name: nameOf(r.first_name, r.last_name, r.email) },
    allocation: num(r.allocation),
    used: r.user_id === null ? 0 : num(r.used),
    paid: Boolean(r.paid),
    created_at: iso(r.created_at)!,
    can_manage: canManage(auth, num(r.owner_id)),
  };
}

export const orderSelect = sql`
  select po.*, p.name as plan_name, u.first_name, u.last_name, u.email
  from plan_orders po
  join plan_subscriptions s on s.id = po.subscription_id
  join usage_plans p on p.id = s.plan_id
  join users u on u.id = po.placed_by`;

export function presentOrder(r: Raw): Order {
  return {
    id: num(r.id),
    product: r.product as PlanProduct,
    order_type: r.order_type as Order['order_type'],
    kind: r.kind as Order['kind'],
    status: r.status as Order['status'],
    subscription_id: num(r.subscription_id),
    plan_name: String(r.plan_name),
    quantity: num(r.quantity),
    amount: num(r.amount),
    refunded_amount: num(r.refunded_amount),
    payment_method: r.payment_method as Order['payment_method'],
    card_brand: (r.card_brand as string | null) ?? null,
    card_last4: (r.card_last4 as string | null) ?? null,
    failure_message: (r.failure_message as string | null) ?? null,
    placed_by: { id: num(r.placed_by), name: nameOf(r.first_name, r.last_name, r.email) },
    created_at: iso(r.created_at)!,
    paid_at: iso(r.paid_at),
    cancelled_at: iso(r.cancelled_at),
  };
}

/** `order by` of a subscription list (whitelisted fields only). */
export function subscriptionOrder(field: string, dir: 'asc' | 'desc'): SQL {
  const d = sql.raw(dir === 'asc' ? 'asc' : 'desc');
  const col: Record<string, SQL> = {
    created_at: sql`s.created_at`,
    status: sql`s.status`,
    plan: sql`lower(p.name)`,
    owner: sql`lower(o.last_name || ' ' || o.first_name)`,
    amount: sql`(s.price * s.seats)`,
    current_period_end: sql`s.current_period_end`,
  };
  return sql`${col[field] ?? col.created_at} ${d} nulls last, s.id ${d}`;
}
