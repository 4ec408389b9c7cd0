/**
 * Declarative permissions: each key is a predicate over the signed-in subject. Routes on the server declare one
 * key (or 'public' / 'authenticated'); the browser hides what `can` refuses. Later areas add their keys here, and
 * the permission matrix test picks them up with no new test code.
 */
import type { Features } from './features.js';
import type { MaxPlusState } from './max-plus.js';
import { adminLevelGroup, MANAGER_ROLES, type Role, type Variant } from './roles.js';

export interface Subject {
  roles: readonly Role[];
  basic: boolean;
  features: Features;
  variant: Variant;
  /** The user's Max Plus (the SMS feature gate reads it); absent counts as none. */
  maxPlus?: MaxPlusState | null;
}

const has = (s: Subject, ...roles: Role[]) => roles.some((r) => s.roles.includes(r));
const isSystemAdmin = (s: Subject) => has(s, 'admin') && !has(s, 'sub_admin');
const isAdmin = (s: Subject) => has(s, 'admin', 'sub_admin');
const isAdminLevel = (s: Subject) => adminLevelGroup(s.features.central_office).some((r) => s.roles.includes(r));
const isManagerish = (s: Subject) => isAdminLevel(s) || has(s, ...MANAGER_ROLES);

export const PERMISSIONS = {
  /** Own account: profile, password, two-factor, preferences. */
  'account.self': () => true,
  /** Development inbox of the local mail stand-in. */
  'dev.inbox': () => true,
  /** Company administration (System Admin and Admin). */
  'admin.manage': isAdmin,
  /** Feature flags of the company: System Admin only. */
  'admin.feature_flags': isSystemAdmin,
  /** The company's single sign-on provider (who may sign everyone in): System Admin only. */
  'admin.sso': isSystemAdmin,
  /** User administration: admins, BU admins (their unit) and managers (their downline). */
  'users.manage': (s) => isAdmin(s) || has(s, 'bu_admin') || isManagerish(s),
  /** Signup requests of the company (GET /v1/admin/signups). */
  'admin.signups': isAdmin,
  /** Seeing users below you (downline), any depth. */
  'team.view': isManagerish,
  'reports.view': (s) => !s.basic && s.features.reports,
  'follow_ups.use': (s) => !s.basic && s.features.follow_ups,
  'external_accounts.use': (s) => !s.basic,
  'marketing_profile.use': (s) => !s.basic,
  'contact_permissions.use': (s) => !s.basic,
  'contacts.use': () => true,
  /** Bulk transfer of contacts and the transfer attempts (list, logs, revert): admins, BU admins and managers. */
  'contacts.transfer': isManagerish,
  /** Admin screens for statuses, agent-flow statuses (and groups), sources and carriers. */
  'lookups.manage': isAdmin,
  /** The contact API vendor list: admin or manager (spec 000 §6). */
  'api_vendors.view': (s) => isAdmin(s) || has(s, ...MANAGER_ROLES),
  /** Create, rename and delete contact groups: admins and managers (groups are company-wide labels). */
  'groups.manage': (s) => isAdmin(s) || has(s, 'bu_admin') || has(s, ...MANAGER_ROLES),
  /** Pools grant visibility to their holders, so only admins create them and choose holders. */
  'pools.manage': isAdmin,
  'imports.use': (s) => !has(s, 'basic') || isManagerish(s),
  'imports.track': (s) => isAdmin(s) || has(s, ...MANAGER_ROLES),
  'mailer.use': (s) => isAdmin(s) || has(s, ...MANAGER_ROLES),
  'sms.use': (s) => !s.basic && s.features.sms_campaigns,
  'dialer.use': (s) => s.features.dialer,
  /** The plans page: texting plans or dialer plans (either product open to the person). */
  'plans.use': (s) => (!s.basic && s.features.sms_campaigns) || s.features.dialer,
  /** Hand texting and dialer licences to the people one reaches and set their monthly allocation (§6). */
  'plans.allocate': isManagerish,
  /** The texting and dialer back office: plans, every subscription and order of the company, usage. */
  'plans.admin': isAdmin,
  /** Max Plus for the people one reaches: list them, bulk-subscribe, cancel for one (spec 2 §6: managers). */
  'max_plus.manage': isManagerish,
  /** The admin order management (/v1/admin/order_management): every store order of the company, refunds. */
  'orders.manage': isAdmin,
  'wallet.use': (s) => s.features.wallet_feature,
  /** Move wallet funds to and from the people one reaches (allocate, reclaim): managers and admins. */
  'wallet.allocate': (s) => s.features.wallet_feature && isManagerish(s),
  'workflows.use': (s) => !s.basic && s.features.workflows,
  'medicare.use': (s) => s.features.medicare_center,
  'soa.use': (s) => s.features.soa_requests,
  'training.use': (s) => s.features.training_app,
  'chat.use': (s) => s.features.chat_popup,
} as const satisfies Record<string, (s: Subject) => boolean>;

export type Permission = keyof typeof PERMISSIONS;
export const PERMISSION_KEYS = Object.keys(PERMISSIONS) as Permission[];

export function can(subject: Subject | null | undefined, permission: Permission): boolean {
  if (!subject) return false;
  return PERMISSIONS[permission](subject);
}

export function permissionsOf(subject: Subject): Permission[] {
  return PERMISSION_KEYS.filter((p) => PERMISSIONS[p](subject));
}
