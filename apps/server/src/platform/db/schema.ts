/**
 * Core tenancy tables: the company is the tenant; every other table carries company_id.
 * Areas keep their own tables beside their code (drizzle.config.ts collects every `schema.ts`).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

export const companies = pgTable('companies', {
  id: serial('id').primaryKey(),
  number: text('number').notNull().unique(),
  name: text('name').notNull(),
  domainName: text('domain_name').notNull().unique(),
  variant: text('variant').notNull().default('insurance'),
  /** Feature flags set for the company; unset keys fall back to the shared defaults. */
  features: jsonb('features').$type<Record<string, boolean>>().notNull().default({}),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const businessUnits = pgTable(
  'business_units',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    number: text('number').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('business_units_company_number').on(t.companyId, t.number)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    businessUnitId: integer('business_unit_id').references(() => businessUnits.id),
    /** The upline: users form a tree per company (downline = everyone below). */
    managerId: integer('manager_id'),
    /**
     * The ids from the top of the tree down to this user, inclusive. Kept by triggers on manager_id (migration
     * user_tree_path), so "me and everyone below me" is one GIN lookup (`tree_path @> ARRAY[me]`), not a walk.
     */
    treePath: integer('tree_path').array().notNull().default(sql`'{}'::integer[]`),
    number: text('number').notNull(),
    email: text('email').notNull(),
    username: text('username').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull().default(''),
    lastName: text('last_name').notNull().default(''),
    accountType: text('account_type').notNull(),
    roles: text('roles').array().notNull(),
    basic: boolean('basic').notNull().default(false),
    aris: boolean('aris').notNull().default(false),
    c1: boolean('c_1').notNull().default(false),
    tosAcceptedAt: timestamp('tos_accepted_at', { withTimezone: true }),
    changePassword: boolean('change_password').notNull().default(false),
    twoFaRequired: boolean('two_fa_required').notNull().default(false),
    otpEnabled: boolean('otp_enabled').notNull().default(false),
    /** TOTP secrets are stored encrypted (AES-256-GCM with SECRET_KEY), never sent to a browser after setup. */
    otpSecretEnc: text('otp_secret_enc'),
    otpPendingSecretEnc: text('otp_pending_secret_enc'),
    otpMethod: text('otp_method').notNull().default('app'),
    /** The last TOTP time step accepted: a code works once. */
    lastOtpStep: bigint('last_otp_step', { mode: 'number' }),
    lastOtpAt: timestamp('last_otp_at', { withTimezone: true }),
    paid: boolean('paid').notNull().default(true),
    timezone: text('timezone').notNull().default('est'),
    fontSize: text('font_size').notNull().default('default'),
    primaryColor: text('primary_color').notNull().default('orange'),
    background: text('background').notNull().default('default'),
    aboutMe: text('about_me'),
    personalPhoto: text('personal_photo'),
    logo: text('logo'),
    dialerEnabled: boolean('dialer_enabled').notNull().default(false),
    dialerVerifiedPhoneNumber: text('dialer_verified_phone_number'),
    maxPlusActive: boolean('max_plus_active').notNull().default(false),
    maxPlusPlan: text('max_plus_plan'),
    /** One of the spec's position titles (options.ts); offered by variant. */
    positionTitle: text('position_title'),
    /** The office the user works from (office_locations, issue 3); checked against the company in code. */
    officeLocationId: integer('office_location_id'),
    /** Relationship manager: listed by GET /v1/admin/users/pool_holders?only_rm=true. */
    relationshipManager: boolean('relationship_manager').notNull().default(false),
    /** The personal public page's subdomain, unique across every company because subdomains are global. */
    webpageSubdomain: text('webpage_subdomain'),
    webpage: jsonb('webpage')
      .$type<{ active?: boolean; headline?: string | null; phone?: string | null; show_email?: boolean }>()
      .notNull()
      .default({}),
    dashboard: jsonb('dashboard').$type<Record<string, unknown>>().notNull().default({}),
    /** Per-user feature overrides on top of the company's flags. */
    features: jsonb('features').$type<Record<string, boolean>>().notNull().default({}),
    passwordChangedAt: timestamp('password_changed_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('users_email_lower').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_lower').on(sql`lower(${t.username})`),
    uniqueIndex('users_company_number').on(t.companyId, t.number),
    index('users_company_manager').on(t.companyId, t.managerId),
    index('users_tree_path').using('gin', t.treePath),
    uniqueIndex('users_webpage_subdomain').on(sql`lower(${t.webpageSubdomain})`),
  ],
);

export type CompanyRow = typeof companies.$inferSelect;
export type UserRow = typeof users.$inferSelect;
