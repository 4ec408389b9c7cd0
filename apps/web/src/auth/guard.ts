/**
 * The access guard of spec §2, as pure functions so its order is testable:
 * no session -> /login; terms not accepted -> stop (the Terms modal blocks); forced password change -> password tab;
 * required two-factor off -> two-factor tab, unless acting through the login stack; unpaid -> /billing, except on
 * profile and billing pages.
 */
import type { CurrentUser } from '@harbor/shared';

/** Pages that never load the current user (spec §2). */
export const PUBLIC_PATHS = [
  '/login',
  '/login-app',
  '/reset-password',
  '/contact-us',
  '/privacy-policy',
  '/terms-of-use',
  '/api/auth/callback',
  '/sso-logout',
] as const;

/** Client-only public pages: the development inbox of the local mail stand-in. */
const EXTRA_PUBLIC_PREFIXES = ['/dev/inbox'];

function matches(pathname: string, base: string): boolean {
  return pathname === base || pathname.startsWith(`${base}/`);
}

export function isPublicPath(pathname: string): boolean {
  return PUBLIC_PATHS.some((p) => matches(pathname, p)) || EXTRA_PUBLIC_PREFIXES.some((p) => matches(pathname, p));
}

export const PASSWORD_TAB = '/account/profile?tab=password';
export const TWO_FACTOR_TAB = '/account/profile?tab=two_factor';
export const BILLING = '/billing';

export function needsTerms(user: CurrentUser): boolean {
  return user.tos === false;
}

function isOnTab(pathname: string, search: string, tab: string): boolean {
  return pathname === '/account/profile' && new URLSearchParams(search).get('tab') === tab;
}

/**
 * Where the guard sends this user from this location, or null to stay. `search` is only consulted on the profile
 * page, so a forced step cannot be skipped by switching tabs.
 */
export function guardRedirect(user: CurrentUser | null | undefined, pathname: string, search = ''): string | null {
  if (!user) return '/login';
  if (needsTerms(user)) return null;
  if (user['change_password?']) return isOnTab(pathname, search, 'password') ? null : PASSWORD_TAB;
  if (user['two_fa_is_required?'] && !user['has_2fa_enabled?'] && user.login_stack.length === 0) {
    return isOnTab(pathname, search, 'two_factor') ? null : TWO_FACTOR_TAB;
  }
  if (!user['paid_user?'] && !matches(pathname, '/account/profile') && !matches(pathname, '/billing')) return BILLING;
  return null;
}
