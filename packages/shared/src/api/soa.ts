/**
 * Scope-of-appointment requests (routes.md `medicare` and `public`): the agent's list, one request, complete and
 * reject under /v1/users/soa_requests; sending one (POST, docs/decisions/soa-requests.md); the beneficiary's public
 * view and submit with the company's domain_name; and the agent's Medicare registration.
 */
import { z } from 'zod';
import { SOA_PRODUCTS } from '../medicare/soa-rule.js';
import { PageMeta } from './paging.js';

export const SOA_STATUSES = ['sent', 'signed', 'completed', 'rejected', 'expired'] as const;
export type SoaStatus = (typeof SOA_STATUSES)[number];
export const SOA_STATUS_LABELS: Record<SoaStatus, string> = {
  sent: 'Waiting for signature',
  signed: 'Signed',
  completed: 'Completed',
  rejected: 'Rejected',
  expired: 'Expired',
};
/** How the agent sends the link: by email through Harbor, or copied into a message of their own. */
export const SOA_CHANNELS = ['email', 'sms', 'link'] as const;
/** Days a sent link stays open for signing. */
export const SOA_LINK_DAYS = 14;
/** The drawn signature: a PNG data URL, at most this many characters (about 150 kB of image). */
export const SOA_SIGNATURE_MAX = 200_000;

const product = z.enum(SOA_PRODUCTS);

export const SoaRequestBody = z.strictObject({
  /** The contact's internal id. */
  contact_id: z.number().int().positive(),
  channel: z.enum(SOA_CHANNELS),
  /** Products the beneficiary may pick from; all of them when empty. */
  products_offered: z.array(product).max(SOA_PRODUCTS.length).optional(),
});
export type SoaRequestBody = z.infer<typeof SoaRequestBody>;

export const SoaRejectBody = z.strictObject({ reason: z.string().trim().max(500).optional() });

export const SoaListQuery = z.object({
  status: z.enum(SOA_STATUSES).optional(),
  contact_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

const Ref = z.object({ id: z.number(), name: z.string() });

export const SoaRequest = z.object({
  id: z.number(),
  status: z.enum(SOA_STATUSES),
  channel: z.enum(SOA_CHANNELS),
  sent_to: z.string().nullable(),
  user: Ref,
  contact: z.object({ id: z.number(), number: z.number(), name: z.string() }),
  products_offered: z.array(z.string()),
  products: z.array(z.string()),
  signature_name: z.string().nullable(),
  /** Only in the one-request reply (GET /v1/users/soa_requests/{id}); null in lists. */
  signature_image: z.string().nullable(),
  beneficiary_address: z.string().nullable(),
  beneficiary_phone: z.string().nullable(),
  signed_at: z.string().nullable(),
  signed_ip: z.string().nullable(),
  signed_user_agent: z.string().nullable(),
  expires_at: z.string(),
  completed_at: z.string().nullable(),
  rejected_at: z.string().nullable(),
  reject_reason: z.string().nullable(),
  /** The public page's address while the request waits for a signature (null afterwards). */
  link: z.string().nullable(),
  created_at: z.string(),
});
export type SoaRequest = z.infer<typeof SoaRequest>;

export const SoaRequestList = z.object({ data: z.array(SoaRequest), meta: PageMeta });
export type SoaRequestList = z.infer<typeof SoaRequestList>;

const domainName = z.string().trim().toLowerCase().min(1).max(253);
const token = z.string().regex(/^[A-Za-z0-9_-]{20,100}$/, 'is not a valid link');

export const SoaViewQuery = z.object({ domain_name: domainName, token });

/** All the public page learns: the agent's name, what may be discussed, and whether it is still open. */
export const SoaPublicView = z.object({
  agent_name: z.string(),
  status: z.enum(['open', 'signed']),
  products_offered: z.array(z.string()),
  expires_at: z.string(),
});
export type SoaPublicView = z.infer<typeof SoaPublicView>;

export const SoaSubmitBody = z.strictObject({
  domain_name: domainName,
  token,
  products: z.array(product).min(1, 'pick at least one product to discuss').max(SOA_PRODUCTS.length),
  signature_name: z.string().trim().min(2, 'type your full name to sign').max(120),
  signature_image: z
    .string()
    .max(SOA_SIGNATURE_MAX, 'the drawn signature is too large')
    .regex(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/, 'draw your signature in the box'),
  address: z.string().trim().max(300).optional(),
  phone: z.string().trim().max(30).optional(),
});
export type SoaSubmitBody = z.infer<typeof SoaSubmitBody>;

export const SoaSubmitReply = z.object({ status: z.literal('signed'), signed_at: z.string() });

export const MedicareRegisteredBody = z.strictObject({
  medicare_registered: z.boolean(),
  /** National Producer Number. */
  npn: z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, 'is 1 to 10 digits')
    .nullable()
    .optional(),
  plan_year: z.number().int().min(2000).max(2100).nullable().optional(),
});
export const MedicareRegistration = z.object({
  medicare_registered: z.boolean(),
  npn: z.string().nullable(),
  plan_year: z.number().nullable(),
  registered_at: z.string().nullable(),
  updated_at: z.string(),
});
export type MedicareRegistration = z.infer<typeof MedicareRegistration>;
