/**
 * The /v1 contract of the imports area (routes.md "imports"): the import form, previews, attempts, settings and the
 * live progress message of ContactsImportChannel.
 */
import { z } from 'zod';
import { PageMeta } from './paging.js';
import { textPartsOf } from './params.js';
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

/** docs/decisions/import-attempt-statuses.md: `undoing` and `undone` follow `completed` when a person undoes it. */
export const IMPORT_ATTEMPT_STATUSES = [
  'pending',
  'processing',
  'completed',
  'failed',
  'cancelled',
  'undoing',
  'undone',
] as const;
export type ImportAttemptStatus = (typeof IMPORT_ATTEMPT_STATUSES)[number];

/**
 * Keys the existing book is scrubbed by (and duplicates inside the file are found by). What a match by each may
 * change: docs/decisions/import-matching-rules.md.
 */
export const SCRUB_KEYS = ['phone', 'email', 'medicare_number', 'name_address'] as const;
export type ScrubKey = (typeof SCRUB_KEYS)[number];
export const SCRUB_KEY_LABELS: Record<ScrubKey, string> = {
  phone: 'Same phone',
  email: 'Same email',
  medicare_number: 'Same Medicare number',
  name_address: 'Same name and address',
};
/**
 * What happens to a contact the file matches: `fill` (the default) only fills its blank fields, `update` replaces
 * its values with the file's, `skip` leaves it alone. Identity fields follow stricter rules whatever the mode.
 */
export const ON_MATCH = ['fill', 'update', 'skip'] as const;
export type OnMatch = (typeof ON_MATCH)[number];
/** How long an attempt's skipped and invalid rows are kept for its result page, and how long it can be undone. */
export const IMPORT_RESULT_DAYS = 30;

/** The import form (spec §3): multipart text fields, objects and arrays sent as JSON strings. */
export const ImportForm = z.object({
  type: z.enum(['lead', 'client']).default('lead'),
  owner: z.coerce.number().int().positive().optional(),
  tags: z.array(TagInput).max(50).default([]),
  pool: z.coerce.number().int().positive().optional(),
  scrub_against: z
    .object({
      by: z.array(z.enum(SCRUB_KEYS)).min(1).default(['phone', 'email', 'medicare_number']),
      on_match: z.enum(ON_MATCH).default('fill'),
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

/** A contact an import matched, as the importer may see it. */
export const MatchedContact = z.object({
  id: z.number(),
  number: z.number(),
  name: z.string(),
  owner: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** False when the contact belongs to someone other than the import's owner (said out loud in the preview). */
  owned_by_importer: z.boolean(),
});
export type MatchedContact = z.infer<typeof MatchedContact>;

/** One field an import changes (or changed): values as text, dates YYYY-MM-DD, null for blank. */
export const FieldChange = z.object({ field: z.string(), from: z.string().nullable(), to: z.string().nullable() });
export type FieldChange = z.infer<typeof FieldChange>;

/**
 * A value of the file that is not applied to the matched contact: `identity` (the match does not prove it is the same
 * person, so names, date of birth and Medicare number stay), `not_blank` (fill mode keeps what is there).
 */
export const KeptField = z.object({
  field: z.string(),
  value: z.string().nullable(),
  file_value: z.string(),
  reason: z.enum(['identity', 'not_blank']),
});
export type KeptField = z.infer<typeof KeptField>;

/** What an import does (or would do) to one matched contact. */
export const MatchPlan = z.object({
  row: z.number(),
  /** Null when the contact is outside the importer's book: it is never touched, and not shown. */
  contact: MatchedContact.nullable(),
  matched_by: z.enum(SCRUB_KEYS),
  /** True when the match proves it is the same person (docs/decisions/import-matching-rules.md). */
  same_person: z.boolean(),
  changes: z.array(FieldChange),
  kept: z.array(KeptField),
  tags_added: z.array(z.string()),
  /** Why the contact is left as it is (untouched ones only). */
  reason: z.string().nullable(),
});
export type MatchPlan = z.infer<typeof MatchPlan>;

export const SkippedRow = z.object({ row: z.number(), reasons: z.array(z.string()) });

export const ImportPreview = z.object({
  file_name: z.string(),
  sheets: z.array(z.string()),
  sheet: z.string().nullable(),
  columns: z.array(ImportColumn),
  row_count: z.number(),
  to_create: z.number(),
  to_update: z.number(),
  /** Matched contacts the import leaves as they are (nothing new for them, skip mode, outside the book). */
  unchanged: z.number(),
  to_skip: z.number(),
  duplicates_in_file: z.number(),
  invalid_count: z.number(),
  invalid: z.array(InvalidRow),
  /** True when more invalid rows exist than `invalid` lists (the CSV download has them all). */
  invalid_truncated: z.boolean(),
  on_match: z.enum(ON_MATCH).nullable(),
  /** The contacts it would change, field by field (the first 1,000). */
  changes: z.array(MatchPlan),
  /** The matched contacts it would not touch, and why (the first 1,000). */
  untouched: z.array(MatchPlan),
  matches_truncated: z.boolean(),
  /** Of the contacts it would change, how many belong to someone other than the import's owner. */
  other_owners: z.number(),
  /** Rows it would skip that match no contact (duplicates inside the file), with why (the first 1,000). */
  skipped: z.array(SkippedRow),
  /** Rows of the file that are no contact and are skipped, with why (a "Total" footer); the first 1,000. */
  skipped_rows: z.array(InvalidRow),
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
  /** Matched contacts left as they were. */
  unchanged: z.number(),
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
  /** Files whose name gives no contact. */
  unmatched: z.array(z.string()),
  /** Files not attached, and why (a kind a contact cannot hold, too large, a repeated name, over the quota). */
  refused: z.array(z.object({ file: z.string(), reason: z.string() })),
});

/** What undoing an attempt did (or would do). */
export const UndoFigures = z.object({
  /** Contacts the import created that are removed (soft: restorable like any deleted contact). */
  removed: z.number(),
  /** Contacts the import created that stay because someone worked on them since (notes, edits, transfers...). */
  kept: z.number(),
  /** Contacts the import changed whose old values come back. */
  restored: z.number(),
  fields_restored: z.number(),
  /** Fields changed again since the import (by a person or another import): left as they are now. */
  fields_skipped: z.number(),
  tags_removed: z.number(),
});

/** A field an undo leaves alone because it changed again since the import. */
export const UndoSkippedField = z.object({
  row: z.number(),
  contact: MatchedContact.nullable(),
  field: z.string(),
  import_set: z.string().nullable(),
  now: z.string().nullable(),
});

export const UndoPreview = UndoFigures.extend({
  skipped_fields: z.array(UndoSkippedField),
  kept_contacts: z.array(z.object({ row: z.number(), contact: MatchedContact.nullable(), reason: z.string() })),
  truncated: z.boolean(),
});

export const UndoSummary = UndoFigures.extend({
  by: z.object({ id: z.number(), name: z.string() }).nullable(),
  started_at: z.string(),
  finished_at: z.string().nullable(),
});

/** The result page of one attempt (GET /v1/contacts/import_attempts/{id}). */
export const ImportAttemptDetail = ImportAttempt.extend({
  scrub: z.object({ by: z.array(z.enum(SCRUB_KEYS)), on_match: z.enum(ON_MATCH) }).nullable(),
  tags: z.array(z.string()),
  owner: z.object({ id: z.number(), name: z.string() }).nullable(),
  /** Until when the skipped and invalid rows can be listed and downloaded, and the import undone. */
  kept_until: z.string().nullable(),
  /** Whether its rows are still kept (false once the retention period passed). */
  rows_available: z.boolean(),
  undo: z.object({
    available: z.boolean(),
    /** Why it cannot be undone (not completed, already undone, past the retention period, an attachments ZIP). */
    reason: z.string().nullable(),
    summary: UndoSummary.nullable(),
  }),
});
export type ImportAttemptDetail = z.infer<typeof ImportAttemptDetail>;

export const IMPORT_ROW_KINDS = ['not_imported', 'invalid', 'skipped', 'updated', 'unchanged', 'created'] as const;
export const ImportRowsQuery = z.object({
  kind: z.enum(IMPORT_ROW_KINDS).default('not_imported'),
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

export const ImportRowEntry = z.object({
  row: z.number(),
  action: z.enum(['create', 'update', 'unchanged', 'skip', 'duplicate', 'invalid']),
  reasons: z.array(z.string()),
  contact: MatchedContact.nullable(),
  matched_by: z.enum(SCRUB_KEYS).nullable(),
  same_person: z.boolean().nullable(),
  changes: z.array(FieldChange),
  tags_added: z.array(z.string()),
  /** The row's cells under the file's headers (invalid and skipped rows, while they are kept). */
  cells: z.array(z.string()).nullable(),
  /** After an undo: what became of this row's contact. */
  undo: z
    .object({
      outcome: z.enum(['removed', 'kept', 'restored', 'unchanged']),
      skipped_fields: z.array(FieldChange),
      reason: z.string().nullable(),
    })
    .nullable(),
});
export type ImportRowEntry = z.infer<typeof ImportRowEntry>;

export const ImportRowList = z.object({
  headers: z.array(z.string()),
  data: z.array(ImportRowEntry),
  meta: PageMeta,
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
  unchanged: z.number().optional(),
  /** While the file is still being read (total not known yet): the rows read so far. */
  read: z.number().optional(),
});
export type ImportProgressMessage = z.infer<typeof ImportProgressMessage>;

export const IMPORTS_CHANNEL = 'ContactsImportChannel';

/** An import's upload: the list (or ZIP) as `file`, the form's fields as text parts or all of them as JSON in `data`. */
export const ImportUploadForm = textPartsOf(ImportForm).extend({ file: z.file(), data: z.string().optional() });
/** A ZIP whose files attach to the contacts their names give. */
export const AttachmentsUploadForm = z.object({ file: z.file() });
export const AttachmentsReply = z.object({ attempt: ImportAttempt, ...AttachmentsReport.shape });
export const DeleteAttemptQuery = z.object({ remove_contacts: z.enum(['true', 'false', '1', '0']).optional() });
export const DeleteAttemptBody = z.object({ remove_contacts: z.boolean().optional() }).nullish();
export const DeleteAttemptReply = z.object({ deleted: z.literal(true), contacts_removed: z.number() });
export const ImportSettingList = z.object({ data: z.array(ImportSetting) });
