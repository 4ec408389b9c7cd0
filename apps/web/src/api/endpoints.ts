/** The sign-in and account calls, typed from the shared contract (api/call.ts). */
import type { CurrentUser } from '@harbor/shared';
import { type BodyOf as Body, call, type Reply } from './call';
import { ApiError } from './client';

export type LoginReply = Reply<'POST /v1/sessions'>;
export type OtpStep = Extract<LoginReply, { otp_secret: unknown }>;
export type ThemeChange = Body<'PATCH /v1/users/update_theme'>;
export type TimezoneChange = Body<'PATCH /v1/users/update_timezone'>;
export type PasswordChange = Body<'PATCH /v1/users/{id}/update_password'>;
export type ResetByToken = Body<'POST /v1/users/reset_password_by_token'>;
export type Update2fa = Body<'PATCH /v1/users/update_2fa'>;
/** The reply that turns two-factor on: the user, and the recovery codes shown this once. */
export type TwoFactorOn = Reply<'PATCH /v1/users/two_factor/enable'>;
export type DevMail = Reply<'GET /v1/dev/mails/{id}'>;

export function isOtpStep(reply: LoginReply): reply is OtpStep {
  return 'otp_secret' in reply && reply.otp_secret === true;
}

export const health = () => call('GET /v1/health');

// ---- Session ----
export const login = (body: Body<'POST /v1/sessions'>) => call('POST /v1/sessions', { body });
/** 204: signed out. 200 with a user: an impersonation was popped and that user is now signed in. */
export const logout = () => call('DELETE /v1/sessions');

/** The bootstrap: a 401 means "signed out", not an error. */
export async function fetchMe(signal?: AbortSignal): Promise<CurrentUser | null> {
  try {
    return await call('GET /v1/users/me', { signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) return null;
    throw error;
  }
}

export const resetPasswordInstructions = (body: Body<'POST /v1/users/reset_password_instructions'>) =>
  call('POST /v1/users/reset_password_instructions', { body });
export const resetPasswordByToken = (body: ResetByToken) => call('POST /v1/users/reset_password_by_token', { body });

// ---- Current user: every PATCH answers the updated user ----
export const acceptTos = () => call('PATCH /v1/users/accept_tos');
export const updateTimezone = (body: TimezoneChange) => call('PATCH /v1/users/update_timezone', { body });
export const updateTheme = (body: ThemeChange) => call('PATCH /v1/users/update_theme', { body });
export const updatePassword = (userId: number, body: PasswordChange) =>
  call('PATCH /v1/users/{id}/update_password', { params: { id: userId }, body });

export const generateQr = () => call('PATCH /v1/users/two_factor/generate_qr');
export const sendOtp = () => call('PATCH /v1/users/two_factor/send_otp');
export const enable2fa = (body: Body<'PATCH /v1/users/two_factor/enable'>) =>
  call('PATCH /v1/users/two_factor/enable', { body });
export const disable2fa = (body: Body<'PATCH /v1/users/two_factor/disable'>) =>
  call('PATCH /v1/users/two_factor/disable', { body });
export const update2fa = (body: Update2fa) => call('PATCH /v1/users/update_2fa', { body });
export const regenerateRecoveryCodes = (body: Body<'PATCH /v1/users/two_factor/recovery_codes'>) =>
  call('PATCH /v1/users/two_factor/recovery_codes', { body });
