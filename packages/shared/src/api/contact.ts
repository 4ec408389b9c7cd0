/**
 * The single-contact part of the /v1 contacts contract (detail, create, edit, quick actions). The list, bulk and
 * transfer shapes live with the list. Bodies are strict: an unknown field is a 422, never silently ignored.
 */
import { z } from 'zod';
import { LANGUAGES, US_STATES } from '../options.js';
import { normalizePhone } from '../phone.js';
import { dataList } from './params.js';

export const CONTACT_TYPES = ['lead', 'client'] as const;
export const EMAIL_STATUSES = ['unknown', 'valid', 'invalid', 'forced'] as const;
/** What PUT activity_info records (the spec names only the `type` field). */
export const ACTIVITY_TYPES = ['call', 'email', 'text', 'meeting', 'voicemail', 'mail', 'other'] as const;

/** Medicare Beneficiary Identifier (CMS format, 11 characters; dashes allowed on input). */
const MBI = /^[1-9][AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d[AC-HJKMNP-RT-Y][AC-HJKMNP-RT-Y0-9]\d[AC-HJKMNP-RT-Y]{2}\d{2}$/;
export const normalizeMbi = (v: string) => v.replace(/[\s-]/g, '').toUpperCase();

const str = (max: number) => z.string().trim().max(max, `must be at most ${max} characters`);
const optStr = (max: number) => str(max).nullable().optional();
const id = z.number().int().positive();
const optId = id.nullable().optional();
const day = z.iso.date('must be a date (YYYY-MM-DD)');
const pastDay = day.refine((d) => d >= '1900-01-01' && d <= new Date().toISOString().slice(0, 10), {
  message: 'must be a date between 1900 and today',
});
const phone = str(30)
  .refine((v) => v === '' || normalizePhone(v) !== null, 'must be a US phone number: 10 digits, or 11 starting with 1')
  .nullable()
  .optional();

export const ContactFields = z.strictObject({
  first_name: str(100).optional(),
  last_name: str(100).optional(),
  email: z
    .union([z.literal(''), z.email('must be an email address').max(254)])
    .nullable()
    .optional(),
  phone,
  phone_type: z
    .union([z.literal(2), z.literal(9)])
    .nullable()
    .optional(),
  secondary_phone: phone,
  date_of_birth: pastDay.nullable().optional(),
  gender: z.enum(['male', 'female', 'other']).nullable().optional(),
  language: z.enum(LANGUAGES).nullable().optional(),
  address: optStr(200),
  address2: optStr(200),
  city: optStr(100),
  state: z.enum(US_STATES).nullable().optional(),
  zip: z
    .string()
    .trim()
    .regex(/^(\d{5}(-\d{4})?)?$/, 'must be a ZIP code (12345 or 12345-6789)')
    .nullable()
    .optional(),
  county: optStr(100),
  medicare_number: z
    .string()
    .refine((v) => v === '' || MBI.test(normalizeMbi(v)), 'must be a Medicare number (MBI, 11 characters)')
    .nullable()
    .optional(),
  part_a_effective: day.nullable().optional(),
  part_b_effective: day.nullable().optional(),
  status_id: optId,
  agentflow_status_id: optId,
  source_id: optId,
  api_vendor_id: optId,
  category: optStr(100),
  type: z.enum(CONTACT_TYPES).optional(),
  owner_id: id.optional(),
  pool_id: optId,
  group_id: optId,
  /** Replaces the contact's tags with these (ids of the company's tags). */
  tag_ids: z.array(id).max(50).optional(),
  note: optStr(5000),
});
export type ContactFields = z.infer<typeof ContactFields>;

export const CreateContactBody = ContactFields.refine((b) => Boolean(b.first_name?.trim() || b.last_name?.trim()), {
  message: 'a first or last name is required',
  path: ['first_name'],
});
export const UpdateContactBody = ContactFields;

/** quick_update changes exactly one field; the value is checked by that field's own rule. */
export const QUICK_FIELDS = [
  'status_id',
  'agentflow_status_id',
  'source_id',
  'category',
  'type',
  'group_id',
  'phone',
  'email',
  'language',
  'gender',
] as const;
export const ContactQuickUpdateBody = z.strictObject({
  field: z.enum(QUICK_FIELDS),
  value: z.union([z.string(), z.number(), z.null()]),
});

export const UpdateNoteBody = z.strictObject({ note: str(5000).nullable() });
export const LinkedContactBody = z.strictObject({ linked_contact_id: id.nullable() });
export const ActivityInfoBody = z.strictObject({
  type: z.enum(ACTIVITY_TYPES),
  description: optStr(1000),
});
export const ShowContactQuery = z.strictObject({
  not_remove_new_tag: z.enum(['true', 'false', '1', '0']).optional(),
});

/** Data capture answers: a flat list of question/answer pairs (the spec names only `data_captures`). */
export const DataCaptureEntry = z.strictObject({
  key: str(100).min(1),
  label: optStr(200),
  value: z.union([str(2000), z.number(), z.boolean(), z.null()]),
});
export const DataCaptureBody = z.strictObject({ data_captures: z.array(DataCaptureEntry).max(200) });

export const RxEntry = z.strictObject({
  drug_name: str(200).min(1, 'is required'),
  dosage: optStr(100),
  frequency: optStr(100),
  quantity: z.number().int().min(0).max(10_000).nullable().optional(),
  pharmacy: optStr(200),
  prescriber: optStr(200),
  notes: optStr(1000),
});
export const RxDetailsBody = z.strictObject({ rx_details: z.array(RxEntry).max(200) });

const Ref = z.object({ id: z.number(), name: z.string() });
export const TagRef = z.object({ id: z.number(), name: z.string(), color: z.string() });

export const TimelineEntry = z.object({
  id: z.number(),
  kind: z.string(),
  data: z.record(z.string(), z.unknown()),
  actor: Ref.nullable(),
  created_at: z.string(),
});

export const ContactDetail = z.object({
  id: z.number(),
  number: z.number(),
  type: z.enum(CONTACT_TYPES),
  first_name: z.string(),
  last_name: z.string(),
  full_name: z.string(),
  email: z.string().nullable(),
  email_status: z.enum(EMAIL_STATUSES),
  /** Formatted 1-xxx-xxx-xxxx (spec §5). */
  phone: z.string().nullable(),
  phone_type: z.number().nullable(),
  secondary_phone: z.string().nullable(),
  date_of_birth: z.string().nullable(),
  age: z.number().nullable(),
  gender: z.string().nullable(),
  gender_label: z.string().nullable(),
  language: z.string().nullable(),
  address: z.string().nullable(),
  address2: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zip: z.string().nullable(),
  county: z.string().nullable(),
  medicare_number: z.string().nullable(),
  part_a_effective: z.string().nullable(),
  part_b_effective: z.string().nullable(),
  status: z.object({ id: z.number(), name: z.string(), color: z.string() }).nullable(),
  agentflow_status: z.object({ id: z.number(), name: z.string(), group_name: z.string().nullable() }).nullable(),
  source: Ref.nullable(),
  api_vendor: Ref.nullable(),
  category: z.string().nullable(),
  owner: Ref.nullable(),
  pool: Ref.nullable(),
  group: Ref.nullable(),
  tags: z.array(TagRef),
  linked_contact: z.object({ id: z.number(), number: z.number(), name: z.string() }).nullable(),
  note: z.string().nullable(),
  is_new: z.boolean(),
  last_activity: z.object({ type: z.string(), at: z.string() }).nullable(),
  deleted_at: z.string().nullable(),
  created_at: z.string(),
  updated_at: z.string(),
  /** The newest events first (at most 100; the full history stays in the database). */
  timeline: z.array(TimelineEntry),
});
export type ContactDetail = z.infer<typeof ContactDetail>;

export const EmailValidation = z.object({
  email_status: z.enum(EMAIL_STATUSES),
  valid: z.boolean(),
  reasons: z.array(z.string()),
  suggestion: z.string().nullable(),
  /** Always false: the check is offline (syntax and domain heuristics); no mailbox or MX lookup is made. */
  mailbox_checked: z.boolean(),
  contact: ContactDetail,
});

export const TransferHistoryEntry = z.object({
  id: z.number(),
  attempt_id: z.number(),
  from_user: Ref.nullable(),
  to_user: Ref.nullable(),
  status: z.string(),
  reverted: z.boolean(),
  created_at: z.string(),
});

export const DataCaptureReply = z.object({
  data_captures: z.array(DataCaptureEntry),
  updated_at: z.string().nullable(),
});
export const RxDetailsReply = z.object({ rx_details: z.array(RxEntry), updated_at: z.string().nullable() });
export const TransferHistoryList = dataList(TransferHistoryEntry);
