/**
 * The plan areas of /v1 for both products (routes.md `sms`, `sms-admin`, `dialer`, `dialer-admin`: plans,
 * subscriptions, licences, orders, usage). Money fields carry integer cents, like the wallet's. Bodies are strict:
 * a field the route does not name is refused (422), so a buyer cannot send a price or a status.
 */
import { z } from 'zod';
import {
  CANCEL_TYPES,
  ORDER_KINDS,
  ORDER_STATUSES,
  ORDER_TYPES,
  PAYMENT_METHODS,
  PLAN_LIMITS,
  PLAN_PRODUCTS,
  PLAN_TIERS,
  SUBSCRIPTION_KINDS,
  SUBSCRIPTION_STATUSES,
} from '../usage-plans.js';
import { PageMeta } from './paging.js';
import { pagedCrudSchemas } from './params.js';

const Id = z.number().int().positive();
const Count = (max: number) => z.number().int('must be a whole number').min(0, 'must be 0 or more').max(max);
const Person = z.object({ id: z.number(), name: z.string() });
const boolQuery = z
  .enum(['true', 'false', '1', '0'])
  .transform((v) => v === 'true' || v === '1')
  .optional();

// ---- plans -------------------------------------------------------------------------------------------------------

export const Plan = z.object({
  id: z.number(),
  product: z.enum(PLAN_PRODUCTS),
  name: z.string(),
  description: z.string(),
  tier: z.enum(PLAN_TIERS),
  /** Sold to a group (a company subscription or a manager's team), never to one person for themselves. */
  enterprise: z.boolean(),
  /** Cents a seat a month. */
  price: z.number(),
  /** Messages or minutes a seat brings each month: what managers allocate from. */
  units: z.number(),
  /** Cents a message segment or call minute, charged from the wallet as it is used. */
  unit_price: z.number(),
  min_seats: z.number(),
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Plan = z.infer<typeof Plan>;

/** §3 "SMS and dialer plan lists: q, order, page, limit, all": order sorts by price; all=true answers every row. */
export const PlanListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  order: z.enum(['asc', 'desc']).default('asc'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  all: boolQuery,
});
export type PlanListQuery = z.infer<typeof PlanListQuery>;
export type PlanListQueryInput = z.input<typeof PlanListQuery>;

export const PlanList = z.object({ data: z.array(Plan), meta: PageMeta });
export type PlanList = z.infer<typeof PlanList>;

/**
 * Admin create (PATCH takes any part of it). No zod defaults here: a partial body would fill them in and a PATCH of
 * the name would reset the rest; the table's defaults (no description, personal, one seat, active) apply instead.
 */
export const PlanBody = z.strictObject({
  name: z.string().trim().min(1, "can't be blank").max(PLAN_LIMITS.nameMax),
  description: z.string().trim().max(PLAN_LIMITS.descriptionMax).optional(),
  tier: z.enum(PLAN_TIERS),
  enterprise: z.boolean().optional(),
  price: Count(PLAN_LIMITS.priceMax),
  units: Count(PLAN_LIMITS.unitsMax),
  unit_price: z.number().int('must be a whole number').min(1, 'must be at least 1 cent').max(PLAN_LIMITS.unitPriceMax),
  min_seats: z.number().int().min(1, 'must be at least 1').max(PLAN_LIMITS.seatsMax).optional(),
  active: z.boolean().optional(),
});
export type PlanBody = z.infer<typeof PlanBody>;
export type PlanBodyInput = z.input<typeof PlanBody>;

// ---- subscriptions -----------------------------------------------------------------------------------------------

export const PlanRef = z.object({
  id: z.number(),
  name: z.string(),
  tier: z.enum(PLAN_TIERS),
  enterprise: z.boolean(),
});

export const Subscription = z.object({
  id: z.number(),
  product: z.enum(PLAN_PRODUCTS),
  kind: z.enum(SUBSCRIPTION_KINDS),
  order_type: z.enum(ORDER_TYPES),
  status: z.enum(SUBSCRIPTION_STATUSES),
  /** §3 field: the subscription is active now. */
  active: z.boolean(),
  plan: PlanRef,
  /** Who bought it (for a company subscription, the admin who did). */
  owner: Person,
  seats: z.number(),
  /** Licences handed to someone (company and manager subscriptions). */
  assigned: z.number(),
  /** Cents a seat a month, as bought (a later change of the plan's price applies to new subscriptions). */
  price: z.number(),
  /** Cents a month for every seat. */
  amount: z.number(),
  units: z.number(),
  unit_price: z.number(),
  /** Messages or minutes the seats bring each month, and how many of them are allocated. */
  pool: z.number(),
  allocated: z.number(),
  /** §3 field: messages or minutes used this month by the people it covers. */
  current_usage: z.number(),
  auto_renew: z.boolean(),
  payment_method: z.enum(PAYMENT_METHODS),
  current_period_start: z.string().nullable(),
  current_period_end: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  created_at: z.string(),
  /** What the caller may do with it. */
  can_manage: z.boolean(),
});
export type Subscription = z.infer<typeof Subscription>;

/** §3 "SMS and dialer subscriptions: q, order, order_field, page, limit, active, mine". */
export const SUBSCRIPTION_ORDER_FIELDS = [
  'created_at',
  'status',
  'plan',
  'owner',
  'amount',
  'current_period_end',
] as const;
export const SubscriptionListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  order: z.enum(['asc', 'desc']).default('desc'),
  order_field: z.enum(SUBSCRIPTION_ORDER_FIELDS).default('created_at'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
  active: boolQuery,
  mine: boolQuery,
});
export type SubscriptionListQuery = z.infer<typeof SubscriptionListQuery>;
export type SubscriptionListQueryInput = z.input<typeof SubscriptionListQuery>;

/** The admin list adds filters by status and kind. */
export const AdminSubscriptionListQuery = SubscriptionListQuery.extend({
  status: z.enum(SUBSCRIPTION_STATUSES).optional(),
  kind: z.enum(SUBSCRIPTION_KINDS).optional(),
});
export type AdminSubscriptionListQuery = z.infer<typeof AdminSubscriptionListQuery>;
export type AdminSubscriptionListQueryInput = z.input<typeof AdminSubscriptionListQuery>;

export const SubscriptionList = z.object({ data: z.array(Subscription), meta: PageMeta });
export type SubscriptionList = z.infer<typeof SubscriptionList>;

/** POST *_subscriptions. `payment_method_id`: a card from the card form (payment_method card). */
export const SubscriptionCreateBody = z.strictObject({
  plan_id: Id,
  kind: z.enum(SUBSCRIPTION_KINDS).default('self'),
  seats: z.number().int().min(1, 'must be at least 1').max(PLAN_LIMITS.seatsMax).default(1),
  payment_method: z.enum(['wallet', 'company_wallet', 'card']),
  payment_method_id: z.string().min(1).max(255).optional(),
  auto_renew: z.boolean().default(true),
});
export type SubscriptionCreateBody = z.infer<typeof SubscriptionCreateBody>;
export type SubscriptionCreateBodyInput = z.input<typeof SubscriptionCreateBody>;

/** PATCH *_subscriptions/{id}: renewal on or off (turning it back on undoes a cancel at the period's end). */
export const SubscriptionUpdateBody = z.strictObject({ auto_renew: z.boolean() });
export type SubscriptionUpdateBody = z.infer<typeof SubscriptionUpdateBody>;

export const CancelBody = z.strictObject({ type: z.enum(CANCEL_TYPES).default('period_end') });
export type CancelBody = z.infer<typeof CancelBody>;
export type CancelBodyInput = z.input<typeof CancelBody>;

/** GET .../pending_company_subscription and *_subscriptions_active: `data` is empty when there is none (§5). */
export const MaybeSubscription = z.object({ data: z.union([Subscription, z.object({})]) });
export type MaybeSubscription = z.infer<typeof MaybeSubscription>;

export const ActiveQuery = z.object({ type: z.enum(['company', 'personal']).default('personal') });
export type ActiveQuery = z.infer<typeof ActiveQuery>;

// ---- licences ----------------------------------------------------------------------------------------------------

export const Licence = z.object({
  id: z.number(),
  product: z.enum(PLAN_PRODUCTS),
  subscription_id: z.number(),
  subscription_kind: z.enum(SUBSCRIPTION_KINDS),
  subscription_status: z.enum(SUBSCRIPTION_STATUSES),
  plan_name: z.string(),
  /** Who holds it; null while it waits to be handed out. */
  user: Person.nullable(),
  /** §3: messages or minutes a month its holder may use. */
  allocation: z.number(),
  used: z.number(),
  /** §3: its order is paid. An unpaid licence covers nobody (§5). */
  paid: z.boolean(),
  created_at: z.string(),
  can_manage: z.boolean(),
});
export type Licence = z.infer<typeof Licence>;

export const LicenceListQuery = z.object({
  subscription_id: z.coerce.number().int().positive().optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
});
export type LicenceListQuery = z.infer<typeof LicenceListQuery>;
export type LicenceListQueryInput = z.input<typeof LicenceListQuery>;

/** Also names the pool the caller allocates from (one subscription's, when the list is of one). */
export const LicenceList = z.object({
  data: z.array(Licence),
  meta: PageMeta,
  pool: z.object({ size: z.number(), allocated: z.number() }).nullable(),
});
export type LicenceList = z.infer<typeof LicenceList>;

/** PATCH *_licenses/{id}: hand it to someone (null takes it back) and/or set their monthly allocation. */
export const LicenceUpdateBody = z
  .strictObject({
    user_id: Id.nullable().optional(),
    allocation: Count(PLAN_LIMITS.unitsMax).optional(),
  })
  .refine((b) => b.user_id !== undefined || b.allocation !== undefined, {
    message: 'name a person (user_id) or an allocation',
    path: ['base'],
  });
export type LicenceUpdateBody = z.infer<typeof LicenceUpdateBody>;

/** POST *_licenses_order: more seats on a company or manager subscription. */
export const LicenceOrderBody = z.strictObject({
  subscription_id: Id,
  quantity: z.number().int().min(1, 'must be at least 1').max(PLAN_LIMITS.quantityMax),
  payment_method: z.enum(['wallet', 'company_wallet', 'card']),
  payment_method_id: z.string().min(1).max(255).optional(),
});
export type LicenceOrderBody = z.infer<typeof LicenceOrderBody>;

// ---- orders ------------------------------------------------------------------------------------------------------

export const Order = z.object({
  id: z.number(),
  product: z.enum(PLAN_PRODUCTS),
  order_type: z.enum(ORDER_TYPES),
  kind: z.enum(ORDER_KINDS),
  status: z.enum(ORDER_STATUSES),
  subscription_id: z.number(),
  plan_name: z.string(),
  quantity: z.number(),
  /** Cents: what it cost (a part of a month is charged for its share of the month). */
  amount: z.number(),
  refunded_amount: z.number(),
  payment_method: z.enum(PAYMENT_METHODS),
  card_brand: z.string().nullable(),
  card_last4: z.string().nullable(),
  failure_message: z.string().nullable(),
  placed_by: Person,
  created_at: z.string(),
  paid_at: z.string().nullable(),
  cancelled_at: z.string().nullable(),
});
export type Order = z.infer<typeof Order>;

export const OrderListQuery = z.object({
  q: z.string().trim().max(100).optional(),
  status: z.enum(ORDER_STATUSES).optional(),
  subscription_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type OrderListQuery = z.infer<typeof OrderListQuery>;
export type OrderListQueryInput = z.input<typeof OrderListQuery>;

export const OrderList = z.object({ data: z.array(Order), meta: PageMeta });
export type OrderList = z.infer<typeof OrderList>;

/** A subscription answer after a write that may have charged: the order it made, if any. */
export const SubscriptionWrite = z.object({ data: Subscription, order: Order.nullable() });
export type SubscriptionWrite = z.infer<typeof SubscriptionWrite>;

// ---- usage -------------------------------------------------------------------------------------------------------

/** What covers a person for a product, as the quota checks see it. */
export const Coverage = z.object({
  kind: z.enum(SUBSCRIPTION_KINDS),
  subscription_id: z.number(),
  licence_id: z.number().nullable(),
  plan_name: z.string(),
  paid: z.boolean(),
  /** Null: no monthly cap from the plan (a self-paid subscription; the wallet pays each unit). */
  allocation: z.number().nullable(),
  unit_price: z.number(),
});
export type Coverage = z.infer<typeof Coverage>;

export const Month = z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'must be a month as YYYY-MM');

export const UsageSummary = z.object({
  product: z.enum(PLAN_PRODUCTS),
  month: z.string(),
  used: z.number(),
  allocation: z.number().nullable(),
  remaining: z.number().nullable(),
  coverage: Coverage.nullable(),
  /** The dialer only: whether calls may be placed, and why not (§4). */
  enablement: z.object({ enabled: z.boolean(), reasons: z.array(z.string()) }).nullable(),
  /** Managers: the people holding licences of the subscriptions they manage, with their month. */
  team: z.array(z.object({ user: Person, used: z.number(), allocation: z.number(), licence_id: z.number() })),
});
export type UsageSummary = z.infer<typeof UsageSummary>;

export const AdminUsageQuery = z.object({
  month: Month.optional(),
  q: z.string().trim().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type AdminUsageQuery = z.infer<typeof AdminUsageQuery>;
export type AdminUsageQueryInput = z.input<typeof AdminUsageQuery>;

export const AdminUsageRow = z.object({
  user: Person.extend({ email: z.string() }),
  used: z.number(),
  allocation: z.number().nullable(),
  coverage_kind: z.enum(SUBSCRIPTION_KINDS).nullable(),
  plan_name: z.string().nullable(),
});
export const AdminUsage = z.object({
  month: z.string(),
  data: z.array(AdminUsageRow),
  meta: PageMeta,
  totals: z.object({ used: z.number(), people: z.number() }),
});
export type AdminUsage = z.infer<typeof AdminUsage>;

// ---- admin writes ------------------------------------------------------------------------------------------------

/**
 * POST /v1/admin/<product>/subscriptions: prepared pending, for a person (self or manager kind) or the company,
 * paid from the company wallet or by invoice when an admin activates it.
 */
export const AdminSubscriptionBody = z.strictObject({
  plan_id: Id,
  kind: z.enum(SUBSCRIPTION_KINDS),
  user_id: Id.optional(),
  seats: z.number().int().min(1, 'must be at least 1').max(PLAN_LIMITS.seatsMax).default(1),
  payment_method: z.enum(['company_wallet', 'invoice']),
});
export type AdminSubscriptionBody = z.infer<typeof AdminSubscriptionBody>;
export type AdminSubscriptionBodyInput = z.input<typeof AdminSubscriptionBody>;

export const AdminSubscriptionRef = z.strictObject({ id: Id });
export const AdminCancelBody = z.strictObject({ id: Id, type: z.enum(CANCEL_TYPES).default('immediate') });
export type AdminCancelBody = z.infer<typeof AdminCancelBody>;
export type AdminCancelBodyInput = z.input<typeof AdminCancelBody>;

/** POST /v1/admin/<product>/orders: more seats on a subscription, paid from the company wallet or by invoice. */
export const AdminOrderBody = z.strictObject({
  subscription_id: Id,
  quantity: z.number().int().min(1, 'must be at least 1').max(PLAN_LIMITS.quantityMax),
  payment_method: z.enum(['company_wallet', 'invoice']),
});
export type AdminOrderBody = z.infer<typeof AdminOrderBody>;

export const AdminOrderRef = z.strictObject({ id: Id });
export const OrderWrite = z.object({ data: Order });
export type OrderWrite = z.infer<typeof OrderWrite>;

/** A cancellation's answer: the subscription, and what went back to the wallet (cents; 0 at the period's end). */
export const CancelReply = z.object({ data: Subscription, credited: z.number() });
export type CancelReply = z.infer<typeof CancelReply>;

export const PlanCrud = pagedCrudSchemas(Plan, PlanBody);
