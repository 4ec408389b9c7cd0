/** GET/PUT /v1/admin/feature_flags and GET /v1/admin/features: company flags plus per-user overrides. */
import { z } from 'zod';
import { FEATURE_KEYS, type FeatureKey } from '../features.js';

const keyShape = <T extends z.ZodType>(value: T) =>
  Object.fromEntries(FEATURE_KEYS.map((k) => [k, value.optional()])) as Record<FeatureKey, z.ZodOptional<T>>;

/** Only known flags, each a boolean: an unknown key is refused rather than stored. */
export const CompanyFlags = z.strictObject(keyShape(z.boolean()));
/** A user's overrides; null removes the override so the company value applies again. */
export const UserFlagOverrides = z.strictObject(keyShape(z.boolean().nullable()));

export const FeatureFlagDefinition = z.object({
  key: z.enum(FEATURE_KEYS as [FeatureKey, ...FeatureKey[]]),
  label: z.string(),
  default: z.boolean(),
});

export const FeatureFlagsReply = z.object({
  flags: z.array(FeatureFlagDefinition),
  /** The company's effective value of every flag (its setting, else the default). */
  company: z.record(z.string(), z.boolean()),
  users: z.array(
    z.object({
      user_id: z.number(),
      name: z.string(),
      email: z.string(),
      overrides: z.record(z.string(), z.boolean()),
    }),
  ),
});
export type FeatureFlagsReply = z.infer<typeof FeatureFlagsReply>;

export const UpdateFeatureFlagsBody = z.strictObject({
  company: CompanyFlags.optional(),
  users: z
    .array(z.strictObject({ user_id: z.number().int().positive(), overrides: UserFlagOverrides }))
    .max(500)
    .optional(),
});
export type UpdateFeatureFlagsBody = z.infer<typeof UpdateFeatureFlagsBody>;

export const FeaturesReply = z.object({
  data: z.array(FeatureFlagDefinition.extend({ enabled: z.boolean() })),
});
