/**
 * Writing calendar events: create, change (including done and snooze, the today queue's one-click actions) and
 * delete. Each write checks whose calendar it touches (reach), the contact it ties to (visible to the caller), the
 * times (end not before start, at most EVENT_MAX_DAYS long) and the SOA rule, then records one history row and,
 * for an event tied to a contact, one timeline entry on that contact, all in one transaction.
 */
import { EVENT_MAX_DAYS, type EventBody, type EventUpdateBody } from '@harbor/shared';
import { and, eq } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { findVisibleContactById } from '../contacts/access.js';
import { diffValues, recordContactEvent } from '../contacts/events.js';
import { type SoaDecision, soaDecision } from '../soa/appointment-rule.js';
import { calendarOwner, loadEvent, type Raw } from './queries.js';
import { calendarEventChanges, calendarEvents } from './schema.js';

type Action = 'created' | 'updated' | 'moved' | 'done' | 'reopened' | 'snoozed' | 'deleted';

function times(startAt: string | Date, endAt: string | Date) {
  const start = new Date(startAt);
  const end = new Date(endAt);
  if (end.getTime() < start.getTime()) throw invalid('end_at', 'must not be before start_at');
  if (end.getTime() - start.getTime() > EVENT_MAX_DAYS * 86_400_000) {
    throw invalid('end_at', `an event may last at most ${EVENT_MAX_DAYS} days`);
  }
  return { start, end };
}

async function assertContact(db: Db, auth: AuthContext, contactId: number | null | undefined) {
  if (contactId === null || contactId === undefined) return null;
  const c = await findVisibleContactById(db, auth, contactId);
  if (!c) throw invalid('contact_id', 'is not a contact you can see');
  if (c.deletedAt) throw invalid('contact_id', 'is deleted; restore it first');
  return c;
}

/** The user a write puts the event on: the caller, or someone they reach (`user_id`); 4xx otherwise. */
async function ownerFor(db: Db, auth: AuthContext, userId: number | undefined) {
  try {
    return await calendarOwner(db, auth, userId);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode === 404) throw invalid('user_id', 'is not a user you can book for');
    throw err;
  }
}

const remindAt = (start: Date, minutes: number | null | undefined) =>
  minutes === null || minutes === undefined ? null : new Date(start.getTime() - minutes * 60_000);

async function record(
  tx: Db,
  auth: AuthContext,
  e: { id: number; userId: number; title: string; contactId: number | null; startsAt: Date },
  action: Action,
  changes: Record<string, { from: unknown; to: unknown }> = {},
) {
  await tx.insert(calendarEventChanges).values({
    companyId: auth.company.id,
    eventId: e.id,
    userId: e.userId,
    actorId: auth.user.id,
    action,
    title: e.title,
    changes,
  });
  if (e.contactId) {
    await recordContactEvent(tx, {
      companyId: auth.company.id,
      contactId: e.contactId,
      kind: `event_${action}`,
      actorId: auth.user.id,
      data: { event_id: e.id, title: e.title, start_at: e.startsAt.toISOString(), changes },
    });
  }
}

export async function createEvent(db: Db, auth: AuthContext, body: EventBody): Promise<number> {
  const { start, end } = times(body.start_at, body.end_at);
  const userId = await ownerFor(db, auth, body.user_id);
  const contact = await assertContact(db, auth, body.contact_id);
  const soa: SoaDecision = await soaDecision(db, auth, {
    type: body.type,
    products: body.products ?? [],
    contact,
    startsAt: start,
    exception: body.soa_exception ?? null,
  });
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(calendarEvents)
      .values({
        companyId: auth.company.id,
        userId,
        contactId: contact?.id ?? null,
        type: body.type,
        title: body.title,
        description: body.description ?? null,
        location: body.location ?? null,
        startsAt: start,
        endsAt: end,
        allDay: body.all_day ?? false,
        dueAt: start,
        products: body.products ?? [],
        soaRequestId: soa.soaRequestId,
        soaException: soa.exception,
        reminderMinutes: body.reminder_minutes ?? null,
        reminderEmail: body.reminder_email ?? false,
        remindAt: remindAt(start, body.reminder_minutes),
        createdBy: auth.user.id,
      })
      .returning({ id: calendarEvents.id });
    await record(
      tx,
      auth,
      { id: row.id, userId, title: body.title, contactId: contact?.id ?? null, startsAt: start },
      'created',
    );
    return row.id;
  });
}

/** The event's fields as the history compares them. */
const snapshot = (r: Raw) => ({
  title: r.title,
  type: r.type,
  start_at: new Date(r.starts_at as string).toISOString(),
  end_at: new Date(r.ends_at as string).toISOString(),
  all_day: r.all_day,
  description: r.description,
  location: r.location,
  contact_id: r.contact_id === null ? null : Number(r.contact_id),
  user_id: Number(r.user_id),
  products: r.products,
  soa_exception: r.soa_exception,
  reminder_minutes: r.reminder_minutes,
  reminder_email: r.reminder_email,
  done: r.done_at !== null,
  snoozed_until: r.snoozed_until ? new Date(r.snoozed_until as string).toISOString() : null,
});

function actionOf(changes: Record<string, unknown>): Action {
  const keys = Object.keys(changes);
  if (keys.includes('done')) return (changes.done as { to: boolean }).to ? 'done' : 'reopened';
  if (keys.length && keys.every((k) => k === 'snoozed_until')) return 'snoozed';
  if (keys.length && keys.every((k) => k === 'start_at' || k === 'end_at')) return 'moved';
  return 'updated';
}

export async function updateEvent(db: Db, auth: AuthContext, id: number, body: EventUpdateBody): Promise<void> {
  const before = await loadEvent(db, auth, id);
  const was = snapshot(before);
  const { start, end } = times(body.start_at ?? was.start_at, body.end_at ?? was.end_at);
  const userId = body.user_id === undefined ? was.user_id : await ownerFor(db, auth, body.user_id);
  const contactId = body.contact_id === undefined ? was.contact_id : body.contact_id;
  const contact = contactId === was.contact_id ? null : await assertContact(db, auth, contactId);
  const type = body.type ?? (was.type as EventBody['type']);
  const products = body.products ?? (was.products as string[]);
  const reminderMinutes =
    body.reminder_minutes === undefined ? (was.reminder_minutes as number | null) : body.reminder_minutes;
  const rebooked =
    body.start_at !== undefined || body.products !== undefined || body.type !== undefined || contact !== null;
  let soa: SoaDecision | null = null;
  if (rebooked || body.soa_exception !== undefined) {
    soa = await soaDecision(db, auth, {
      type,
      products,
      contact: contact ?? (contactId ? await assertContact(db, auth, contactId) : null),
      startsAt: start,
      exception:
        body.soa_exception === undefined ? (was.soa_exception as SoaDecision['exception']) : body.soa_exception,
    });
  }
  const snoozedUntil =
    body.snoozed_until === undefined
      ? was.snoozed_until
      : body.snoozed_until
        ? new Date(body.snoozed_until).toISOString()
        : null;
  const done = body.done ?? was.done;
  const after = {
    ...was,
    title: body.title ?? was.title,
    type,
    start_at: start.toISOString(),
    end_at: end.toISOString(),
    all_day: body.all_day ?? was.all_day,
    description: body.description === undefined ? was.description : body.description,
    location: body.location === undefined ? was.location : body.location,
    contact_id: contactId ?? null,
    user_id: userId,
    products,
    soa_exception: soa ? soa.exception : was.soa_exception,
    reminder_minutes: reminderMinutes,
    reminder_email: body.reminder_email ?? was.reminder_email,
    done,
    snoozed_until: snoozedUntil,
  };
  const changes = diffValues(was, after);
  if (!Object.keys(changes).length) return;
  const timesChanged = 'start_at' in changes || 'reminder_minutes' in changes;
  await db.transaction(async (tx) => {
    await tx
      .update(calendarEvents)
      .set({
        title: after.title as string,
        type,
        startsAt: start,
        endsAt: end,
        allDay: Boolean(after.all_day),
        description: (after.description as string | null) ?? null,
        location: (after.location as string | null) ?? null,
        contactId: after.contact_id,
        userId,
        products,
        ...(soa ? { soaRequestId: soa.soaRequestId, soaException: soa.exception } : {}),
        reminderMinutes,
        reminderEmail: Boolean(after.reminder_email),
        remindAt: remindAt(start, reminderMinutes),
        ...(timesChanged ? { remindedAt: null } : {}),
        snoozedUntil: snoozedUntil ? new Date(snoozedUntil) : null,
        dueAt: snoozedUntil ? new Date(snoozedUntil) : start,
        doneAt: done ? (was.done ? new Date(before.done_at as string) : new Date()) : null,
        updatedAt: new Date(),
      })
      .where(and(eq(calendarEvents.id, id), eq(calendarEvents.companyId, auth.company.id)));
    const e = { id, userId, title: after.title as string, contactId: after.contact_id, startsAt: start };
    await record(tx, auth, e, actionOf(changes), changes);
  });
}

export async function deleteEvent(db: Db, auth: AuthContext, id: number): Promise<void> {
  const before = await loadEvent(db, auth, id);
  await db.transaction(async (tx) => {
    await tx
      .delete(calendarEvents)
      .where(and(eq(calendarEvents.id, id), eq(calendarEvents.companyId, auth.company.id)));
    const e = {
      id,
      userId: Number(before.user_id),
      title: String(before.title),
      contactId: before.contact_id === null ? null : Number(before.contact_id),
      startsAt: new Date(before.starts_at as string),
    };
    await record(tx, auth, e, 'deleted');
  });
}
