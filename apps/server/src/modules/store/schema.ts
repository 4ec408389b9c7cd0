/** The store (routes.md `store`) and its orders, which admins manage (/v1/admin/order_management). */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
} from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';
import { cardCharges } from '../account/schema.js';

export const storeItems = pgTable(
  'store_items',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    /** Cents, per order or per contact (`pricing`). */
    price: bigint('price', { mode: 'number' }).notNull(),
    /** per_order | per_contact */
    pricing: text('pricing').notNull().default('per_order'),
    monthsCount: integer('months_count'),
    active: boolean('active').notNull().default(true),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('store_items_company').on(t.companyId),
    check('store_items_price', sql`${t.price} > 0`),
    check('store_items_pricing', sql`${t.pricing} in ('per_order', 'per_contact')`),
  ],
);

export const storeOrders = pgTable(
  'store_orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    itemId: integer('item_id')
      .notNull()
      .references(() => storeItems.id),
    quantity: integer('quantity').notNull().default(1),
    /** The contacts search the order was placed for (the list's filters), and how many contacts it matched. */
    contactsScope: jsonb('contacts_scope').$type<Record<string, unknown>>(),
    contactsCount: integer('contacts_count'),
    amount: bigint('amount', { mode: 'number' }).notNull(),
    notes: text('notes'),
    /** new | processing | fulfilled | cancelled */
    adminStatus: text('admin_status').notNull().default('new'),
    chargeId: bigint('charge_id', { mode: 'number' })
      .notNull()
      .references(() => cardCharges.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('store_orders_company').on(t.companyId, t.id),
    index('store_orders_user').on(t.userId, t.id),
    check('store_orders_admin_status', sql`${t.adminStatus} in ('new', 'processing', 'fulfilled', 'cancelled')`),
  ],
);
