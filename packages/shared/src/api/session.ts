import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN } from '../constants.js';
import { BACKGROUNDS, FONT_SIZES, PRIMARY_COLORS, TIME_ZONES } from '../options.js';

export const Email = z.string().trim().toLowerCase().email('is not a valid email').max(254);
export const NewPassword = z
  .string()
  .min(PASSWORD_MIN, `is too short (minimum is ${PASSWORD_MIN} characters)`)
  .max(PASSWORD_MAX, `is too long (maximum is ${PASSWORD_MAX} characters)`);
export const OtpCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, 'must be 6 digits');

/** A two-factor recovery code as typed (`abcd-efgh-jkmn`; case, spaces and dashes do not matter). */
export const RecoveryCode = z.string().trim().min(1, "can't be blank").max(40);

/**
 * Login: `{email, password}` (username accepted for email), or the second step `{otp_code}` or, without the phone,
 * `{recovery_code}`.
 */
export const LoginBody = z.union([
  z
    .object({
      email: z.string().trim().min(1, "can't be blank").max(254).optional(),
      username: z.string().trim().min(1, "can't be blank").max(254).optional(),
      password: z.string().min(1, "can't be blank").max(PASSWORD_MAX),
    })
    .refine((b) => b.email || b.username, { message: "can't be blank", path: ['email'] }),
  z.object({ otp_code: OtpCode }),
  z.object({ recovery_code: RecoveryCode }),
]);
export type LoginBody = z.infer<typeof LoginBody>;

/**
 * The reply when a one-time-code step follows. `otp_secret` is a marker (`true`), never the TOTP secret itself:
 * see docs/decisions/two-factor-login-step.md.
 */
export const OtpStepReply = z.object({
  otp_secret: z.literal(true),
  last_otp_at: z.string().nullable(),
  otp_method: z.enum(['app', 'email']),
});

export const ResetInstructionsBody = z.object({ email: Email });
export const ResetByTokenBody = z
  .object({
    reset_password_token: z.string().min(16).max(200),
    password: NewPassword,
    password_confirmation: z.string(),
  })
  .refine((b) => b.password === b.password_confirmation, {
    message: "doesn't match Password",
    path: ['password_confirmation'],
  });

export const UpdatePasswordBody = z
  .object({
    current_password: z.string().max(PASSWORD_MAX).optional(),
    password: NewPassword,
    password_confirmation: z.string(),
  })
  .refine((b) => b.password === b.password_confirmation, {
    message: "doesn't match Password",
    path: ['password_confirmation'],
  });

export const UpdateTimezoneBody = z.object({ timezone: z.enum(TIME_ZONES) });
export const UpdateThemeBody = z
  .object({
    font_size: z.enum(FONT_SIZES).optional(),
    primary_color: z.enum(PRIMARY_COLORS).optional(),
    background: z.enum(BACKGROUNDS).optional(),
  })
  .strict();
export const TwoFactorCodeBody = z.object({ otp_code: OtpCode });
export const TwoFactorDisableBody = z.object({ password: z.string().min(1, "can't be blank").max(PASSWORD_MAX) });
export const Update2faBody = z.object({
  otp_method: z.enum(['app', 'email']),
  password: z.string().min(1, "can't be blank").max(PASSWORD_MAX),
});

/** PATCH /v1/users/two_factor/recovery_codes: a new set of recovery codes (the old ones stop working). */
export const RegenerateRecoveryCodesBody = z.object({
  password: z.string().min(1, "can't be blank").max(PASSWORD_MAX),
});
/** The codes, in the one reply that shows them. */
export const RecoveryCodesReply = z.object({ recovery_codes: z.array(z.string()) });
/** GET /v1/users/two_factor/recovery_codes: how many are still unused (never the codes). */
export const RecoveryCodesStatus = z.object({ left: z.number().int(), total: z.number().int() });

export type OtpStepReply = z.infer<typeof OtpStepReply>;
export type RegenerateRecoveryCodesBody = z.infer<typeof RegenerateRecoveryCodesBody>;
export type RecoveryCodesReply = z.infer<typeof RecoveryCodesReply>;
export type RecoveryCodesStatus = z.infer<typeof RecoveryCodesStatus>;
export type ResetInstructionsBody = z.infer<typeof ResetInstructionsBody>;
export type ResetByTokenBody = z.infer<typeof ResetByTokenBody>;
export type UpdatePasswordBody = z.infer<typeof UpdatePasswordBody>;
export type UpdateTimezoneBody = z.infer<typeof UpdateTimezoneBody>;
export type UpdateThemeBody = z.infer<typeof UpdateThemeBody>;
export type TwoFactorCodeBody = z.infer<typeof TwoFactorCodeBody>;
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBody>;
export type Update2faBody = z.infer<typeof Update2faBody>;

/**
 * POST /v1/sessions/sso, two steps like the password sign-in: `{domain_name}` starts (reply: where to send the
 * browser), then the callback page /api/auth/callback posts what the provider sent back (reply: as POST /v1/sessions).
 */
export const SsoBody = z.union([
  z.strictObject({ domain_name: z.string().trim().toLowerCase().min(1, "can't be blank").max(253) }),
  z.strictObject({
    code: z.string().max(2000).optional(),
    state: z.string().max(500).optional(),
    iss: z.string().max(500).optional(),
    session_state: z.string().max(500).optional(),
    error: z.string().max(200).optional(),
    error_description: z.string().max(2000).optional(),
  }),
]);
export const SsoStartReply = z.object({ authorization_url: z.string() });
