/**
 * Imports: one attempt per uploaded file, its staging rows (COPY target; set-based SQL classifies and writes them
 * to contacts), and saved column mappings (import settings).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const importAttempts = pgTable(
  'import_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /**
     * The id people see and put in URLs (/contacts/imports/{number}, the routes' {id}): counted per company by the
     * trigger import_attempts_number (docs/decisions/per-company-numbers.md). `id` stays internal.
     */
    number: bigint('number', { mode: 'number' }).notNull().default(0),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Who ran the import. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    ownerId: integer('owner_id').references(() => users.id),
    /** list | attachments | attachments_list */
    kind: text('kind').notNull().default('list'),
    contactType: text('contact_type').notNull().default('lead'),
    /** docs/decisions/import-attempt-statuses.md */
    status: text('status').notNull().default('pending'),
    fileName: text('file_name').notNull(),
    fileSize: bigint('file_size', { mode: 'number' }).notNull().default(0),
    /** Where the upload waits under DATA_DIR/imports until the attempt is done. */
    filePath: text('file_path'),
    /** The validated import form plus the resolved mapping, tag, vendor and pool ids. */
    options: jsonb('options').$type<Record<string, unknown>>().notNull().default({}),
    /** Where the job resumes: phase and last row committed. */
    checkpoint: jsonb('checkpoint').$type<Record<string, unknown>>().notNull().default({}),
    total: integer('total').notNull().default(0),
    processed: integer('processed').notNull().default(0),
    created: integer('created').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    /** Matched contacts the import left as they were (nothing new, or only what fill mode may not change). */
    unchanged: integer('unchanged').notNull().default(0),
    skipped: integer('skipped').notNull().default(0),
    failed: integer('failed').notNull().default(0),
    error: text('error'),
    result: jsonb('result').$type<Record<string, unknown>>().notNull().default({}),
    jobId: bigint('job_id', { mode: 'number' }),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    finishedAt: ts('finished_at'),
  },
  (t) => [
    index('import_attempts_company').on(t.companyId, t.id),
    uniqueIndex('import_attempts_company_number').on(t.companyId, t.number),
    index('import_attempts_status').on(t.status).where(sql`${t.status} in ('pending', 'processing')`),
  ],
);

/**
 * One row per data row of an attempt's file, already normalised. action: invalid | duplicate | create | update |
 * unchanged | skip (null until classified). contact_id: the contact created (id given out by classify) or matched.
 * What stays once the attempt is done: docs/decisions/import-staging-retention.md.
 */
export const importRows = pgTable(
  'import_rows',
  {
    attemptId: bigint('attempt_id', { mode: 'number' }).notNull(),
    rowNo: integer('row_no').notNull(),
    action: text('action'),
    reasons: text('reasons'),
    contactId: bigint('contact_id', { mode: 'number' }),
    firstName: text('first_name'),
    lastName: text('last_name'),
    email: text('email'),
    phone: text('phone'),
    secondaryPhone: text('secondary_phone'),
    dateOfBirth: text('date_of_birth'),
    gender: text('gender'),
    language: text('language'),
    address: text('address'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    county: text('county'),
    medicareNumber: text('medicare_number'),
    partAEffective: text('part_a_effective'),
    partBEffective: text('part_b_effective'),
    tags: text('tags'),
    attachment: text('attachment'),
    extra: jsonb('extra').$type<Record<string, string>>(),
    /** The original cells of an invalid row, for the CSV people fix and import again. */
    raw: jsonb('raw').$type<string[]>(),
    /** The key that found contact_id (phone, email, medicare_number, name_address). */
    matchedBy: text('matched_by'),
    /** Whether the match proves it is the same person (docs/decisions/import-matching-rules.md). */
    samePerson: boolean('same_person'),
    /** What the write changed on the matched contact: {field: {from, to}} (undo puts `from` back). */
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>(),
    /** The file's values not applied to the matched contact, and why: {field: {value, file, reason}}. */
    kept: jsonb('kept').$type<Record<string, { value: unknown; file: unknown; reason: string }>>(),
    /** Ids of the tags the write added to the matched contact (undo removes them). */
    tagsAdded: jsonb('tags_added').$type<number[]>(),
    /** After an undo: {outcome, skipped: {field: {from: import set, to: now}}, reason}. */
    undo: jsonb('undo').$type<Record<string, unknown>>(),
  },
  (t) => [primaryKey({ columns: [t.attemptId, t.rowNo] })],
);

export const importSettings = pgTable(
  'import_settings',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('import_settings_user').on(t.companyId, t.userId)],
);
