import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { companies } from '../../platform/db/schema.js';

/** A company's offices: one main office at most (partial unique index), any number of branches. */
export const officeLocations = pgTable(
  'office_locations',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    officeType: text('office_type').notNull().default('branch'),
    address: text('address'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    phone: text('phone'),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('office_locations_company').on(t.companyId),
    uniqueIndex('office_locations_one_main')
      .on(t.companyId)
      .where(sql`${t.officeType} = 'main' AND ${t.deletedAt} IS NULL`),
  ],
);
