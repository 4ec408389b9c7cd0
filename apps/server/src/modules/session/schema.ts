import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { sessions } from '../../platform/auth/schema.js';
import { companies } from '../../platform/db/schema.js';

/**
 * A company's OpenID Connect provider (one per company), managed by its System Admin under /v1/admin/sso_connection
 * (modules/admin/sso-connection.ts). The client secret is sealed with SECRET_KEY (SecretBox).
 */
export const ssoConnections = pgTable(
  'sso_connections',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    issuer: text('issuer').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretEnc: text('client_secret_enc').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('sso_connections_company').on(t.companyId)],
);

/** Which Harbor sessions came from which provider session, so a back-channel logout can end exactly those. */
export const ssoLogins = pgTable(
  'sso_logins',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => sessions.id),
    connectionId: integer('connection_id')
      .notNull()
      .references(() => ssoConnections.id),
    sub: text('sub').notNull(),
    sid: text('sid'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('sso_logins_sub').on(t.connectionId, t.sub), index('sso_logins_sid').on(t.connectionId, t.sid)],
);
