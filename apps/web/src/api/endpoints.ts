/** Typed helpers, one per endpoint of the sign-in and account contract. Shapes come from @harbor/shared. */
import type {
  CurrentUser,
  LoginBody,
  OtpStepReply,
  RecoveryCodesReply,
  RecoveryCodesStatus,
  RegenerateRecoveryCodesBody,
  ResetByTokenBody,
  ResetInstructionsBody,
  TwoFactorCodeBody,
  TwoFactorDisableBody,
  TwoFactorOnReply,
  Update2faBody,
  UpdatePasswordBody,
  UpdateThemeBody,
  UpdateTimezoneBody,
} from '@harbor/shared';
import { ApiError, api } from './client';

/** The TypeScript type of a shared zod schema, without this package depending on zod itself. */
type Infer<S> = S extends { _output: infer O } ? O : never;

export type OtpStep = Infer<typeof OtpStepReply>;
export type LoginReply = { user: CurrentUser } | OtpStep;
export type ThemeChange = Infer<typeof UpdateThemeBody>;
export type TimezoneChange = Infer<typeof UpdateTimezoneBody>;
export type PasswordChange = Infer<typeof UpdatePasswordBody>;
export type ResetByToken = Infer<typeof ResetByTokenBody>;
export type Update2fa = Infer<typeof Update2faBody>;
/** The reply that turns two-factor on: the user, and the recovery codes shown this once. */
export type TwoFactorOn = Infer<typeof TwoFactorOnReply>;

export interface QrReply {
  qr_code: string;
  secret: string;
  otpauth_url: string;
}

export interface DevMailSummary {
  id: number | string;
  to: string;
  from: string;
  subject: string;
  created_at: string;
}
export interface DevMail extends DevMailSummary {
  text: string | null;
  html: string | null;
}

export function isOtpStep(reply: LoginReply): reply is OtpStep {
  return 'otp_secret' in reply && reply.otp_secret === true;
}

export const health = () => api.get<{ status: 'ok'; version: string }>('/v1/health');

// ---- Session ----
export const login = (body: LoginBody) => api.post<LoginReply>('/v1/sessions', body);
/** 204: signed out. 200 with a user: an impersonation was popped and that user is now signed in. */
export const logout = () => api.delete<{ user: CurrentUser } | undefined>('/v1/sessions');

/** The bootstrap: a 401 means "signed out", not an error. */
export async function fetchMe(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await api.get<CurrentUser>('/v1/users/me', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const resetPasswordInstructions = (body: Infer<typeof ResetInstructionsBody>) =>
  api.post<{ message: string }>('/v1/users/reset_password_instructions', body);
export const resetPasswordByToken = (body: ResetByToken) =>
  api.post<{ message: string }>('/v1/users/reset_password_by_token', body);

// ---- Current user: every PATCH answers the updated user ----
export const acceptTos = () => api.patch<CurrentUser>('/v1/users/accept_tos');
export const updateTimezone = (body: TimezoneChange) => api.patch<CurrentUser>('/v1/users/update_timezone', body);
export const updateTheme = (body: ThemeChange) => api.patch<CurrentUser>('/v1/users/update_theme', body);
export const updatePassword = (userId: number, body: PasswordChange) =>
  api.patch<CurrentUser>(`/v1/users/${userId}/update_password`, body);

export const generateQr = () => api.patch<QrReply>('/v1/users/two_factor/generate_qr');
export const sendOtp = () => api.patch<undefined>('/v1/users/two_factor/send_otp');
export const enable2fa = (body: Infer<typeof TwoFactorCodeBody>) =>
  api.patch<TwoFactorOn>('/v1/users/two_factor/enable', body);
export const disable2fa = (body: Infer<typeof TwoFactorDisableBody>) =>
  api.patch<CurrentUser>('/v1/users/two_factor/disable', body);
export const update2fa = (body: Update2fa) => api.patch<TwoFactorOn>('/v1/users/update_2fa', body);
export const recoveryCodesStatus = (signal?: AbortSignal) =>
  api.get<Infer<typeof RecoveryCodesStatus>>('/v1/users/two_factor/recovery_codes', { signal });
export const regenerateRecoveryCodes = (body: Infer<typeof RegenerateRecoveryCodesBody>) =>
  api.patch<Infer<typeof RecoveryCodesReply>>('/v1/users/two_factor/recovery_codes', body);

// ---- Development inbox of the local mail stand-in ----
export const listDevMails = (signal?: AbortSignal) => api.get<{ data: DevMailSummary[] }>('/v1/dev/mails', { signal });
export const getDevMail = (id: DevMailSummary['id'], signal?: AbortSignal) =>
  api.get<DevMail>(`/v1/dev/mails/${encodeURIComponent(String(id))}`, { signal });
