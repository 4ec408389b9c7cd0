import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from '../db/schema.js';

export interface LoginStackEntry {
  kind: string;
  user_id: number;
  name: string;
  /** The absolute end of the session this entry returns to (ISO); absent on entries written before it existed. */
  expires_at?: string;
}

/**
 * Server-side sessions. Only a SHA-256 of the cookie token is stored, so a database leak yields no usable cookie.
 * state 'otp_pending' is the half-signed-in step between password and one-time code.
 */
export const sessions = pgTable(
  'sessions',
  {
    id: serial('id').primaryKey(),
    tokenHash: text('token_hash').notNull().unique(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    state: text('state').notNull().default('active'),
    /**
     * Impersonation stack: who to return to when this session signs out, and when that person's own session ends
     * (expires_at), so returning restores its remaining time instead of starting a fresh one.
     */
    loginStack: jsonb('login_stack').$type<LoginStackEntry[]>().notNull().default([]),
    ip: text('ip'),
    userAgent: text('user_agent'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
  },
  (t) => [index('sessions_user').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('password_reset_tokens_user').on(t.userId)],
);

/** One-time codes sent by email (the alternative to an authenticator app); each works once. */
export const emailOtps = pgTable(
  'email_otps',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('email_otps_user').on(t.userId)],
);

/**
 * Failed sign-ins (passwords and codes), keyed by the login as typed, lower-cased (`email`), and the address: the
 * throttle counts them per (login, address) and per account over the last hour (modules/session/throttle.ts).
 */
export const signInFailures = pgTable(
  'sign_in_failures',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').references(() => users.id),
    email: text('email').notNull(),
    ip: text('ip'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('sign_in_failures_user_time').on(t.userId, t.createdAt),
    index('sign_in_failures_login_ip_time').on(t.email, t.ip, t.createdAt),
  ],
);

/**
 * API keys: only the SHA-256 of the token is stored (shown once at creation or refresh). A key acts as its owner with
 * exactly the owner's permissions; revoked_at set = refused on the next request (no cache in between).
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    tokenPrefix: text('token_prefix').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('api_keys_user').on(t.userId)],
);

/**
 * Two-factor recovery codes: ten per user, each works once at the code step. A code is `lookup-secret`: the lookup
 * (4 characters) is stored as is to find the row, the secret part only as an argon2id hash with its own salt
 * (ASVS 6.5.2: lookup secrets under 112 bits are stored with a password hash).
 */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    lookup: text('lookup').notNull(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('recovery_codes_user_lookup').on(t.userId, t.lookup)],
);
