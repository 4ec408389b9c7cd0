/**
 * The events area (crm-core §3, §7): calendar events, the today queue, a contact's events and the calendar history.
 * Range dates travel as MM/DD/YYYY (§3) and are read as whole days in the caller's time zone; an event's own times
 * are instants (ISO 8601 with an offset). Decisions: docs/decisions/events-calendar.md.
 */
import { z } from 'zod';
import { fromUsDate } from '../medicare/calendar-dates.js';
import { SOA_EXCEPTIONS, SOA_PRODUCTS } from '../medicare/soa-rule.js';
import { PageMeta } from './paging.js';

export const EVENT_TYPES = [
  'appointment',
  'follow_up',
  'call_back',
  'birthday',
  'task',
  'meeting',
  'reminder',
  'other',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EVENT_TYPE_LABELS: Record<EventType, string> = {
  appointment: 'Appointment',
  follow_up: 'Follow-up',
  call_back: 'Call back',
  birthday: 'Birthday',
  task: 'Task',
  meeting: 'Meeting',
  reminder: 'Reminder',
  other: 'Other',
};

/** The longest range a list may ask for (inclusive days): a year, leap years included. */
export const EVENT_RANGE_MAX_DAYS = 366;
/** The longest event: bounded so a range query can seek by start time (decision events-calendar.md). */
export const EVENT_MAX_DAYS = 31;
/** Rows a range answers at most; a longer list says `truncated`. */
export const EVENT_LIST_MAX = 2_000;
/** Reminder lead times offered (minutes before the start). */
export const REMINDER_CHOICES = [0, 5, 10, 15, 30, 60, 120, 1_440, 2_880] as const;

const usDate = z
  .string()
  .refine((s) => fromUsDate(s) !== null, 'must be a date MM/DD/YYYY')
  .transform((s) => fromUsDate(s)!);
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');
/** `types_list` as `a,b`, or repeated (`types_list=a&types_list=b`). */
const typesList = z
  .union([z.string(), z.array(z.string())])
  .transform((v) => (Array.isArray(v) ? v : [v]).flatMap((s) => s.split(',')).filter(Boolean))
  .pipe(z.array(z.enum(EVENT_TYPES)).max(EVENT_TYPES.length * 2));
const userId = z.coerce.number().int().positive().max(2_147_483_647);

export const EventsQuery = z.object({
  start_date: usDate,
  end_date: usDate,
  q: z.string().trim().max(200).optional(),
  types_list: typesList.optional(),
  downline_user_id: userId.optional(),
  today_events: flag.optional(),
});
export type EventsQuery = z.infer<typeof EventsQuery>;

export const ContactEventsQuery = z.object({ contact_id: z.coerce.number().int().positive() });

export const CalendarHistoryQuery = z.object({
  downline_user_id: userId.optional(),
  event_id: z.coerce.number().int().positive().optional(),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

const instant = z.iso.datetime({ offset: true, message: 'must be a date and time (ISO 8601)' });
const text = (max: number) => z.string().trim().max(max).nullable().optional();

const EventFields = {
  title: z.string().trim().min(1, 'is required').max(200),
  type: z.enum(EVENT_TYPES),
  start_at: instant,
  end_at: instant,
  all_day: z.boolean().optional(),
  description: text(5_000),
  location: text(300),
  /** The contact's internal id (as list rows carry it). */
  contact_id: z.number().int().positive().nullable().optional(),
  /** Whose calendar: the caller's unless a manager books for someone they reach. */
  user_id: z.number().int().positive().optional(),
  /** What an appointment is about; MA and Part D bring the SOA 48-hour rule. */
  products: z.array(z.enum(SOA_PRODUCTS)).max(SOA_PRODUCTS.length).optional(),
  /** The exception to the 48-hour rule the agent claims (recorded with the event). */
  soa_exception: z.enum(SOA_EXCEPTIONS).nullable().optional(),
  reminder_minutes: z.number().int().min(0).max(10_080).nullable().optional(),
  /** Send the reminder by email as well as in the app. */
  reminder_email: z.boolean().optional(),
};

export const EventBody = z.strictObject(EventFields);
export type EventBody = z.infer<typeof EventBody>;

/** PUT changes the fields it names (and marks done or snoozes: the today queue's one-click actions). */
export const EventUpdateBody = EventBody.partial().extend({
  done: z.boolean().optional(),
  snoozed_until: instant.nullable().optional(),
});
export type EventUpdateBody = z.infer<typeof EventUpdateBody>;

const Ref = z.object({ id: z.number(), name: z.string() });

export const CalendarEvent = z.object({
  id: z.number(),
  title: z.string(),
  type: z.enum(EVENT_TYPES),
  start_at: z.string(),
  end_at: z.string(),
  all_day: z.boolean(),
  description: z.string().nullable(),
  location: z.string().nullable(),
  user: Ref,
  contact: z.object({ id: z.number(), number: z.number(), name: z.string() }).nullable(),
  products: z.array(z.string()),
  soa_exception: z.enum(SOA_EXCEPTIONS).nullable(),
  soa_request_id: z.number().nullable(),
  reminder_minutes: z.number().nullable(),
  reminder_email: z.boolean(),
  done: z.boolean(),
  done_at: z.string().nullable(),
  snoozed_until: z.string().nullable(),
  /** When it is due in the today queue: the start, or the time it was snoozed to. */
  due_at: z.string(),
  /** Due before the range asked for (today queue). */
  overdue: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type CalendarEvent = z.infer<typeof CalendarEvent>;

export const EventList = z.object({
  data: z.array(CalendarEvent),
  meta: z.object({ start_date: z.string(), end_date: z.string(), count: z.number(), truncated: z.boolean() }),
});
export type EventList = z.infer<typeof EventList>;

export const CALENDAR_ACTIONS = ['created', 'updated', 'moved', 'done', 'reopened', 'snoozed', 'deleted'] as const;

export const CalendarHistoryEntry = z.object({
  id: z.number(),
  event_id: z.number(),
  action: z.enum(CALENDAR_ACTIONS),
  title: z.string(),
  changes: z.record(z.string(), z.object({ from: z.unknown(), to: z.unknown() })),
  user: Ref,
  actor: Ref.nullable(),
  created_at: z.string(),
});
export type CalendarHistoryEntry = z.infer<typeof CalendarHistoryEntry>;

export const CalendarHistoryList = z.object({ data: z.array(CalendarHistoryEntry), meta: PageMeta });
export type CalendarHistoryList = z.infer<typeof CalendarHistoryList>;
export const CalendarEventList = z.object({ data: z.array(CalendarEvent) });
