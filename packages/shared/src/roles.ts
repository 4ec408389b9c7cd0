/**
 * Roles, labels and the assignable lists of spec section 6 (crm-core.md §6, crm-wallet-dialer-admin.md §6).
 * Both the server (authorization) and the browser (navigation, pickers) read these; nothing else defines a role.
 */
export const ROLES = [
  'admin',
  'sub_admin',
  'bu_admin',
  'manager',
  'regional_manager',
  'district_manager',
  'field_manager',
  'telemarketer',
  'agent',
  'basic',
  'pool_holder',
] as const;
export type Role = (typeof ROLES)[number];

export const VARIANTS = ['insurance', 'funeral_preneed', 'recruiting'] as const;
export type Variant = (typeof VARIANTS)[number];

const LABELS: Record<Role, string> = {
  admin: 'System Admin',
  sub_admin: 'Admin',
  bu_admin: 'BU Admin',
  manager: 'Manager',
  regional_manager: 'Regional Manager',
  district_manager: 'District Manager',
  field_manager: 'Field Manager',
  telemarketer: 'Telemarketer',
  agent: 'Agent',
  basic: 'Basic',
  pool_holder: 'Pool Holder',
};

const RECRUITING_LABELS: Partial<Record<Role, string>> = {
  bu_admin: 'Business Admin',
  manager: 'Lead Recruiter',
  agent: 'Recruiter',
};

export function roleLabel(role: Role, variant: Variant = 'insurance'): string {
  if (variant === 'recruiting') return RECRUITING_LABELS[role] ?? LABELS[role];
  return LABELS[role];
}

/**
 * Rank decides "above/below": nobody assigns a role ranked above their own. Roles of equal rank are peers
 * (agent and telemarketer both lead nobody).
 */
export const ROLE_RANK: Record<Role, number> = {
  admin: 100,
  sub_admin: 90,
  bu_admin: 80,
  regional_manager: 70,
  manager: 60,
  district_manager: 50,
  field_manager: 40,
  pool_holder: 30,
  telemarketer: 20,
  agent: 20,
  basic: 10,
};

/** Account-type mapping: sub_admin yields sub_admin and admin; pool_holder yields pool_holder and basic. */
export function rolesForAccountType(accountType: Role): Role[] {
  if (accountType === 'sub_admin') return ['sub_admin', 'admin'];
  if (accountType === 'pool_holder') return ['pool_holder', 'basic'];
  return [accountType];
}

export const FULL_ASSIGNABLE: readonly Role[] = [
  'admin',
  'sub_admin',
  'bu_admin',
  'manager',
  'regional_manager',
  'basic',
  'district_manager',
  'field_manager',
  'telemarketer',
  'agent',
  'pool_holder',
];
export const ASSIGNABLE_WITHOUT_BU_AND_POOL: readonly Role[] = FULL_ASSIGNABLE.filter(
  (r) => r !== 'bu_admin' && r !== 'pool_holder',
);
export const REGIONAL_MANAGER_ONLY: readonly Role[] = ['regional_manager'];
export const LOWER_LEVEL: readonly Role[] = [
  'manager',
  'district_manager',
  'field_manager',
  'telemarketer',
  'agent',
  'basic',
];
export const LOWER_LEVEL_WITH_RM: readonly Role[] = ['regional_manager', ...LOWER_LEVEL];

/** Roles a company of a variant shows at all (recruiting hides sub_admin and the field roles). */
export function visibleRoles(variant: Variant, flags: { regional_manager?: boolean; basic_agent?: boolean }): Role[] {
  return ROLES.filter((r) => {
    if (variant === 'recruiting' && ['sub_admin', 'district_manager', 'field_manager', 'telemarketer'].includes(r))
      return false;
    if (r === 'pool_holder' && variant !== 'recruiting') return false;
    if (r === 'regional_manager' && !flags.regional_manager) return false;
    if (r === 'basic' && !flags.basic_agent) return false;
    return true;
  });
}

/** Admin-level group: admin, bu_admin, regional_manager, pool_holder, plus sub_admin unless central-office is on. */
export function adminLevelGroup(centralOffice: boolean): Role[] {
  const group: Role[] = ['admin', 'bu_admin', 'regional_manager', 'pool_holder'];
  if (!centralOffice) group.push('sub_admin');
  return group;
}

export const MANAGER_ROLES: readonly Role[] = ['manager', 'regional_manager', 'district_manager', 'field_manager'];

export function highestRank(roles: readonly Role[]): number {
  return roles.reduce((max, r) => Math.max(max, ROLE_RANK[r] ?? 0), 0);
}

/**
 * The rank a user acts with. A sub_admin also holds 'admin' through the account-type mapping, yet must not count as
 * a System Admin when deciding who may act on whom.
 */
export function effectiveRank(roles: readonly Role[]): number {
  if (roles.includes('sub_admin')) return ROLE_RANK.sub_admin;
  return highestRank(roles);
}

/** The highest-ranked role of a set: the account type a set of roles stands for. */
export function primaryRole(roles: readonly Role[]): Role {
  return [...roles].sort((a, b) => ROLE_RANK[b] - ROLE_RANK[a])[0];
}

/** The list of roles a user holding `roles` may hand out, before the variant's visibility filter. */
export function assignableBy(roles: readonly Role[]): readonly Role[] {
  if (roles.includes('admin') && !roles.includes('sub_admin')) return FULL_ASSIGNABLE;
  if (roles.includes('sub_admin')) return ASSIGNABLE_WITHOUT_BU_AND_POOL.filter((r) => r !== 'admin');
  if (roles.includes('bu_admin')) return LOWER_LEVEL_WITH_RM;
  if (roles.includes('regional_manager')) return LOWER_LEVEL;
  if (roles.some((r) => MANAGER_ROLES.includes(r))) {
    const rank = highestRank(roles);
    return LOWER_LEVEL.filter((r) => ROLE_RANK[r] < rank);
  }
  return [];
}

/**
 * What a user holding `roles` may hand out in a company of `variant` with `flags`: their list of spec section 6,
 * narrowed to the roles the company shows. The server checks every assignment against exactly this list.
 */
export function assignableRoles(
  roles: readonly Role[],
  variant: Variant,
  flags: { regional_manager?: boolean; basic_agent?: boolean },
): Role[] {
  const visible = visibleRoles(variant, flags);
  return assignableBy(roles).filter((r) => visible.includes(r));
}
