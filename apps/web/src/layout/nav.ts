/**
 * The navigation, declared once. Each entry names the permission (shared PERMISSIONS) and/or feature it needs;
 * `ready` stays false until the feature's page exists, so the shell never links to a page that is not there.
 */
import {
  type CurrentUser,
  can,
  type FeatureGate,
  featureGateOpen,
  type Permission,
  resolveFeatures,
  type Subject,
} from '@harbor/shared';

export type NavIcon =
  | 'dashboard'
  | 'contacts'
  | 'calendar'
  | 'imports'
  | 'sms'
  | 'dialer'
  | 'wallet'
  | 'max_plus'
  | 'store'
  | 'plans'
  | 'workflows'
  | 'reports'
  | 'follow_ups'
  | 'medicare'
  | 'soa'
  | 'trainings'
  | 'team'
  | 'admin'
  | 'profile';

export interface NavItem {
  label: string;
  to: string;
  icon: NavIcon;
  permission?: Permission;
  /** The feature gate the page belongs to (the server refuses its routes when it is closed). */
  feature?: FeatureGate;
  ready: boolean;
}

export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Dashboard', to: '/', icon: 'dashboard', ready: true },
  { label: 'Contacts', to: '/contacts', icon: 'contacts', permission: 'contacts.use', ready: true },
  { label: 'Calendar', to: '/calendar', icon: 'calendar', ready: true },
  { label: 'Imports', to: '/contacts/imports', icon: 'imports', permission: 'imports.use', ready: true },
  { label: 'SMS', to: '/sms', icon: 'sms', permission: 'sms.use', feature: 'sms_feature', ready: true },
  { label: 'Dialer', to: '/dialer', icon: 'dialer', permission: 'dialer.use', feature: 'dialer', ready: false },
  { label: 'Plans', to: '/plans', icon: 'plans', permission: 'plans.use', ready: true },
  { label: 'Wallet', to: '/wallets', icon: 'wallet', permission: 'wallet.use', feature: 'wallet_feature', ready: true },
  // Both are for anyone signed in, paid by card: their routes declare account.self on the server too.
  { label: 'Max Plus', to: '/max-plus', icon: 'max_plus', permission: 'account.self', ready: true },
  { label: 'Store', to: '/store', icon: 'store', permission: 'account.self', ready: true },
  {
    label: 'Workflows',
    to: '/workflows',
    icon: 'workflows',
    permission: 'workflows.use',
    feature: 'workflows',
    ready: false,
  },
  { label: 'Reports', to: '/reports', icon: 'reports', permission: 'reports.view', feature: 'reports', ready: false },
  {
    label: 'Follow-ups',
    to: '/follow-ups',
    icon: 'follow_ups',
    permission: 'follow_ups.use',
    feature: 'follow_ups',
    ready: false,
  },
  {
    label: 'Medicare',
    to: '/medicare',
    icon: 'medicare',
    permission: 'medicare.use',
    feature: 'medicare_center',
    ready: false,
  },
  {
    label: 'SOA requests',
    to: '/soa-requests',
    icon: 'soa',
    permission: 'soa.use',
    feature: 'soa_requests',
    ready: true,
  },
  {
    label: 'Trainings',
    to: '/trainings',
    icon: 'trainings',
    permission: 'training.use',
    feature: 'training_app',
    ready: false,
  },
  { label: 'Team', to: '/team', icon: 'team', permission: 'team.view', ready: true },
  { label: 'Admin', to: '/admin', icon: 'admin', permission: 'admin.manage', ready: true },
  { label: 'Profile', to: '/account/profile', icon: 'profile', permission: 'account.self', ready: true },
];

/** The subject the shared permission predicates read. Missing flags fall back to the shared defaults. */
export function subjectOf(user: CurrentUser): Subject {
  return {
    roles: user.roles,
    basic: user.basic,
    features: resolveFeatures(user.features),
    variant: user.company.variant,
    maxPlus: user.max_plus_subscription,
  };
}

export function isNavItemAllowed(subject: Subject, item: NavItem): boolean {
  if (item.permission && !can(subject, item.permission)) return false;
  if (item.feature && !featureGateOpen(subject, item.feature)) return false;
  return true;
}

export function visibleNavItems(subject: Subject, items: readonly NavItem[] = NAV_ITEMS): NavItem[] {
  return items.filter((item) => item.ready && isNavItemAllowed(subject, item));
}

/** Which item a path belongs to: the longest matching `to`, so /contacts/imports is Imports, not Contacts. */
export function activeNavItem(pathname: string, items: readonly NavItem[]): NavItem | undefined {
  return items
    .filter((i) => (i.to === '/' ? pathname === '/' : pathname === i.to || pathname.startsWith(`${i.to}/`)))
    .sort((a, b) => b.to.length - a.to.length)[0];
}
