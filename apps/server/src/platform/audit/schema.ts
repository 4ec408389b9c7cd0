import { index, integer, jsonb, pgTable, serial, text, timestamp } from 'drizzle-orm/pg-core';

/** Security events (sign-in, failures, password and two-factor changes, impersonation). Append-only. */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: serial('id').primaryKey(),
    companyId: integer('company_id'),
    userId: integer('user_id'),
    actorId: integer('actor_id'),
    /** Set while impersonating: the user whose session it was; actor_id is then the person at the keyboard. */
    onBehalfOf: integer('on_behalf_of'),
    event: text('event').notNull(),
    ip: text('ip'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('audit_events_company_time').on(t.companyId, t.createdAt), index('audit_events_user').on(t.userId)],
);
