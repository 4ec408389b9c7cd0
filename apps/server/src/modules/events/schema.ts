/**
 * Calendar events and their history. Sized for a million events per company: a month view is one range scan of
 * (user_id, starts_at) (events last at most EVENT_MAX_DAYS, so the scan can start that far before the range), the
 * today queue one scan of the open events by (user_id, due_at), reminders one scan of the pending ones by time.
 */
import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { companies, users } from '../../platform/db/schema.js';
import { contacts } from '../contacts/schema.js';

const ts = (name: string) => timestamp(name, { withTimezone: true });

export const calendarEvents = pgTable(
  'calendar_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    /** Whose calendar the event is on. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    contactId: bigint('contact_id', { mode: 'number' }).references(() => contacts.id),
    /** appointment | follow_up | call_back | birthday | task | meeting | reminder | other (EVENT_TYPES). */
    type: text('type').notNull(),
    title: text('title').notNull(),
    description: text('description'),
    /**
     * Whether `description` is set, kept by PostgreSQL. The range index carries it (not the description itself: up to
     * 5,000 characters, too long for an index entry), so a month view reads a description's row only when it has one.
     */
    hasDescription: boolean('has_description').generatedAlwaysAs(sql`description is not null`),
    location: text('location'),
    startsAt: ts('starts_at').notNull(),
    endsAt: ts('ends_at').notNull(),
    allDay: boolean('all_day').notNull().default(false),
    /** When the today queue shows it: the start, or the time it was snoozed to. */
    dueAt: ts('due_at').notNull(),
    snoozedUntil: ts('snoozed_until'),
    doneAt: ts('done_at'),
    /** What an appointment is about (SOA_PRODUCTS); Medicare Advantage and Part D bring the 48-hour rule. */
    products: text('products').array().notNull().default(sql`'{}'::text[]`),
    /** The signed SOA the appointment relied on, and the exception to the 48-hour rule the agent claimed. */
    soaRequestId: bigint('soa_request_id', { mode: 'number' }),
    soaException: text('soa_exception'),
    reminderMinutes: integer('reminder_minutes'),
    /** The reminder goes by email too (it always shows in the app). */
    reminderEmail: boolean('reminder_email').notNull().default(false),
    /** starts_at - reminder_minutes; the reminders job sends what is due and sets reminded_at. */
    remindAt: ts('remind_at'),
    remindedAt: ts('reminded_at'),
    createdBy: integer('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    // Covering: every column a range view answers but the description follows (user_id, starts_at), so a month view
    // is an index-only scan of a few adjacent pages instead of a heap page per event (a user's events lie scattered
    // across the heap). Ordered by id within a start, as the views are; trailing keys cost an insert nothing in
    // comparisons (the leading ones decide), only width (docs/decisions/events-calendar.md).
    index('calendar_events_user_start').on(
      t.userId,
      t.startsAt,
      t.id,
      t.endsAt,
      t.companyId,
      t.contactId,
      t.type,
      t.title,
      t.location,
      t.allDay,
      t.dueAt,
      t.snoozedUntil,
      t.doneAt,
      t.products,
      t.soaRequestId,
      t.soaException,
      t.reminderMinutes,
      t.reminderEmail,
      t.createdAt,
      t.updatedAt,
      t.hasDescription,
    ),
    index('calendar_events_queue').on(t.userId, t.dueAt).where(sql`done_at is null`),
    index('calendar_events_contact').on(t.contactId, t.startsAt).where(sql`contact_id is not null`),
    index('calendar_events_reminders')
      .on(t.remindAt)
      .where(sql`remind_at is not null and reminded_at is null and done_at is null`),
  ],
);

/**
 * What changed on a calendar, newest first (GET /v1/events/calendar_history). Kept when the event is deleted, so
 * no foreign key to it; `changes` is {field: {from, to}} as on the contact timeline.
 */
export const calendarEventChanges = pgTable(
  'calendar_event_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id')
      .notNull()
      .references(() => companies.id),
    eventId: bigint('event_id', { mode: 'number' }).notNull(),
    /** The calendar's owner (the event's user at the time). */
    userId: integer('user_id').notNull(),
    actorId: integer('actor_id'),
    action: text('action').notNull(),
    title: text('title').notNull(),
    changes: jsonb('changes').$type<Record<string, { from: unknown; to: unknown }>>().notNull().default({}),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [
    index('calendar_event_changes_user').on(t.userId, t.id),
    index('calendar_event_changes_event').on(t.eventId, t.id),
  ],
);
