/**
 * Automatic campaign triggers: every morning (9 a.m. US Eastern) a scheduled job finds the triggers whose date has
 * come (a contact's birthday, 90 days before a 65th birthday, the opening of AEP or of the MA open enrollment) and
 * starts one broadcast per trigger and day, from each contact's owner, through the broadcast machinery (consent is
 * asked for each recipient at send time). The day is the broadcast's dedupe key: a slot that fires twice, or a job
 * retried, never sends twice.
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import { broadcastChannels } from '../broadcasts/channels.js';
import { createBroadcast } from '../broadcasts/create.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { CampaignTriggerRow } from './schema.js';
import { campaignTriggers } from './schema.js';

export const TRIGGER_RUN_JOB = 'campaign_triggers.run';
const ZONE = 'America/New_York';

/** The calendar day (YYYY-MM-DD) of `at` in US Eastern time. */
export function easternDay(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    at,
  );
}

/** The contacts a trigger reaches on `day`, as a condition on alias `contacts`; null when its date is not today. */
export function dueContactsSql(trigger: string, day: string) {
  const [, m, d] = day.split('-').map(Number);
  const mmdd = m * 100 + d;
  const leap =
    Number(day.slice(0, 4)) % 4 === 0 && (Number(day.slice(0, 4)) % 100 !== 0 || Number(day.slice(0, 4)) % 400 === 0);
  switch (trigger) {
    case 'birthday':
      // A February 29 birthday is celebrated on February 28 in other years.
      return mmdd === 228 && !leap ? sql`contacts.birth_mmdd in (228, 229)` : sql`contacts.birth_mmdd = ${mmdd}`;
    case 'turning_65':
      return sql`contacts.date_of_birth = (${day}::date + 90 - interval '65 years')::date`;
    case 'aep_start':
      return mmdd === 1015 ? sql`contacts.type = 'client'` : null;
    case 'ma_oep_start':
      return mmdd === 101 ? sql`contacts.type = 'client'` : null;
    default:
      return null;
  }
}

export function registerTriggerRuns(deps: Deps) {
  deps.jobs.register(TRIGGER_RUN_JOB, async ({ job }) => {
    const at = typeof job.payload.slot === 'string' ? new Date(job.payload.slot) : new Date();
    await runTriggersFor(deps, easternDay(at));
  });
  deps.schedules.add({ name: 'campaign_triggers.daily', cron: '0 9 * * *', tz: ZONE, job: TRIGGER_RUN_JOB });
}

/** Starts the day's broadcast of every automatic trigger whose date is `day`; answers how many started. */
export async function runTriggersFor(deps: Deps, day: string): Promise<number> {
  const db = deps.database.db;
  const channels = broadcastChannels(deps);
  const due = await db
    .select()
    .from(campaignTriggers)
    .where(
      sql`deleted_at is null and enabled and compliant and auto_trigger and trigger <> 'manual'
        and (last_run_on is null or last_run_on < ${day}::date)
        and (recurrence = 'yearly' or trigger in ('birthday', 'turning_65') or last_run_on is null)`,
    );
  let started = 0;
  for (const t of due) {
    const when = dueContactsSql(t.trigger, day);
    if (!when) continue;
    const channel = channels.get(t.triggerType);
    const content = channel?.contentFor ? await channel.contentFor(t.companyId, t) : null;
    if (!content) continue; // nothing to send on this channel (yet): the trigger waits, its day not marked
    const author = await authorOf(deps, t);
    if (!author) continue;
    const b = await createBroadcast(deps, {
      companyId: t.companyId,
      userId: author,
      channel: t.triggerType as 'email' | 'sms',
      purpose: 'marketing',
      content: content.content,
      title: content.title,
      triggerId: t.id,
      selection: { trigger: t.trigger, day },
      recipientsSql: sql`select contacts.id as contact_id, coalesce(contacts.owner_id, ${author})::int as sender_id
        from contacts where contacts.company_id = ${t.companyId} and contacts.deleted_at is null and ${when}`,
      dedupeKey: `trigger:${t.id}:${day}`,
    }).catch((err: Error & { statusCode?: number }) => {
      // A day with nobody to send to is a normal day.
      if (err.statusCode === 422) return null;
      throw err;
    });
    await db.update(campaignTriggers).set({ lastRunOn: day }).where(sql`id = ${t.id}`);
    if (b) started++;
  }
  return started;
}

/** The broadcast's user: the trigger's author, or the company's first admin. */
async function authorOf(deps: Deps, t: CampaignTriggerRow): Promise<number | null> {
  if (t.createdBy) return t.createdBy;
  const [u] = await rowsOf<{ id: number }>(
    deps.database.db,
    sql`select id from users where company_id = ${t.companyId} and 'admin' = any(roles) and deleted_at is null order by id limit 1`,
  );
  return u ? Number(u.id) : null;
}
