/** The only shape of the current user that leaves the server (GET /v1/users/me and every self-update). */

import {
  type Background,
  type CurrentUser,
  type DashboardPreferences,
  DEFAULT_DASHBOARD,
  type FontSize,
  MANAGER_ROLES,
  type PrimaryColor,
  permissionsOf,
  type Role,
  type TimeZone,
  type Variant,
} from '@harbor/shared';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { UserRow } from '../../platform/db/schema.js';
import { type BirthdaysSource, birthdaysFor } from './birthdays.js';
import { imageUrl } from './images.js';
import { loadAccountLists } from './me-query.js';

/** Terms last changed on this date; an acceptance before it is `tos` but not `updated_tos`. */
export const TERMS_UPDATED_AT = new Date('2026-01-01T00:00:00Z');

/** `birthdays`: GET /v1/users/me passes its cached source; replies to a change compute them afresh. */
export async function presentCurrentUser(
  db: Db,
  auth: AuthContext,
  birthdays: BirthdaysSource = birthdaysFor,
): Promise<CurrentUser> {
  const { user, company, session, features, subject } = auth;
  const roles = user.roles as Role[];
  const preferences = dashboardPreferences(user);
  const [lists, dashboardBirthdays] = await Promise.all([
    loadAccountLists(db, user, company.id),
    birthdays(db, auth, preferences),
  ]);
  return {
    id: user.id,
    number: user.number,
    username: user.username,
    email: user.email,
    roles,
    timezone: user.timezone as TimeZone,
    company: {
      name: company.name,
      domain_name: company.domainName,
      number: company.number,
      variant: company.variant as Variant,
    },
    business_unit: lists.businessUnit,
    basic: user.basic,
    admin: roles.includes('admin'),
    manager: roles.some((r) => MANAGER_ROLES.includes(r)),
    bu_admin: roles.includes('bu_admin'),
    aris: user.aris,
    c_1: user.c1,
    tos: user.tosAcceptedAt !== null,
    updated_tos: user.tosAcceptedAt !== null && user.tosAcceptedAt >= TERMS_UPDATED_AT,
    wallet_feature_enabled: features.wallet_feature,
    max_plus_subscription: { active: user.maxPlusActive, plan: user.maxPlusPlan },
    last_otp_at: user.lastOtpAt?.toISOString() ?? null,
    'two_fa_is_required?': user.twoFaRequired || features.two_factor_required,
    'has_2fa_enabled?': user.otpEnabled,
    'change_password?': user.changePassword,
    'paid_user?': user.paid,
    otp_method: user.otpMethod as 'app' | 'email',
    profile: {
      first_name: user.firstName,
      last_name: user.lastName,
      personal_photo: imageUrl(user.id, 'personal_photo', user.personalPhoto),
      logo: imageUrl(user.id, 'logo', user.logo),
      font_size: user.fontSize as FontSize,
      primary_color: user.primaryColor as PrimaryColor,
      background: user.background as Background,
      account_type: user.accountType as Role,
      about_me: user.aboutMe,
      dialer_verified_phone_number: user.dialerVerifiedPhoneNumber,
      dialer_enabled: user.dialerEnabled,
      position_title: user.positionTitle,
      office_location_id: user.officeLocationId,
    },
    features,
    permissions: permissionsOf(subject),
    // Only who and how: when the previous session ends stays on the server.
    login_stack: (session?.loginStack ?? []).map(({ kind, user_id, name }) => ({
      kind,
      user_id,
      name,
    })) as CurrentUser['login_stack'],
    favorite_users: lists.favorites,
    dashboard_info: { birthdays: dashboardBirthdays, preferences },
    webpage: presentWebpage(user),
    api_keys: lists.apiKeys,
    auth_ips: lists.authIps,
    office_locations: lists.offices,
  };
}

export function dashboardPreferences(user: UserRow): DashboardPreferences {
  return { ...DEFAULT_DASHBOARD, ...(user.dashboard as Partial<DashboardPreferences>) };
}

export function presentWebpage(user: UserRow): CurrentUser['webpage'] {
  const w = user.webpage;
  return {
    subdomain: user.webpageSubdomain,
    active: w.active ?? false,
    headline: w.headline ?? null,
    phone: w.phone ?? null,
    show_email: w.show_email ?? false,
  };
}
