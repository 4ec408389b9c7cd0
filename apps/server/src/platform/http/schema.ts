import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Idempotency keys of write routes that move money or send messages (`config.idempotent`): per user and key, the
 * request's fingerprint and, once answered, the stored answer. Kept 24 hours (an hourly job removes older ones).
 */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    userId: integer('user_id').notNull(),
    key: text('key').notNull(),
    companyId: integer('company_id').notNull(),
    /** sha256 of method, path and the validated body: the same key with another request is a 409. */
    requestHash: text('request_hash').notNull(),
    /** running | done */
    status: text('status').notNull().default('running'),
    responseStatus: integer('response_status'),
    responseType: text('response_type'),
    responseBody: text('response_body'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] })],
);
