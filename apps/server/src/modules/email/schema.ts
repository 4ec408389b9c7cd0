/**
 * Email: the admin's templates (the spec's "broadcast emails", /v1/admin/emails). Their HTML is sanitised when saved
 * and again when rendered (docs/decisions/email.md).
 */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../../platform/db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const emailTemplates = pgTable(
  'email_templates',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    subject: text('subject').notNull(),
    /** Sanitised HTML with merge fields such as {{first_name}}. */
    bodyHtml: text('body_html').notNull(),
    category: text('category').notNull().default('other'),
    /** Inactive templates stay for the record but are not offered to agents. */
    active: boolean('active').notNull().default(true),
    createdBy: integer('created_by'),
    updatedBy: integer('updated_by'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('email_templates_company').on(t.companyId, t.id).where(sql`deleted_at is null`)],
);
