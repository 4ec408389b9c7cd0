/**
 * The signed-in user's own account beyond the foundation (crm-wallet-dialer-admin.md §7 "Users and account"):
 * profile, webpage, API keys, favourite users, dashboard, signups, signed-in addresses, office locations.
 */
import { z } from 'zod';
import { ALL_POSITION_TITLES, OFFICE_TYPES, US_STATES } from '../options.js';
import { ROLES } from '../roles.js';
import { PageMeta } from './paging.js';
import { pagedCrudSchemas } from './params.js';
import { Email } from './session.js';

const Name = z.string().trim().min(1, "can't be blank").max(100);
const Id = z.number().int().positive();

export const UpdateProfileBody = z
  .strictObject({
    first_name: Name,
    last_name: Name,
    about_me: z.string().max(2000).nullable(),
    position_title: z.enum(ALL_POSITION_TITLES).nullable(),
    office_location_id: Id.nullable(),
    /** null removes the picture; a new one is uploaded as a multipart file part of the same name. */
    personal_photo: z.null(),
    logo: z.null(),
  })
  .partial();
export type UpdateProfileBody = z.infer<typeof UpdateProfileBody>;
/** Optional: a multipart update carries its fields as parts. */
export const UpdateProfileRequest = UpdateProfileBody.nullish();
/** The same update as multipart/form-data: the fields as text parts ('' clears), and the two pictures. */
export const UpdateProfileForm = z.object({
  first_name: z.string().optional(),
  last_name: z.string().optional(),
  about_me: z.string().optional(),
  position_title: z.string().optional(),
  office_location_id: z.string().optional(),
  personal_photo: z.file().optional(),
  logo: z.file().optional(),
});

/** PATCH /v1/users/{id}: the sign-in identity of your own account; a new email needs the current password. */
export const UpdateAccountBody = z
  .strictObject({
    username: z
      .string()
      .trim()
      .min(3)
      .max(60)
      .regex(/^[a-zA-Z0-9._-]+$/, 'may contain only letters, digits, dots, dashes and underscores'),
    email: Email,
    current_password: z.string().max(256),
  })
  .partial();

/** Subdomains that can never be a personal webpage (crm-core.md §2). */
export const RESERVED_SUBDOMAINS = ['api', 'platform', 'www'] as const;

export const Webpage = z.object({
  subdomain: z.string().nullable(),
  active: z.boolean(),
  headline: z.string().nullable(),
  phone: z.string().nullable(),
  show_email: z.boolean(),
});
export type Webpage = z.infer<typeof Webpage>;

export const UpdateWebpageBody = z
  .strictObject({
    subdomain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(/^[a-z0-9](?:[a-z0-9-]{1,61}[a-z0-9])$/, 'may contain only letters, digits and dashes (3-63)')
      .refine((s) => !(RESERVED_SUBDOMAINS as readonly string[]).includes(s), 'is reserved')
      .nullable(),
    active: z.boolean(),
    headline: z.string().trim().max(200).nullable(),
    phone: z.string().trim().max(30).nullable(),
    show_email: z.boolean(),
  })
  .partial();

export const ApiKey = z.object({
  id: z.number(),
  name: z.string(),
  /** The first characters of the token, enough to recognise it; the token itself is never stored. */
  token_prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof ApiKey>;
/** The one reply that carries the token: create and refresh_token. */
export const ApiKeyWithToken = ApiKey.extend({ token: z.string() });
export type ApiKeyWithToken = z.infer<typeof ApiKeyWithToken>;
export const ApiKeyBody = z.strictObject({ name: z.string().trim().min(1, "can't be blank").max(100) });

export const FavoriteUser = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
});
/**
 * Your favourites, and the colleagues you may pick as favourites (docs/decisions/favourite-users.md): those you
 * reach, your upline, your teammates and your downline; `q` narrows the candidates by name or email.
 */
export const FavoriteLists = z.object({ data: z.array(FavoriteUser), candidates: z.array(FavoriteUser) });
export type FavoriteLists = z.infer<typeof FavoriteLists>;
export const FavoriteListsQuery = z.object({
  q: z.string().trim().max(100).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(100),
});

/** Profile pictures (personal photo, logo): raster images recognised by their bytes, at most this size. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_KINDS = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' } as const;
export type ImageKind = keyof typeof IMAGE_KINDS;
export const PROFILE_IMAGE_FIELDS = ['personal_photo', 'logo'] as const;

export const BIRTHDAY_RANGES = ['today', 'week', 'month'] as const;
export const DashboardPreferences = z.object({
  birthday_range: z.enum(BIRTHDAY_RANGES),
  show_clients: z.boolean(),
  show_prospects: z.boolean(),
});
export type DashboardPreferences = z.infer<typeof DashboardPreferences>;
export const DEFAULT_DASHBOARD: DashboardPreferences = {
  birthday_range: 'week',
  show_clients: true,
  show_prospects: true,
};
/** Dashboard preferences, and the favourite users the dashboard lists (the whole set, replacing the old one). */
export const UpdateDashboardBody = z
  .strictObject({
    birthday_range: z.enum(BIRTHDAY_RANGES),
    show_clients: z.boolean(),
    show_prospects: z.boolean(),
    favorite_user_ids: z.array(Id).max(100),
  })
  .partial();

export const SignupBody = z.strictObject({
  first_name: Name,
  last_name: Name,
  email: Email,
  phone: z.string().trim().max(30).optional(),
  note: z.string().trim().max(2000).optional(),
});
export const Signup = z.object({
  id: z.number(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  phone: z.string().nullable(),
  note: z.string().nullable(),
  status: z.string(),
  sponsor: z.object({ id: z.number(), name: z.string() }).nullable(),
  created_at: z.string(),
});
export type Signup = z.infer<typeof Signup>;
export const SignupList = z.object({ data: z.array(Signup), meta: PageMeta });

export const AuthIp = z.object({
  ip: z.string(),
  last_sign_in_at: z.string(),
  sign_in_count: z.number(),
});
export type AuthIp = z.infer<typeof AuthIp>;
export const AuthIpList = z.object({ data: z.array(AuthIp), meta: PageMeta });

export const OfficeLocation = z.object({
  id: z.number(),
  name: z.string(),
  office_type: z.enum(OFFICE_TYPES),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip_code: z.string().nullable(),
  phone: z.string().nullable(),
});
export type OfficeLocation = z.infer<typeof OfficeLocation>;
export const OfficeLocationList = z.object({ data: z.array(OfficeLocation), meta: PageMeta });
export const OfficeLocationBody = z.strictObject({
  name: Name,
  office_type: z.enum(OFFICE_TYPES),
  address: z.string().trim().max(200).nullable().optional(),
  city: z.string().trim().max(100).nullable().optional(),
  state: z.enum(US_STATES).nullable().optional(),
  zip_code: z
    .string()
    .trim()
    .regex(/^\d{5}(-\d{4})?$/, 'is not a valid ZIP code')
    .nullable()
    .optional(),
  phone: z.string().trim().max(30).nullable().optional(),
});
export type OfficeLocationBody = z.infer<typeof OfficeLocationBody>;

export const OfficeLocationCrud = pagedCrudSchemas(OfficeLocation, OfficeLocationBody);

export const AuditEventsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Keyset paging: events older than this id. */
  before_id: z.coerce.number().int().positive().optional(),
  event: z.string().max(50).optional(),
  user_id: z.coerce.number().int().positive().optional(),
});

export const AuditEvent = z.object({
  id: z.number(),
  event: z.string(),
  user_id: z.number().nullable(),
  user_email: z.string().nullable(),
  actor_id: z.number().nullable(),
  ip: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export const AuditEventPage = z.object({
  data: z.array(AuditEvent),
  meta: z.object({ next_before_id: z.number().nullable() }),
});
