import { sql } from 'drizzle-orm';
import { bigint, bigserial, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The domain-event outbox: a write records "something happened" here in its own transaction, so the event exists
 * exactly when the change does. The dispatcher (outbox.ts) delivers it to every subscriber of its type and marks it
 * dispatched; dispatched events are removed after a week (they are not the audit log or the timeline).
 */
export const domainEvents = pgTable(
  'domain_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id'),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    actorId: integer('actor_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /** Set once every subscriber has it (or has given up on it). */
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    /** A dispatcher's lease: another process leaves the event alone until it runs out. */
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lastError: text('last_error'),
  },
  (t) => [
    index('domain_events_pending').on(t.nextAttemptAt, t.id).where(sql`dispatched_at is null`),
    index('domain_events_dispatched').on(t.dispatchedAt).where(sql`dispatched_at is not null`),
  ],
);

/**
 * Per-subscriber idempotency: a subscriber's work on an event commits together with this row, so a retried event
 * never reaches a subscriber that already has it. `dead`: the subscriber failed every attempt (kept with the error).
 */
export const domainEventDeliveries = pgTable(
  'domain_event_deliveries',
  {
    subscriber: text('subscriber').notNull(),
    eventId: bigint('event_id', { mode: 'number' })
      .notNull()
      .references(() => domainEvents.id, { onDelete: 'cascade' }),
    /** done | dead */
    status: text('status').notNull().default('done'),
    error: text('error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.eventId, t.subscriber] })],
);
