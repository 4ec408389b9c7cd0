/**
 * GET/PUT/DELETE /v1/admin/sso_connection and POST /v1/admin/sso_connection/check (DECIDED, System Admin): the
 * company's OpenID Connect provider. The client secret is write-only: replies say whether one is stored.
 */
import { z } from 'zod';

const LOOPBACK = /^(localhost|127\.0\.0\.1|\[::1\])$/;

/** https, except on this machine (a provider under test or development runs on plain http there). */
export const IssuerUrl = z
  .string()
  .trim()
  .min(1, "can't be blank")
  .max(500)
  .refine((v) => URL.canParse(v), 'is not a valid URL')
  .refine((v) => {
    if (!URL.canParse(v)) return true;
    const u = new URL(v);
    return u.protocol === 'https:' || (u.protocol === 'http:' && LOOPBACK.test(u.hostname));
  }, 'must use https');

export const SsoConnectionBody = z.strictObject({
  issuer: IssuerUrl,
  client_id: z.string().trim().min(1, "can't be blank").max(200),
  /** Required the first time; left out, the stored secret stays. */
  client_secret: z.string().min(1, "can't be blank").max(500).optional(),
});
export type SsoConnectionBody = z.infer<typeof SsoConnectionBody>;

export const SsoConnectionReply = z.object({
  connection: z
    .object({
      issuer: z.string(),
      client_id: z.string(),
      has_client_secret: z.boolean(),
      updated_at: z.string(),
    })
    .nullable(),
  /** What to register at the provider. */
  redirect_uri: z.string(),
  backchannel_logout_uri: z.string(),
  /** The company's single_sign_on flag: a connection without it offers no SSO button. */
  enabled: z.boolean(),
});
export type SsoConnectionReply = z.infer<typeof SsoConnectionReply>;

export const SsoCheckReply = z.object({
  ok: z.boolean(),
  message: z.string(),
});
export type SsoCheckReply = z.infer<typeof SsoCheckReply>;
