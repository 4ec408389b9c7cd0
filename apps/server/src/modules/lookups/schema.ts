/**
 * Per-company lookups the contacts book refers to: statuses, agent-flow statuses (grouped), sources, carriers,
 * API (lead) vendors, groups and pools. Admin screens manage them; contacts point at them by id.
 */

import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';

const companyId = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id);
const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const statuses = pgTable(
  'statuses',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: text('name').notNull(),
    color: text('color').notNull().default('gray'),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('statuses_company_name').on(t.companyId, sql`lower(${t.name})`)],
);

export const agentflowStatusGroups = pgTable('agentflow_status_groups', {
  id: serial('id').primaryKey(),
  companyId: companyId(),
  name: text('name').notNull(),
  position: integer('position').notNull().default(0),
  createdAt: createdAt(),
});

export const agentflowStatuses = pgTable(
  'agentflow_statuses',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    groupId: integer('group_id').references(() => agentflowStatusGroups.id),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [index('agentflow_statuses_company').on(t.companyId)],
);

export const sources = pgTable(
  'sources',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: text('name').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('sources_company_name').on(t.companyId, sql`lower(${t.name})`)],
);

export const carriers = pgTable(
  'carriers',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: text('name').notNull(),
    naic: text('naic'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('carriers_company_name').on(t.companyId, sql`lower(${t.name})`)],
);

/** Lead vendors (import form's api_vendor_obj: vendor_name + vendor_type). */
export const apiVendors = pgTable(
  'api_vendors',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    vendorName: text('vendor_name').notNull(),
    vendorType: text('vendor_type').notNull().default('lead'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_vendors_company_name').on(t.companyId, sql`lower(${t.vendorName})`)],
);

export const groups = pgTable(
  'groups',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('groups_company_name').on(t.companyId, sql`lower(${t.name})`)],
);

/** A pool is a shared book: its holders see its contacts as their own. */
export const pools = pgTable(
  'pools',
  {
    id: serial('id').primaryKey(),
    companyId: companyId(),
    name: text('name').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('pools_company_name').on(t.companyId, sql`lower(${t.name})`)],
);

export const poolHolders = pgTable(
  'pool_holders',
  {
    poolId: integer('pool_id')
      .notNull()
      .references(() => pools.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.poolId, t.userId] }), index('pool_holders_user').on(t.userId)],
);
