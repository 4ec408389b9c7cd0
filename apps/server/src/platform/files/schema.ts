/**
 * The file storage ledger (docs/decisions/storage-quota.md): every blob a company stores through the storage port
 * has a row here from before it is written until after it is deleted, and each company's bytes in use are kept
 * beside its quota. A blob whose row is 'pending' long after it was written, or 'deleting', is an orphan the sweeper
 * removes (a crash between the blob and its record).
 */
import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const storageUsage = pgTable('storage_usage', {
  companyId: integer('company_id')
    .primaryKey()
    .references(() => companies.id),
  /** Bytes of the company's blobs, counted when written (reserved) and released when deleted. */
  usedBytes: bigint('used_bytes', { mode: 'number' }).notNull().default(0),
  /** The company's own quota; null means the default (STORAGE_QUOTA_MB). */
  quotaBytes: bigint('quota_bytes', { mode: 'number' }),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

export const storedBlobs = pgTable(
  'stored_blobs',
  {
    key: text('key').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
    /** pending (written or being written, no record yet) | live (a record points at it) | deleting (record gone). */
    state: text('state').notNull().default('pending'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('stored_blobs_unsettled').on(t.state, t.updatedAt).where(sql`${t.state} <> 'live'`)],
);
