/**
 * The events area (routes.md `events`): the calendar's range views and the today queue (one route, two query
 * forms), a contact's events, create / change / delete, and the calendar history. Everyone has a calendar; a
 * manager or admin opens a downline user's with `downline_user_id` (the reach rule). The today queue belongs to
 * follow-ups, which basic users and companies with the flag off do not have.
 */
import {
  CalendarEvent,
  CalendarEventList,
  CalendarHistoryList,
  CalendarHistoryQuery,
  ContactEventsQuery,
  EVENT_LIST_MAX,
  EventBody,
  EventList,
  EventsQuery,
  EventUpdateBody,
  NoContent,
  toUsDate,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../platform/http/errors.js';
import { requireFeature } from '../../platform/http/feature-guard.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { findVisibleContactById } from '../contacts/access.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { Module } from '../types.js';
import {
  calendarOwner,
  eventsInRange,
  eventsOfContact,
  loadEvent,
  present,
  rangeOf,
  todayQueue,
  zoneOf,
} from './queries.js';
import { registerReminderJobs } from './reminders.js';
import { calendarEvents } from './schema.js';
import { createEvent, deleteEvent, updateEvent } from './write.js';

const tags = ['events'];
const Id = z.object({ id: z.coerce.number().int().positive() });

export const eventsModule: Module = {
  name: 'events',
  register(scope: FastifyInstance, { tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;
    tenants.register('event', companyRowResolver(calendarEvents));
    registerReminderJobs(scope.deps);
    const config = { access: 'authenticated' as const };
    const byId = { ...config, tenant: { param: 'id', resource: 'event' } };

    app.get(
      '/v1/events',
      {
        config,
        schema: {
          tags,
          summary:
            'Events overlapping a range of days (MM/DD/YYYY, the caller’s time zone), or with today_events the open follow-ups due by its end, overdue first',
          querystring: EventsQuery,
          response: { 200: EventList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const q = req.query;
        if (q.today_events) requireFeature(req, 'follow_ups');
        const { from, to } = rangeOf(q.start_date, q.end_date, zoneOf(auth));
        const list = q.today_events
          ? await todayQueue(db, auth.company.id, await calendarOwner(db, auth, q.downline_user_id), from, to, q)
          : await eventsInRange(db, auth, q.downline_user_id, from, to, q);
        const truncated = list.length > EVENT_LIST_MAX;
        const data = truncated ? list.slice(0, EVENT_LIST_MAX) : list;
        return {
          data,
          meta: { start_date: toUsDate(q.start_date), end_date: toUsDate(q.end_date), count: data.length, truncated },
        };
      },
    );

    app.get(
      '/v1/events/contact_events',
      {
        config,
        schema: {
          tags,
          summary: 'The events tied to one contact (internal contact id), newest first',
          querystring: ContactEventsQuery,
          response: { 200: CalendarEventList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const contact = await findVisibleContactById(db, auth, req.query.contact_id);
        if (!contact) throw notFound('contact');
        return { data: await eventsOfContact(db, auth.company.id, contact.id) };
      },
    );

    app.get(
      '/v1/events/calendar_history',
      {
        config,
        schema: {
          tags,
          summary: 'What changed on a calendar (the caller’s, or a downline user’s), newest first',
          querystring: CalendarHistoryQuery,
          response: { 200: CalendarHistoryList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const { page, limit, event_id } = req.query;
        const userId = await calendarOwner(db, auth, req.query.downline_user_id);
        const where = sql`h.user_id = ${userId} and h.company_id = ${auth.company.id}
          ${event_id ? sql`and h.event_id = ${event_id}` : sql``}`;
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from calendar_event_changes h where ${where}`,
        );
        const rows = await rowsOf<Record<string, unknown>>(
          db,
          sql`select h.*, trim(u.first_name || ' ' || u.last_name) as user_name,
              trim(a.first_name || ' ' || a.last_name) as actor_name
            from calendar_event_changes h join users u on u.id = h.user_id left join users a on a.id = h.actor_id
            where ${where} order by h.id desc limit ${limit} offset ${pageOffset(page, limit)}`,
        );
        return {
          data: rows.map((r) => ({
            id: Number(r.id),
            event_id: Number(r.event_id),
            action: r.action as 'created',
            title: String(r.title),
            changes: (r.changes ?? {}) as Record<string, { from: unknown; to: unknown }>,
            user: { id: Number(r.user_id), name: String(r.user_name ?? '') },
            actor: r.actor_id === null ? null : { id: Number(r.actor_id), name: String(r.actor_name ?? '') },
            created_at: new Date(r.created_at as string).toISOString(),
          })),
          meta: pageMeta(page, limit, n),
        };
      },
    );

    app.post(
      '/v1/events',
      {
        config,
        schema: {
          tags,
          summary: 'Create an event (an MA or Part D appointment is checked against the SOA 48-hour rule)',
          body: EventBody,
          response: { 201: CalendarEvent },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const id = await createEvent(db, auth, req.body);
        return reply.code(201).send(present(await loadEvent(db, auth, id), false));
      },
    );

    app.put(
      '/v1/events/:id',
      {
        config: byId,
        schema: {
          tags,
          summary: 'Change an event: the fields named, done (true/false) or snoozed_until',
          params: Id,
          body: EventUpdateBody,
          response: { 200: CalendarEvent },
        },
      },
      async (req) => {
        const auth = authOf(req);
        await updateEvent(db, auth, req.params.id, req.body);
        return present(await loadEvent(db, auth, req.params.id), false);
      },
    );

    app.delete(
      '/v1/events/:id',
      { config: byId, schema: { tags, summary: 'Delete an event', params: Id, response: { 204: NoContent } } },
      async (req, reply) => {
        await deleteEvent(db, authOf(req), req.params.id);
        return reply.code(204).send(null);
      },
    );
  },
};
