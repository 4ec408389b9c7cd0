/**
 * The account's billing (routes.md `account`), Max Plus (`max-plus`), the store (`store`) and admin order
 * management (/v1/admin/order_management). Money is integer cents; cards travel as brand and last four only.
 */
import { z } from 'zod';
import { ACCOUNT_PLAN_IDS, CHARGE_STATUSES, ORDER_ADMIN_STATUSES, STORE_MAX_QUANTITY } from '../billing.js';
import { MAX_PLUS_PAYMENT_TYPES, MAX_PLUS_PLANS } from '../max-plus.js';
import { PageMeta } from './paging.js';

const Id = z.number().int().positive();

export const AccountPlan = z.object({
  id: z.enum(ACCOUNT_PLAN_IDS),
  name: z.string(),
  price: z.number(),
  interval: z.literal('month'),
  features: z.array(z.string()),
});
export type AccountPlan = z.infer<typeof AccountPlan>;
export const AccountPlanList = z.object({ data: z.array(AccountPlan) });

/** A card as Harbor keeps it: brand, last four and expiry; never the number. */
export const PaymentInfo = z.object({
  brand: z.string(),
  last4: z.string(),
  exp_month: z.number(),
  exp_year: z.number(),
});
export type PaymentInfo = z.infer<typeof PaymentInfo>;

export const AccountSubscription = z.object({
  id: z.number(),
  plan: z.enum(ACCOUNT_PLAN_IDS),
  plan_name: z.string(),
  price: z.number(),
  /** pending (waiting for the card) | active | failed | cancelled (ends at the period's end) | ended */
  status: z.string(),
  current_period_end: z.string().nullable(),
  cancelled_at: z.string().nullable(),
  failure_message: z.string().nullable(),
});
export type AccountSubscription = z.infer<typeof AccountSubscription>;

/** GET /v1/accounts/info: the spec's account state (info, plans, payment_infos, chosen_plan). */
export const AccountInfo = z.object({
  info: z.object({ paid: z.boolean(), company: z.string(), subscription: AccountSubscription.nullable() }),
  plans: z.array(AccountPlan),
  payment_infos: z.array(PaymentInfo),
  chosen_plan: z.enum(ACCOUNT_PLAN_IDS).nullable(),
});
export type AccountInfo = z.infer<typeof AccountInfo>;

/**
 * POST /v1/accounts/connect_card: the card form's fields (handed to the loopback processor in memory and forgotten)
 * or a processor card id (Stripe.js in production). Expiry month 01-12.
 */
export const ConnectCardBody = z.union([
  z.strictObject({
    number: z.string().trim().min(12).max(23),
    exp_month: z.number().int().min(1, 'must be 01-12').max(12, 'must be 01-12'),
    exp_year: z.number().int().min(2000).max(2100),
    cvc: z.string().regex(/^\d{3,4}$/, 'must be 3 or 4 digits'),
  }),
  z.strictObject({ payment_method_id: z.string().min(3).max(255) }),
]);
export type ConnectCardBody = z.infer<typeof ConnectCardBody>;

export const UpdatePlanBody = z.strictObject({ plan: z.enum(ACCOUNT_PLAN_IDS) });

export const BillingCharge = z.object({
  id: z.number(),
  kind: z.string(),
  description: z.string(),
  amount: z.number(),
  refunded_amount: z.number(),
  status: z.enum(CHARGE_STATUSES),
  card_brand: z.string().nullable(),
  card_last4: z.string().nullable(),
  failure_message: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
});
export type BillingCharge = z.infer<typeof BillingCharge>;
export const BillingHistory = z.object({ data: z.array(BillingCharge), meta: PageMeta });
export type BillingHistory = z.infer<typeof BillingHistory>;
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

// ---- Max Plus -------------------------------------------------------------------------------------------------

export const MaxPlusSubscribeBody = z.strictObject({
  payment_type: z.enum(MAX_PLUS_PAYMENT_TYPES),
  plan: z.enum(MAX_PLUS_PLANS),
});
export const MaxPlusBulkBody = z.strictObject({
  user_ids: z.array(Id).min(1, 'choose at least one person').max(100),
  plan: z.enum(MAX_PLUS_PLANS),
});
export const MaxPlusForUserBody = z.strictObject({ user_id: Id });

export const MaxPlusSubscription = z.object({
  id: z.number(),
  user_id: z.number(),
  plan: z.enum(MAX_PLUS_PLANS),
  /** pending (card being charged) | active | failed | cancelled */
  status: z.string(),
  paid_by: z.string().nullable(),
  current_period_end: z.string().nullable(),
  failure_message: z.string().nullable(),
});
export type MaxPlusSubscription = z.infer<typeof MaxPlusSubscription>;
export const MaxPlusWrite = z.object({ data: z.array(MaxPlusSubscription), charge: BillingCharge.nullable() });
export type MaxPlusWrite = z.infer<typeof MaxPlusWrite>;

export const ManageableUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  role: z.string(),
  max_plus_subscription: z.object({ active: z.boolean(), plan: z.string().nullable(), status: z.string().nullable() }),
});
export type ManageableUser = z.infer<typeof ManageableUser>;
export const ManageableUsers = z.object({ data: z.array(ManageableUser) });

// ---- Store and orders -----------------------------------------------------------------------------------------

export const StoreItem = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  price: z.number(),
  /** per_order | per_contact: a mailer is priced per contact of the chosen scope. */
  pricing: z.enum(['per_order', 'per_contact']),
  months_count: z.number().nullable(),
  active: z.boolean(),
});
export type StoreItem = z.infer<typeof StoreItem>;
export const StoreItemList = z.object({ data: z.array(StoreItem) });

export const StoreOrderBody = z.strictObject({
  store_item_id: Id,
  quantity: z.number().int().min(1).max(STORE_MAX_QUANTITY).default(1),
  notes: z.string().trim().max(1000).optional(),
  payment_type: z.enum(MAX_PLUS_PAYMENT_TYPES).default('credit_card'),
  /** The stored contacts search (the list's filters); required for per-contact items. */
  contacts_scope: z.record(z.string(), z.unknown()).optional(),
});

export const StoreOrder = z.object({
  id: z.number(),
  number: z.string(),
  item: z.object({ id: z.number(), name: z.string() }),
  agent: z.object({ id: z.number(), name: z.string(), email: z.string() }),
  quantity: z.number(),
  contacts_count: z.number().nullable(),
  amount: z.number(),
  refunded_amount: z.number(),
  payment_status: z.enum(CHARGE_STATUSES),
  admin_status: z.enum(ORDER_ADMIN_STATUSES),
  card_brand: z.string().nullable(),
  card_last4: z.string().nullable(),
  notes: z.string().nullable(),
  failure_message: z.string().nullable(),
  created_at: z.string(),
});
export type StoreOrder = z.infer<typeof StoreOrder>;
export const StoreOrderList = z.object({ data: z.array(StoreOrder), meta: PageMeta });
export type StoreOrderList = z.infer<typeof StoreOrderList>;

export const AgentInfo = z.object({
  name: z.string(),
  email: z.string(),
  company: z.string(),
  payment_info: PaymentInfo.nullable(),
  orders_count: z.number(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

export const OrderFilters = z.object({
  q: z.string().trim().max(100).optional(),
  admin_status: z.enum(ORDER_ADMIN_STATUSES).optional(),
  payment_status: z.enum(CHARGE_STATUSES).optional(),
  from: z.iso.date().optional(),
  to: z.iso.date().optional(),
});
export const StoreOrderListQuery = OrderFilters.extend(PageQuery.shape);
export type StoreOrderListQuery = Partial<z.infer<typeof StoreOrderListQuery>>;
export const OrderAdminBody = z.strictObject({ admin_status: z.enum(ORDER_ADMIN_STATUSES) });
export const OrderRefundBody = z.strictObject({ amount: z.number().int('must be whole cents').positive() });
