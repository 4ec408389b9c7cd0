/**
 * The contacts book. Sized for a million contacts per company: every hot list path has a keyset index that starts
 * with company_id. Search text lives apart, in `contact_search` (see below), so bulk writes to contacts (transfers,
 * group and status changes) never rewrite a trigram index.
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';
import { agentflowStatuses, apiVendors, carriers, groups, pools, sources, statuses } from '../lookups/schema.js';

const companyId = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id);
const contactId = () =>
  bigint('contact_id', { mode: 'number' })
    .notNull()
    .references(() => contacts.id);
const ts = (name: string) => timestamp(name, { withTimezone: true });

export const contacts = pgTable(
  'contacts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    /**
     * The public number in /contacts/{number}; unique within the company and counted per company (100001, 100002,
     * ...), so it tells nothing about other companies. The default 0 means "not chosen": the BEFORE INSERT trigger
     * contacts_number draws the next one from the company's own sequence (docs/decisions/per-company-numbers.md).
     */
    number: bigint('number', { mode: 'number' }).notNull().default(0),
    ownerId: integer('owner_id').references(() => users.id),
    poolId: integer('pool_id').references(() => pools.id),
    groupId: integer('group_id').references(() => groups.id),
    /** lead or client. */
    type: text('type').notNull().default('lead'),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    email: text('email'),
    /** unknown | valid | invalid | forced (an agent vouched for it). */
    emailStatus: text('email_status').notNull().default('unknown'),
    /** 11 digits with the leading 1 (spec §5); shown formatted 1-xxx-xxx-xxxx. */
    phone: text('phone'),
    /** Phone type: 2 Mobile, 9 Other. */
    phoneType: smallint('phone_type'),
    secondaryPhone: text('secondary_phone'),
    dateOfBirth: date('date_of_birth'),
    gender: text('gender'),
    language: text('language'),
    address: text('address'),
    address2: text('address2'),
    city: text('city'),
    state: text('state'),
    zip: text('zip'),
    county: text('county'),
    medicareNumber: text('medicare_number'),
    partAEffective: date('part_a_effective'),
    partBEffective: date('part_b_effective'),
    statusId: integer('status_id').references(() => statuses.id),
    agentflowStatusId: integer('agentflow_status_id').references(() => agentflowStatuses.id),
    sourceId: integer('source_id').references(() => sources.id),
    apiVendorId: integer('api_vendor_id').references(() => apiVendors.id),
    category: text('category'),
    linkedContactId: bigint('linked_contact_id', { mode: 'number' }),
    /** The short note on the contact card (PATCH update_note); the notes list is the separate `notes` table. */
    note: text('note'),
    /** Shown as a "new" tag until someone opens the contact (GET ?not_remove_new_tag keeps it). */
    isNew: boolean('is_new').notNull().default(true),
    /** Fields a list brought that have no column of their own. */
    extra: jsonb('extra').$type<Record<string, unknown>>().notNull().default({}),
    /** Month and day of birth as MMDD (e.g. 314 for March 14): the dashboard finds coming birthdays by index. */
    birthMmdd: smallint('birth_mmdd').generatedAlwaysAs(
      sql`(extract(month from date_of_birth) * 100 + extract(day from date_of_birth))::smallint`,
    ),
    createdBy: integer('created_by'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('contacts_company_number').on(t.companyId, t.number),
    // The list's keyset indexes cover live contacts only (the deleted view has its own small index), and the
    // name index carries owner and pool after the unique id, so a page and its count are index-only scans that
    // check visibility without visiting the table (bench/contacts.ts).
    index('contacts_owner_name')
      .on(t.companyId, t.ownerId, t.lastName, t.firstName, t.id)
      .where(sql`deleted_at is null`),
    // Dates of birth and Part B last: the Medicare date filters (turning 65, Medigap OE) test them while walking a
    // page in name order without visiting the table (bench/calendar.ts: 25 ms -> 0.4 ms at a million contacts).
    index('contacts_company_name')
      .on(t.companyId, t.lastName, t.firstName, t.id, t.ownerId, t.poolId, t.dateOfBirth, t.partBEffective)
      .where(sql`deleted_at is null`),
    index('contacts_birthdays').on(t.companyId, t.birthMmdd).where(sql`deleted_at is null and birth_mmdd is not null`),
    // The Medicare date filters (turning 65, Medigap open enrollment) are range scans of these two.
    index('contacts_date_of_birth')
      .on(t.companyId, t.dateOfBirth)
      .where(sql`deleted_at is null and date_of_birth is not null`),
    index('contacts_part_b')
      .on(t.companyId, t.partBEffective)
      .where(sql`deleted_at is null and part_b_effective is not null`),
    index('contacts_deleted').on(t.companyId, t.deletedAt).where(sql`deleted_at is not null`),
    // Most contacts are in no pool: a partial index holds only those that are, so a transfer writes no entry here.
    index('contacts_pool').on(t.poolId).where(sql`pool_id is not null`),
    index('contacts_company_phone').on(t.companyId, t.phone),
    index('contacts_company_email').on(t.companyId, sql`lower(${t.email})`),
  ],
);

/**
 * What `q` searches, one narrow row per contact: name and email folded (lower case, accents removed with unaccent:
 * "José Muñoz" is stored as "jose munoz") and the digits of both phones, each word between spaces so a 7-digit
 * query can match the end of a number. Triggers on contacts keep it true (migration contact_search_triggers): a
 * set-based insert per INSERT statement, a row update only when a searched column really changed, a delete with
 * the contact. Kept apart so the wide, often bulk-updated contacts row carries no trigram index.
 */
export const contactSearch = pgTable(
  'contact_search',
  {
    contactId: bigint('contact_id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id').notNull(),
    search: text('search').notNull(),
  },
  (t) => [index('contact_search_trgm').using('gin', sql`${t.search} gin_trgm_ops`)],
);

export const tags = pgTable(
  'tags',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: text('name').notNull(),
    color: text('color').notNull().default('blue'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tags_company_name').on(t.companyId, sql`lower(${t.name})`)],
);

export const contactTags = pgTable(
  'contact_tags',
  {
    contactId: contactId(),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.tagId] }), index('contact_tags_tag').on(t.tagId, t.contactId)],
);

export const notes = pgTable(
  'notes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: contactId(),
    body: text('body').notNull(),
    authorId: integer('author_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('notes_contact').on(t.contactId, t.id)],
);

export const contactFiles = pgTable(
  'contact_files',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: contactId(),
    name: text('name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    /** Key in the storage port (local disk or S3-compatible). */
    storageKey: text('storage_key').notNull(),
    uploadedBy: integer('uploaded_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('contact_files_contact').on(t.contactId, t.id)],
);

export const policies = pgTable(
  'policies',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: contactId(),
    carrierId: integer('carrier_id').references(() => carriers.id),
    /** e.g. medicare_advantage, medigap, part_d, life, final_expense, annuity. */
    productType: text('product_type').notNull(),
    planName: text('plan_name'),
    policyNumber: text('policy_number'),
    premiumCents: integer('premium_cents'),
    status: text('status').notNull().default('pending'),
    effectiveDate: date('effective_date'),
    terminationDate: date('termination_date'),
    notes: text('notes'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('policies_contact').on(t.contactId, t.id)],
);

export const securities = pgTable(
  'securities',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: contactId(),
    /** e.g. annuity, ira, 401k, brokerage, cd. */
    kind: text('kind').notNull(),
    institution: text('institution'),
    accountLast4: text('account_last4'),
    valueCents: bigint('value_cents', { mode: 'number' }),
    notes: text('notes'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('securities_contact').on(t.contactId, t.id)],
);

/** Data capture answers and Rx details: one document each per contact. */
export const contactDocuments = pgTable(
  'contact_documents',
  {
    contactId: contactId(),
    /** data_capture | rx_details */
    kind: text('kind').notNull(),
    companyId: companyId(),
    data: jsonb('data').$type<unknown>().notNull(),
    updatedBy: integer('updated_by'),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.contactId, t.kind] })],
);

/** The timeline: everything that happened to a contact (created, edited, tagged, transferred, merged, ...). */
export const contactEvents = pgTable(
  'contact_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: companyId(),
    contactId: contactId(),
    kind: text('kind').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    actorId: integer('actor_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('contact_events_contact').on(t.contactId, t.id)],
);

/** A merge keeps one contact; the other's sub-records move to it and a snapshot of the merged row is kept here. */
export const contactMerges = pgTable('contact_merges', {
  id: serial('id').primaryKey(),
  companyId: companyId(),
  keptContactId: bigint('kept_contact_id', { mode: 'number' }).notNull(),
  mergedContactId: bigint('merged_contact_id', { mode: 'number' }).notNull(),
  snapshot: jsonb('snapshot').$type<Record<string, unknown>>().notNull(),
  mergedBy: integer('merged_by'),
  createdAt: ts('created_at').notNull().defaultNow(),
});

export const quickFilters = pgTable(
  'quick_filters',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [index('quick_filters_user').on(t.userId)],
);
