import { addDays, dateInZone, toUsDate } from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { newContact, userId } from '../contacts/test-helpers.js';

let t: TestApp;
let agent: Client;
let manager: Client;
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
  manager = await signIn(t.app, DEMO('manager'));
});
afterAll(() => t.close());

const event = (over: Record<string, unknown> = {}) => ({
  title: 'Review plan options',
  type: 'appointment',
  start_at: '2030-03-12T15:00:00.000Z',
  end_at: '2030-03-12T16:00:00.000Z',
  ...over,
});
const month = '/v1/events?start_date=03/01/2030&end_date=03/31/2030';
const count = async () => Number((await q<{ n: number }>('select count(*)::int as n from calendar_events'))[0].n);

describe('calendar range views', () => {
  it('creates an event and lists it in the month, the week and the day it overlaps', async () => {
    const res = await agent.post('/v1/events', event({ location: 'Office', reminder_minutes: 30 }));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      title: 'Review plan options',
      type: 'appointment',
      start_at: '2030-03-12T15:00:00.000Z',
      location: 'Office',
      reminder_minutes: 30,
      done: false,
      user: { name: 'Angela Diaz' },
    });
    const list = await agent.get(month);
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ start_date: '03/01/2030', end_date: '03/31/2030', truncated: false });
    expect(list.body.data.map((e: { id: number }) => e.id)).toContain(res.body.id);
    const day = await agent.get('/v1/events?start_date=03/12/2030&end_date=03/12/2030');
    expect(day.body.data).toHaveLength(1);
    // 03/13 in Eastern time starts after the event ends.
    expect((await agent.get('/v1/events?start_date=03/13/2030&end_date=03/13/2030')).body.data).toHaveLength(0);
  });

  it('filters by types_list (comma list or repeated) and searches q', async () => {
    await agent.post('/v1/events', event({ title: 'Call Mrs. Alvarez back', type: 'call_back' }));
    const calls = await agent.get(`${month}&types_list=call_back`);
    expect(calls.body.data.map((e: { type: string }) => e.type)).toEqual(['call_back']);
    const both = await agent.get(`${month}&types_list=call_back&types_list=appointment`);
    expect(both.body.data).toHaveLength(2);
    expect((await agent.get(`${month}&types_list=call_back,appointment`)).body.data).toHaveLength(2);
    const found = await agent.get(`${month}&q=alvarez`);
    expect(found.body.data.map((e: { title: string }) => e.title)).toEqual(['Call Mrs. Alvarez back']);
    expect((await agent.get(`${month}&types_list=party`)).status).toBe(422);
  });

  // The range view reads its own column list (index-only, the description by id); it must answer what the event does.
  it('answers each event of a range as the event itself reads, description and contact included', async () => {
    const c = await newContact(agent, { first_name: 'Iris', last_name: 'Okafor' });
    const times = { start_at: '2030-03-20T15:00:00.000Z', end_at: '2030-03-20T16:00:00.000Z' };
    const full = await agent.post(
      '/v1/events',
      event({ ...times, description: 'Bring the plan comparison', contact_id: c.id, reminder_minutes: 15 }),
    );
    const plain = await agent.post('/v1/events', event({ ...times, title: 'Quiet hour', type: 'task' }));
    // Starts in February, lasts into March: listed by overlap.
    const across = await agent.post(
      '/v1/events',
      event({ start_at: '2030-02-27T15:00:00.000Z', end_at: '2030-03-02T15:00:00.000Z', title: 'Conference' }),
    );
    const done = await agent.put(`/v1/events/${plain.body.id}`, { done: true, location: 'Desk' });
    const listed = async () => {
      const res = await agent.get(month);
      return new Map(res.body.data.map((e: { id: number }) => [e.id, e]));
    };
    let byId = await listed();
    expect(byId.get(full.body.id)).toEqual(full.body);
    expect(byId.get(full.body.id)).toMatchObject({ description: 'Bring the plan comparison', contact: { id: c.id } });
    expect(byId.get(plain.body.id)).toEqual(done.body);
    expect(byId.get(across.body.id)).toEqual(across.body);
    const cleared = await agent.put(`/v1/events/${full.body.id}`, { description: null, title: 'Annual review' });
    byId = await listed();
    expect(byId.get(full.body.id)).toEqual(cleared.body);
    expect(cleared.body).toMatchObject({ description: null, title: 'Annual review' });
    for (const id of [full.body.id, plain.body.id, across.body.id]) await agent.delete(`/v1/events/${id}`);
  });

  it('refuses bad ranges and bad events with a clear 422, changing nothing', async () => {
    const before = await count();
    const backwards = await agent.get('/v1/events?start_date=03/31/2030&end_date=03/01/2030');
    expect(backwards.status).toBe(422);
    expect(backwards.body.errors.end_date[0]).toMatch(/before start_date/);
    const long = await agent.get('/v1/events?start_date=01/01/2030&end_date=01/02/2031');
    expect(long.status).toBe(422);
    expect(long.body.errors.end_date[0]).toMatch(/366 days/);
    expect((await agent.get('/v1/events?start_date=2030-03-01&end_date=03/31/2030')).status).toBe(422);
    expect((await agent.get('/v1/events?start_date=02/30/2030&end_date=03/31/2030')).status).toBe(422);
    const ends = await agent.post('/v1/events', event({ end_at: '2030-03-12T14:00:00.000Z' }));
    expect(ends.status).toBe(422);
    expect(ends.body.errors.end_at[0]).toMatch(/before start_at/);
    expect((await agent.post('/v1/events', event({ end_at: '2030-05-12T14:00:00.000Z' }))).status).toBe(422);
    expect((await agent.post('/v1/events', event({ title: '' }))).status).toBe(422);
    expect((await agent.post('/v1/events', event({ type: 'party' }))).status).toBe(422);
    expect((await agent.post('/v1/events', event({ extra: 1 }))).status).toBe(422);
    expect(await count()).toBe(before);
  });
});

describe('whose calendar', () => {
  it('lets a manager open and book on a downline agent’s calendar', async () => {
    const agentId = await userId(t, DEMO('agent'));
    const week = await manager.get(`/v1/events?start_date=03/10/2030&end_date=03/16/2030&downline_user_id=${agentId}`);
    expect(week.status).toBe(200);
    expect(week.body.data.length).toBeGreaterThan(0);
    expect(week.body.data.every((e: { user: { id: number } }) => e.user.id === agentId)).toBe(true);
    // The reach check rides in the range statement: an empty range of a reachable user is still a 200.
    const empty = await manager.get(`/v1/events?start_date=03/10/2031&end_date=03/16/2031&downline_user_id=${agentId}`);
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ data: [], meta: { count: 0, truncated: false } });
    const booked = await manager.post('/v1/events', event({ title: 'Ride-along', user_id: agentId }));
    expect(booked.status).toBe(201);
    expect(booked.body.user.id).toBe(agentId);
  });

  it('refuses another user’s calendar outside the caller’s reach', async () => {
    const agentId = await userId(t, DEMO('agent'));
    const managerId = await userId(t, DEMO('manager'));
    const district = await signIn(t.app, DEMO('district_manager'));
    const outside = await district.get(`${month}&downline_user_id=${agentId}`);
    expect(outside.status).toBe(404);
    expect(outside.body.errors.downline_user).toBeDefined();
    expect((await agent.get(`${month}&downline_user_id=${managerId}`)).status).toBe(403);
    const foreign = await userId(t, RECRUIT('agent'));
    expect((await manager.get(`${month}&downline_user_id=${foreign}`)).status).toBe(404);
    const before = await count();
    const book = await district.post('/v1/events', event({ user_id: agentId }));
    expect(book.status).toBe(422);
    expect(book.body.errors.user_id).toBeDefined();
    expect((await agent.post('/v1/events', event({ user_id: managerId }))).status).toBe(403);
    expect(await count()).toBe(before);
  });
});

describe('changing and deleting', () => {
  it('moves, snoozes, completes and deletes, each in the calendar history', async () => {
    const created = (await agent.post('/v1/events', event({ title: 'Follow up on quote', type: 'follow_up' }))).body;
    const moved = await agent.put(`/v1/events/${created.id}`, {
      start_at: '2030-03-13T15:00:00.000Z',
      end_at: '2030-03-13T15:30:00.000Z',
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ start_at: '2030-03-13T15:00:00.000Z', due_at: '2030-03-13T15:00:00.000Z' });
    const snoozed = await agent.put(`/v1/events/${created.id}`, { snoozed_until: '2030-03-14T13:00:00.000Z' });
    expect(snoozed.body.due_at).toBe('2030-03-14T13:00:00.000Z');
    const done = await agent.put(`/v1/events/${created.id}`, { done: true });
    expect(done.body.done).toBe(true);
    expect(done.body.done_at).not.toBeNull();
    expect((await agent.delete(`/v1/events/${created.id}`)).status).toBe(204);
    expect((await agent.put(`/v1/events/${created.id}`, { done: false })).status).toBe(404);
    const history = await agent.get(`/v1/events/calendar_history?event_id=${created.id}`);
    expect(history.status).toBe(200);
    expect(history.body.data.map((h: { action: string }) => h.action)).toEqual([
      'deleted',
      'done',
      'snoozed',
      'moved',
      'created',
    ]);
    expect(history.body.data[3].changes.start_at).toEqual({
      from: '2030-03-12T15:00:00.000Z',
      to: '2030-03-13T15:00:00.000Z',
    });
    expect(history.body.meta).toMatchObject({ current_page: 1, total_count: 5 });
  });

  it('lets a manager change a downline event; refuses others, changing nothing', async () => {
    const created = (await agent.post('/v1/events', event({ title: 'Annual review' }))).body;
    const ok = await manager.put(`/v1/events/${created.id}`, { title: 'Annual review (with Monica)' });
    expect(ok.status).toBe(200);
    const district = await signIn(t.app, DEMO('district_manager'));
    expect((await district.put(`/v1/events/${created.id}`, { title: 'Hijacked' })).status).toBe(404);
    expect((await district.delete(`/v1/events/${created.id}`)).status).toBe(404);
    const other = await signIn(t.app, RECRUIT('admin'));
    expect((await other.put(`/v1/events/${created.id}`, { title: 'Hijacked' })).status).toBe(404);
    expect((await other.delete(`/v1/events/${created.id}`)).status).toBe(404);
    const bad = await agent.put(`/v1/events/${created.id}`, { end_at: '2030-03-01T00:00:00.000Z' });
    expect(bad.status).toBe(422);
    const [row] = await q<{ title: string; ends_at: Date }>(
      'select title, ends_at from calendar_events where id = $1',
      [created.id],
    );
    expect(row.title).toBe('Annual review (with Monica)');
    expect(new Date(row.ends_at).toISOString()).toBe('2030-03-12T16:00:00.000Z');
    // The manager's edit is in the agent's history, with the manager as the actor.
    const history = await manager.get(
      `/v1/events/calendar_history?downline_user_id=${await userId(t, DEMO('agent'))}&event_id=${created.id}`,
    );
    expect(history.body.data[0]).toMatchObject({ action: 'updated', actor: { name: 'Monica Reyes' } });
    expect((await district.get(`/v1/events/calendar_history?downline_user_id=${created.user.id}`)).status).toBe(404);
  });
});

describe('events of a contact', () => {
  it('shows a contact’s events and records them on its timeline', async () => {
    const c = await newContact(agent, { first_name: 'Rosa', last_name: 'Alvarez' });
    const res = await agent.post('/v1/events', event({ title: 'Call Rosa', type: 'call_back', contact_id: c.id }));
    expect(res.body.contact).toEqual({ id: c.id, number: c.number, name: 'Rosa Alvarez' });
    const list = await agent.get(`/v1/events/contact_events?contact_id=${c.id}`);
    expect(list.status).toBe(200);
    expect(list.body.data.map((e: { title: string }) => e.title)).toEqual(['Call Rosa']);
    expect((await manager.get(`/v1/events/contact_events?contact_id=${c.id}`)).body.data).toHaveLength(1);
    const detail = await agent.get(`/v1/contacts/${c.number}`);
    expect(detail.body.timeline[0]).toMatchObject({ kind: 'event_created', data: { title: 'Call Rosa' } });
    // Searching by the contact's name finds the event.
    expect((await agent.get(`${month}&q=rosa alvarez`)).body.data).toHaveLength(1);
  });

  it('refuses a contact the caller cannot see', async () => {
    const mine = await newContact(manager, { first_name: 'Private', last_name: 'Client' });
    expect((await agent.get(`/v1/events/contact_events?contact_id=${mine.id}`)).status).toBe(404);
    const before = await count();
    const res = await agent.post('/v1/events', event({ contact_id: mine.id }));
    expect(res.status).toBe(422);
    expect(res.body.errors.contact_id).toBeDefined();
    expect((await agent.get('/v1/events/contact_events?contact_id=abc')).status).toBe(422);
    expect(await count()).toBe(before);
  });
});

describe('the today queue', () => {
  const today = dateInZone(new Date(), 'America/New_York');
  const todayQ = `/v1/events?start_date=${toUsDate(today)}&end_date=${toUsDate(today)}&today_events=true`;

  it('lists open follow-ups due today with overdue ones first; done ones leave it', async () => {
    const hourAgo = new Date(Date.now() - 3_600_000);
    const laterToday = new Date(Math.min(Date.now() + 60_000, new Date(`${addDays(today, 1)}T04:59:00Z`).getTime()));
    const overdue = (
      await agent.post('/v1/events', {
        title: 'Overdue call',
        type: 'call_back',
        start_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
        end_at: new Date(Date.now() - 3 * 86_400_000).toISOString(),
      })
    ).body;
    const due = (
      await agent.post('/v1/events', {
        title: 'Due today',
        type: 'follow_up',
        start_at: laterToday.toISOString(),
        end_at: laterToday.toISOString(),
      })
    ).body;
    const finished = (
      await agent.post('/v1/events', {
        title: 'Already done',
        type: 'task',
        start_at: hourAgo.toISOString(),
        end_at: hourAgo.toISOString(),
      })
    ).body;
    await agent.put(`/v1/events/${finished.id}`, { done: true });
    const res = await agent.get(todayQ);
    expect(res.status).toBe(200);
    const ids = res.body.data.map((e: { id: number }) => e.id);
    expect(ids).toContain(due.id);
    expect(ids).not.toContain(finished.id);
    expect(ids[0]).toBe(overdue.id);
    expect(res.body.data[0].overdue).toBe(true);
    // Snoozed to tomorrow, it leaves today's queue.
    await agent.put(`/v1/events/${due.id}`, { snoozed_until: `${addDays(today, 2)}T15:00:00.000Z` });
    expect((await agent.get(todayQ)).body.data.map((e: { id: number }) => e.id)).not.toContain(due.id);
  });

  it('belongs to follow-ups: a basic user is refused, naming the feature', async () => {
    const basic = await signIn(t.app, DEMO('basic'));
    const res = await basic.get(todayQ);
    expect(res.status).toBe(403);
    expect(res.body.errors.feature[0]).toMatch(/Follow-ups/);
    expect((await basic.get(month)).status).toBe(200);
  });
});
