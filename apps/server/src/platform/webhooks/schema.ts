import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Signed provider callbacks, as received and verified. The provider's own event id is unique per provider: a
 * duplicated delivery (providers retry until they see a 2xx) is recognised and answered without being stored or
 * processed again. The work itself runs in a durable job; `processed_at` commits with it.
 */
export const webhookEvents = pgTable(
  'webhook_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    /** The provider's id for this event (Stripe `evt_...`, Twilio `SID:status`, SendGrid `sg_event_id`). */
    eventId: text('event_id').notNull(),
    type: text('type').notNull(),
    companyId: integer('company_id'),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
    processedAt: timestamp('processed_at', { withTimezone: true }),
    error: text('error'),
    /** Failed attempts at the work; after 8 the event is left with its error for a person to look at. */
    attempts: integer('attempts').notNull().default(0),
    /** Not worked again before this time (a failed attempt's backoff); null: ready. */
    retryAt: timestamp('retry_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('webhook_events_provider_event').on(t.provider, t.eventId),
    index('webhook_events_received').on(t.receivedAt),
    // The drain's scan: the few events not worked yet, among every event ever received.
    index('webhook_events_pending').on(t.provider, t.id).where(sql`processed_at is null`),
  ],
);
