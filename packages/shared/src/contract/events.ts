import {
  CalendarEvent,
  CalendarEventList,
  CalendarHistoryList,
  CalendarHistoryQuery,
  ContactEventsQuery,
  EventBody,
  EventList,
  EventsQuery,
  EventUpdateBody,
  IdParams,
  NoContent,
} from '../index.js';
import { defineContract } from './define.js';

export const eventsContract = defineContract({
  'GET /v1/events': { query: EventsQuery, reply: EventList },
  'GET /v1/events/contact_events': { query: ContactEventsQuery, reply: CalendarEventList },
  'GET /v1/events/calendar_history': { query: CalendarHistoryQuery, reply: CalendarHistoryList },
  'POST /v1/events': { body: EventBody, reply: CalendarEvent },
  'PUT /v1/events/{id}': { params: IdParams, body: EventUpdateBody, reply: CalendarEvent },
  'DELETE /v1/events/{id}': { params: IdParams, reply: NoContent },
});
