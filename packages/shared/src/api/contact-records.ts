/** Sub-records of a contact: notes, files, policies and securities. Money is integer cents. */
import { z } from 'zod';
import { ContactParams, dataList } from './params.js';

const Ref = z.object({ id: z.number(), name: z.string() });
const day = z.iso.date('must be a date (YYYY-MM-DD)');
const opt = (max: number) => z.string().trim().max(max).nullable().optional();
const cents = z.number().int().min(0).max(1_000_000_000_00);

export const Note = z.object({
  id: z.number(),
  body: z.string(),
  author: Ref.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export const NoteBody = z.strictObject({ body: z.string().trim().min(1, 'is required').max(20_000) });

/** Upload limits and accepted kinds; the server checks the content against the kind (magic bytes). */
export const MAX_FILE_BYTES = 25 * 1024 * 1024;
export const FILE_KINDS = {
  pdf: ['application/pdf'],
  png: ['image/png'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  gif: ['image/gif'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  xlsx: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  csv: ['text/csv', 'application/csv', 'text/plain', 'application/vnd.ms-excel'],
  txt: ['text/plain'],
} as const satisfies Record<string, readonly string[]>;
export type FileKind = keyof typeof FILE_KINDS;

export const ContactFile = z.object({
  id: z.number(),
  name: z.string(),
  content_type: z.string(),
  size: z.number(),
  uploaded_by: Ref.nullable(),
  created_at: z.string(),
  download_url: z.string(),
});

export const POLICY_PRODUCT_TYPES = [
  'medicare_advantage',
  'medigap',
  'part_d',
  'dental_vision',
  'hospital_indemnity',
  'life',
  'final_expense',
  'annuity',
  'other',
] as const;
export const POLICY_STATUSES = ['pending', 'active', 'cancelled', 'terminated', 'declined'] as const;

const PolicyFields = {
  carrier_id: z.number().int().positive().nullable().optional(),
  product_type: z.enum(POLICY_PRODUCT_TYPES),
  plan_name: opt(200),
  policy_number: opt(100),
  premium_cents: cents.nullable().optional(),
  status: z.enum(POLICY_STATUSES).optional(),
  effective_date: day.nullable().optional(),
  termination_date: day.nullable().optional(),
  notes: opt(5000),
};
const datesInOrder = (b: { effective_date?: string | null; termination_date?: string | null }) =>
  !b.effective_date || !b.termination_date || b.termination_date >= b.effective_date;
const dateOrder = { message: 'must not be before the effective date', path: ['termination_date'] };
export const PolicyBody = z.strictObject(PolicyFields).refine(datesInOrder, dateOrder);
export const PolicyUpdateBody = z
  .strictObject({ ...PolicyFields, product_type: PolicyFields.product_type.optional() })
  .refine(datesInOrder, dateOrder);
export const Policy = z.object({
  id: z.number(),
  carrier: Ref.nullable(),
  product_type: z.string(),
  plan_name: z.string().nullable(),
  policy_number: z.string().nullable(),
  premium_cents: z.number().nullable(),
  status: z.string(),
  effective_date: z.string().nullable(),
  termination_date: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const SECURITY_KINDS = ['annuity', 'ira', 'roth_ira', '401k', 'brokerage', 'cd', 'savings', 'other'] as const;
const SecurityFields = {
  kind: z.enum(SECURITY_KINDS),
  institution: opt(200),
  account_last4: z
    .string()
    .regex(/^\d{4}$/, 'must be the last 4 digits')
    .nullable()
    .optional(),
  value_cents: cents.nullable().optional(),
  notes: opt(5000),
};
export const SecurityBody = z.strictObject(SecurityFields);
export const SecurityUpdateBody = z.strictObject({ ...SecurityFields, kind: SecurityFields.kind.optional() });
export const Security = z.object({
  id: z.number(),
  kind: z.string(),
  institution: z.string().nullable(),
  account_last4: z.string().nullable(),
  value_cents: z.number().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** POST /v1/contacts/{id}/files: one file part. */
export const ContactFileForm = z.object({ file: z.file() });

export const NoteList = dataList(Note);
export const ContactFileList = dataList(ContactFile);
export const PolicyList = dataList(Policy);
export const SecurityList = dataList(Security);
const RowId = z.coerce.number().int().positive();
export const NoteParams = ContactParams.extend({ noteId: RowId });
export const FileParams = ContactParams.extend({ fileId: RowId });
export const PolicyParams = ContactParams.extend({ policyId: RowId });
export const SecurityParams = ContactParams.extend({ securityId: RowId });
