import { z } from 'zod';
import { FEATURE_KEYS } from '../features.js';
import { BACKGROUNDS, FONT_SIZES, PRIMARY_COLORS, TIME_ZONES } from '../options.js';
import { ROLES, VARIANTS } from '../roles.js';
import { ApiKey, AuthIp, DashboardPreferences, OfficeLocation, Webpage } from './account.js';
import { PageMeta } from './paging.js';
import { OtpStepReply, SsoStartReply } from './session.js';

export const LoginStackEntry = z.object({
  kind: z.enum(['impersonating', 'impersonating_as_rm', 'logged_as_admin', 'logged_as_bu_admin', 'logged_as_manager']),
  user_id: z.number(),
  name: z.string(),
});

export const Profile = z.object({
  first_name: z.string(),
  last_name: z.string(),
  personal_photo: z.string().nullable(),
  logo: z.string().nullable(),
  font_size: z.enum(FONT_SIZES),
  primary_color: z.enum(PRIMARY_COLORS),
  background: z.enum(BACKGROUNDS),
  account_type: z.enum(ROLES),
  about_me: z.string().nullable(),
  dialer_verified_phone_number: z.string().nullable(),
  dialer_enabled: z.boolean(),
  position_title: z.string().nullable(),
  office_location_id: z.number().nullable(),
});

/** GET /v1/users/me: the current user as the gating code of the spec reads it (001 §3 "Current user"). */
/** A contact whose birthday falls in the dashboard's range (today, this week or this month, in the user's zone). */
export const BirthdayEntry = z.object({
  id: z.number(),
  number: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  date_of_birth: z.string(),
  /** The age they turn on that birthday. */
  turns: z.number(),
  /** 0 = today. */
  days_until: z.number(),
});
export type BirthdayEntry = z.infer<typeof BirthdayEntry>;

export const CurrentUser = z.object({
  id: z.number(),
  number: z.string(),
  username: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
  timezone: z.enum(TIME_ZONES),
  company: z.object({
    name: z.string(),
    domain_name: z.string(),
    number: z.string(),
    variant: z.enum(VARIANTS),
  }),
  business_unit: z.object({ number: z.string(), name: z.string() }).nullable(),
  basic: z.boolean(),
  admin: z.boolean(),
  manager: z.boolean(),
  bu_admin: z.boolean(),
  aris: z.boolean(),
  c_1: z.boolean(),
  tos: z.boolean(),
  updated_tos: z.boolean(),
  wallet_feature_enabled: z.boolean(),
  max_plus_subscription: z.object({ active: z.boolean(), plan: z.string().nullable() }),
  last_otp_at: z.string().nullable(),
  'two_fa_is_required?': z.boolean(),
  'has_2fa_enabled?': z.boolean(),
  'change_password?': z.boolean(),
  'paid_user?': z.boolean(),
  otp_method: z.enum(['app', 'email']),
  profile: Profile,
  features: z.record(z.enum(FEATURE_KEYS as [string, ...string[]]), z.boolean()),
  permissions: z.array(z.string()),
  login_stack: z.array(LoginStackEntry),
  favorite_users: z.array(z.number()),
  dashboard_info: z.object({
    birthdays: z.object({ clients: z.array(BirthdayEntry), prospects: z.array(BirthdayEntry) }),
    preferences: DashboardPreferences,
  }),
  webpage: Webpage,
  api_keys: z.array(ApiKey),
  auth_ips: z.object({ data: z.array(AuthIp), meta: PageMeta }),
  office_locations: z.object({ data: z.array(OfficeLocation), meta: PageMeta }),
});
export type CurrentUser = z.infer<typeof CurrentUser>;

/**
 * The reply of the requests that turn two-factor on (enable, update_2fa): the current user, plus the recovery codes
 * generated with it, shown this once. The browser keeps the user and shows the codes; it never caches them.
 */
export const TwoFactorOnReply = CurrentUser.extend({ recovery_codes: z.array(z.string()).optional() });
export type TwoFactorOnReply = z.infer<typeof TwoFactorOnReply>;

// ---- Replies of the session and account routes ----
/** A completed sign-in, impersonation or switch back: the user now signed in. */
export const SignedInReply = z.object({ user: CurrentUser });
/** Sign-in: the user, or the request for a second step. */
export const LoginReply = z.union([SignedInReply, OtpStepReply]);
/** Single sign-on: where to go to the provider, then the user or the second step. */
export const SsoReply = z.union([SsoStartReply, SignedInReply, OtpStepReply]);
export const MessageReply = z.object({ message: z.string() });
/** Two-factor setup: the new secret, shown this once to its owner. */
export const QrReply = z.object({ qr_code: z.string(), secret: z.string(), otpauth_url: z.string() });
export const ApiKeyList = z.object({ data: z.array(ApiKey) });
