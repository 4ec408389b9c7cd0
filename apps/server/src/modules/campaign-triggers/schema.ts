/** Campaign triggers (spec document 2 §3; docs/decisions/campaign-triggers.md). */
import { sql } from 'drizzle-orm';
import { bigserial, boolean, date, index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies } from '../../platform/db/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const campaignTriggers = pgTable(
  'campaign_triggers',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    name: text('name').notNull(),
    description: text('description'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    body: text('body'),
    /** email | sms */
    triggerType: text('trigger_type').notNull(),
    category: text('category').notNull().default('other'),
    /** manual | birthday | turning_65 | aep_start | ma_oep_start */
    trigger: text('trigger').notNull().default('manual'),
    enabled: boolean('enabled').notNull().default(true),
    compliant: boolean('compliant').notNull().default(false),
    global: boolean('global').notNull().default(true),
    autoTrigger: boolean('auto_trigger').notNull().default(false),
    showOnBulk: boolean('show_on_bulk').notNull().default(true),
    showOnConversation: boolean('show_on_conversation').notNull().default(false),
    showOnEvent: boolean('show_on_event').notNull().default(false),
    /** none | yearly */
    recurrence: text('recurrence').notNull().default('none'),
    emailIds: integer('email_ids').array().notNull().default(sql`'{}'::integer[]`),
    corporationIds: integer('corporation_ids').array().notNull().default(sql`'{}'::integer[]`),
    smsTriggerIds: integer('sms_trigger_ids').array().notNull().default(sql`'{}'::integer[]`),
    /** The attachment (storage key; name, type and size for people). */
    fileKey: text('file_key'),
    fileName: text('file_name'),
    fileType: text('file_type'),
    fileSize: integer('file_size'),
    /** The day of the last automatic run (in the company's day: US Eastern). */
    lastRunOn: date('last_run_on'),
    createdBy: integer('created_by'),
    deletedAt: ts('deleted_at'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('campaign_triggers_company').on(t.companyId, t.id).where(sql`deleted_at is null`)],
);

export type CampaignTriggerRow = typeof campaignTriggers.$inferSelect;
