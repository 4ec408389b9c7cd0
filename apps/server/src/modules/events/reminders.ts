/**
 * Reminders, as scheduled jobs (platform/jobs/schedule.ts, once per slot across processes):
 *   events.reminders      every minute: each open event whose reminder time has come gets a live notification on
 *                         its user's NotificationsChannel, and an email when the event asks for one; claimed with
 *                         a compare-and-set of reminded_at, so two processes never send the same reminder twice.
 *   events.medicare_dates daily at 6 a.m. Eastern: the Medicare date engine's dates become tasks on the contact
 *                         owner's calendar: a contact turning 65 in 90 days (their IEP opens soon), once per contact.
 */
import {
  addDays,
  birthDatesTurning,
  dateInZone,
  MEDICARE_AGE,
  NOTIFICATIONS_CHANNEL,
  TIME_ZONE_IANA,
  type TimeZone,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import { userStream } from '../../platform/live/channels.js';
import { publishLive } from '../../platform/live/publish.js';
import { rowsOf } from '../contacts/list-scope.js';

export const REMINDERS_JOB = 'events.reminders';
export const MEDICARE_DATES_JOB = 'events.medicare_dates';
const BATCH = 500;
/** Reminders older than this when first seen (the process was down) are marked sent without sending. */
const STALE_MS = 6 * 3_600_000;
/** Days ahead the "turns 65" task is created. */
export const TURNING_65_LEAD_DAYS = 90;

interface Due {
  id: number;
  user_id: number;
  title: string;
  starts_at: string | Date;
  remind_at: string | Date;
  reminder_email: boolean;
  email: string;
  timezone: string;
  contact_name: string | null;
}

export function registerReminderJobs(deps: Deps) {
  deps.jobs.register(REMINDERS_JOB, async () => {
    await sendDueReminders(deps);
  });
  deps.jobs.register(MEDICARE_DATES_JOB, async () => {
    await createMedicareDateTasks(deps);
  });
  deps.schedules.add({ name: REMINDERS_JOB, cron: '* * * * *' });
  deps.schedules.add({ name: MEDICARE_DATES_JOB, cron: '0 6 * * *', tz: 'America/New_York' });
}

/** Sends every reminder due by `now`, a batch at a time; answers how many were sent. */
export async function sendDueReminders(deps: Deps, now = new Date()): Promise<number> {
  const db = deps.database.db;
  let sent = 0;
  for (;;) {
    // Claim a batch: the update is the lock, so each reminder goes out from one process only.
    const due = await rowsOf<Due>(
      db,
      sql`update calendar_events e set reminded_at = now()
        from users u
        where e.id in (select id from calendar_events where remind_at <= ${now.toISOString()} and reminded_at is null
            and done_at is null order by remind_at limit ${BATCH} for update skip locked)
          and u.id = e.user_id
        returning e.id, e.user_id, e.title, e.starts_at, e.remind_at, e.reminder_email, u.email, u.timezone,
          (select trim(c.first_name || ' ' || c.last_name) from contacts c where c.id = e.contact_id) as contact_name`,
    );
    if (!due.length) return sent;
    for (const r of due) {
      if (now.getTime() - new Date(r.remind_at).getTime() > STALE_MS) continue;
      await remind(deps, r);
      sent++;
    }
  }
}

async function remind(deps: Deps, r: Due) {
  const zone = TIME_ZONE_IANA[r.timezone as TimeZone] ?? TIME_ZONE_IANA.est;
  const when = new Intl.DateTimeFormat('en-US', {
    timeZone: zone,
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
  }).format(new Date(r.starts_at));
  const body = `${when}${r.contact_name ? ` · ${r.contact_name}` : ''}`;
  const day = dateInZone(new Date(r.starts_at), zone);
  // A lost live message is only a missed toast; the email (when asked for) is the durable channel.
  await publishLive(deps.bus, NOTIFICATIONS_CHANNEL, userStream(r.user_id), {
    type: 'notification',
    title: `Reminder: ${r.title}`,
    body,
    link: `/calendar?view=day&date=${day}`,
  }).catch(() => {});
  if (r.reminder_email) {
    await deps.mail.send({
      to: r.email,
      subject: `Reminder: ${r.title} (${when})`,
      text: `${r.title}\n${body}\n\nOpen your calendar: ${deps.config.appUrl}/calendar?view=day&date=${day}`,
    });
  }
}

/**
 * One task per contact turning 65 in TURNING_65_LEAD_DAYS days, on the owner's calendar at 9 a.m. Eastern of the
 * day it is created, set-based for the whole company; a contact that already has one gets no second.
 */
export async function createMedicareDateTasks(deps: Deps, now = new Date()): Promise<number> {
  const today = dateInZone(now, 'America/New_York');
  const target = addDays(today, TURNING_65_LEAD_DAYS);
  // The engine's own reading of "turns 65 that day" (Feb 28 and 29 births share a birthday in a common year).
  const born = birthDatesTurning(MEDICARE_AGE, target, target);
  const res = await rowsOf<{ id: number }>(
    deps.database.db,
    sql`insert into calendar_events (company_id, user_id, contact_id, type, title, description, starts_at, ends_at,
        due_at, created_by)
      select c.company_id, c.owner_id, c.id, 'task',
        'Turns 65 on ' || to_char(c.date_of_birth + make_interval(years => ${MEDICARE_AGE}), 'Mon FMDD, YYYY') || ': '
          || trim(c.first_name || ' ' || c.last_name),
        'Their Initial Enrollment Period is open or opens soon: review Medicare options with them.',
        t.at, t.at, t.at, null
      from contacts c cross join (select (${today}::date + time '09:00') at time zone 'America/New_York' as at) t
      where c.deleted_at is null and c.owner_id is not null and c.date_of_birth is not null
        and c.date_of_birth between ${born.start}::date and ${born.end}::date
        and not exists (select 1 from calendar_events e where e.contact_id = c.id and e.type = 'task'
          and e.title like 'Turns 65 on %')
      returning id`,
  );
  return res.length;
}
