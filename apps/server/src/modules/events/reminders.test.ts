import { addDays, addYears, dateInZone } from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp, waitForMail } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { createMedicareDateTasks, sendDueReminders, TURNING_65_LEAD_DAYS } from './reminders.js';

let t: TestApp;
let agent: Client;
beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();

describe('reminders', () => {
  it('sends each due reminder once (live, and by email when asked), never for a done event', async () => {
    const mailed = await agent.post('/v1/events', {
      title: 'Reminder by mail',
      type: 'call_back',
      start_at: inMinutes(10),
      end_at: inMinutes(20),
      reminder_minutes: 30,
      reminder_email: true,
    });
    expect(mailed.status).toBe(201);
    expect(mailed.body.reminder_email).toBe(true);
    const done = await agent.post('/v1/events', {
      title: 'Finished already',
      type: 'task',
      start_at: inMinutes(5),
      end_at: inMinutes(5),
      reminder_minutes: 15,
      reminder_email: true,
    });
    await agent.put(`/v1/events/${done.body.id}`, { done: true });
    const later = await agent.post('/v1/events', {
      title: 'Not yet',
      type: 'task',
      start_at: inMinutes(120),
      end_at: inMinutes(130),
      reminder_minutes: 10,
    });
    expect(later.status).toBe(201);
    const sent = await sendDueReminders(t.deps);
    expect(sent).toBeGreaterThanOrEqual(1);
    const mail = await waitForMail(t, DEMO('agent'), /Reminder: Reminder by mail/);
    expect(mail.text).toContain('/calendar?view=day&date=');
    expect(await sendDueReminders(t.deps)).toBe(0);
    const rows = await t.database.query<{ title: string; reminded_at: Date | null }>(
      'select title, reminded_at from calendar_events where id = any($1::bigint[])',
      [[mailed.body.id, done.body.id, later.body.id]],
    );
    const reminded = Object.fromEntries(rows.map((r) => [r.title, r.reminded_at !== null]));
    expect(reminded).toEqual({ 'Reminder by mail': true, 'Finished already': false, 'Not yet': false });
    // Moving the event re-arms its reminder (the scheduled job may send it first: either way it goes out once).
    await agent.put(`/v1/events/${mailed.body.id}`, { start_at: inMinutes(15), end_at: inMinutes(25) });
    const [rearmed] = await t.database.query<{ reminded_at: Date | null }>(
      'select reminded_at from calendar_events where id = $1',
      [mailed.body.id],
    );
    expect(rearmed.reminded_at).toBeNull();
    await sendDueReminders(t.deps);
    await waitForMail(t, DEMO('agent'), /Reminder: Reminder by mail/);
    const [again] = await t.database.query<{ reminded_at: Date | null }>(
      'select reminded_at from calendar_events where id = $1',
      [mailed.body.id],
    );
    expect(again.reminded_at).not.toBeNull();
  });
});

describe('Medicare date tasks', () => {
  it('puts "turns 65" on the owner’s calendar 90 days ahead, once per contact', async () => {
    const today = dateInZone(new Date(), 'America/New_York');
    const dob = addYears(addDays(today, TURNING_65_LEAD_DAYS), -65);
    const c = await newContact(agent, { first_name: 'Nearly', last_name: 'Sixtyfive', date_of_birth: dob });
    await newContact(agent, { first_name: 'Not', last_name: 'Yet', date_of_birth: addDays(dob, 1) });
    expect(await createMedicareDateTasks(t.deps)).toBeGreaterThanOrEqual(1);
    const list = await agent.get(`/v1/events/contact_events?contact_id=${c.id}`);
    expect(list.body.data).toHaveLength(1);
    expect(list.body.data[0]).toMatchObject({ type: 'task', user: { name: 'Angela Diaz' } });
    expect(list.body.data[0].title).toMatch(/^Turns 65 on .*: Nearly Sixtyfive$/);
    expect(await createMedicareDateTasks(t.deps)).toBe(0);
  });
});
