/**
 * The /v1 contract of the imports area (routes.md "imports"): the import form, previews, attempts, settings and the
 * live progress message of ContactsImportChannel.
 */
import { z } from 'zod';
import { PageMeta } from './paging.js';
import { TagInput } from './tag-input.js';

/** Contact fields a list column can be mapped to; 'extra' keeps the value under its header, 'ignore' drops it. */
export const IMPORT_FIELDS = [
  { key: 'first_name', label: 'First name' },
  { key: 'last_name', label: 'Last name' },
  { key: 'full_name', label: 'Full name' },
  { key: 'email', label: 'Email' },
  { key: 'phone', label: 'Phone' },
  { key: 'secondary_phone', label: 'Secondary phone' },
  { key: 'date_of_birth', label: 'Date of birth' },
  { key: 'gender', label: 'Gender' },
  { key: 'language', label: 'Language' },
  { key: 'address', label: 'Address' },
  { key: 'address2', label: 'Address line 2' },
  { key: 'city', label: 'City' },
  { key: 'state', label: 'State' },
  { key: 'zip', label: 'Zip code' },
  { key: 'county', label: 'County' },
  { key: 'medicare_number', label: 'Medicare number' },
  { key: 'part_a_effective', label: 'Part A effective' },
  { key: 'part_b_effective', label: 'Part B effective' },
  { key: 'tags', label: 'Tags (comma separated)' },
  { key: 'attachment', label: 'Attachment file name' },
  { key: 'extra', label: 'Keep as extra field' },
  { key: 'ignore', label: 'Do not import' },
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number]['key'];
export const IMPORT_FIELD_KEYS = IMPORT_FIELDS.map((f) => f.key) as [ImportField, ...ImportField[]];

export const IMPORT_ATTEMPT_STATUSES = ['pending', 'processing', 'completed', 'failed', 'cancelled'] as const;
export type ImportAttemptStatus = (typeof IMPORT_ATTEMPT_STATUSES)[number];

/** Keys the existing book is scrubbed by (and duplicates inside the file are found by). */
export const SCRUB_KEYS = ['phone', 'email', 'name_address'] as const;
export type ScrubKey = (typeof SCRUB_KEYS)[number];

/** The import form (spec §3): multipart text fields, objects and arrays sent as JSON strings. */
export const ImportForm = z.object({
  type: z.enum(['lead', 'client']).default('lead'),
  owner: z.coerce.number().int().positive().optional(),
  tags: z.array(TagInput).max(50).default([]),
  pool: z.coerce.number().int().positive().optional(),
  scrub_against: z
    .object({
      by: z.array(z.enum(SCRUB_KEYS)).min(1).default(['phone', 'email']),
      on_match: z.enum(['update', 'skip']).default('update'),
    })
    .optional(),
  updated_lead_tags: z.array(TagInput).max(50).default([]),
  api_vendor_obj: z
    .object({ vendor_name: z.string().trim().min(1).max(120), vendor_type: z.string().trim().min(1).max(60) })
    .optional(),
  api_vendor_id: z.coerce.number().int().positive().optional(),
  /** Column header -> contact field; columns left out are inferred. */
  fields: z.record(z.string(), z.enum(IMPORT_FIELD_KEYS)).default({}),
  /** XLSX: the sheet to read (default the first). */
  sheet: z.string().max(200).optional(),
  /** validate_import only: answer the invalid rows as CSV. */
  format: z.enum(['json', 'csv']).default('json'),
});
export type ImportForm = z.infer<typeof ImportForm>;

export const ImportColumn = z.object({
  header: z.string(),
  field: z.enum(IMPORT_FIELD_KEYS),
  /** How the field was chosen: the form, the header's name, the cells' content, or nothing matched. */
  matched_by: z.enum(['form', 'header', 'content', 'none']),
  samples: z.array(z.string()),
});

export const InvalidRow = z.object({ row: z.number(), reasons: z.array(z.string()), values: z.array(z.string()) });

export const ImportPreview = z.object({
  file_name: z.string(),
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  columns: z.array(ImportColumn),
  row_count: z.number(),
  to_create: z.number(),
  to_update: z.number(),
  to_skip: z.number(),
  duplicates_in_file: z.number(),
  invalid_count: z.number(),
  invalid: z.array(InvalidRow),
  /** True when more invalid rows exist than `invalid` lists (the CSV download has them all). */
  invalid_truncated: z.boolean(),
});
export type ImportPreview = z.infer<typeof ImportPreview>;

export const ImportAttempt = z.object({
  id: z.number(),
  status: z.enum(IMPORT_ATTEMPT_STATUSES),
  kind: z.enum(['list', 'attachments', 'attachments_list']),
  contact_type: z.enum(['lead', 'client']),
  file_name: z.string(),
  file_size: z.number(),
  user: z.object({ id: z.number(), name: z.string() }).nullable(),
  owner_id: z.number().nullable(),
  total: z.number(),
  processed: z.number(),
  created: z.number(),
  updated: z.number(),
  skipped: z.number(),
  failed: z.number(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportAttempt = z.infer<typeof ImportAttempt>;

export const ImportAttemptsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(15),
  page: z.coerce.number().int().min(1).default(1),
  filter_by: z.enum(['file_name', 'status', 'user', 'type']).optional(),
  filter_value: z.string().max(200).optional(),
  /** all | active (pending, processing) | completed | failed */
  tab: z.enum(['all', 'active', 'completed', 'failed']).default('all'),
});

export const ImportAttemptList = z.object({
  data: z.array(ImportAttempt),
  meta: PageMeta.extend({ counts: z.record(z.string(), z.number()) }),
});

export const ImportSetting = z.object({
  id: z.number(),
  name: z.string(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});
export const ImportSettingBody = z.object({
  name: z.string().trim().min(1).max(120),
  data: z.record(z.string(), z.unknown()).refine((d) => JSON.stringify(d).length <= 20_000, 'is too large'),
});

export const WorkersStatus = z.object({
  processing: z.boolean(),
  running: z.number(),
  waiting: z.number(),
});

export const AttachmentsReport = z.object({
  matched: z.array(z.object({ file: z.string(), contact_id: z.number() })),
  unmatched: z.array(z.string()),
});

/** ContactsImportChannel message: the client updates the attempt with this id, or adds it. */
export const ImportProgressMessage = z.object({
  id: z.number(),
  status: z.enum(IMPORT_ATTEMPT_STATUSES),
  file_name: z.string(),
  processed: z.number(),
  total: z.number(),
  created: z.number(),
  updated: z.number(),
  skipped: z.number(),
  failed: z.number(),
  /** While the file is still being read (total not known yet): the rows read so far. */
  read: z.number().optional(),
});
export type ImportProgressMessage = z.infer<typeof ImportProgressMessage>;

export const IMPORTS_CHANNEL = 'ContactsImportChannel';
