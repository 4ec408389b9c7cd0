/**
 * The platform's own scheduled upkeep: expired idempotency keys (24 h), dispatched domain events (kept 7 days for
 * inspection; they are not the audit log), processed webhook events (30 days: providers retry for up to 3 days, so
 * a month of ids keeps every retry recognised as a duplicate). Hourly, once across all processes.
 */
import { sql } from 'drizzle-orm';
import type { Database } from './db/client.js';
import { removeExpiredIdempotencyKeys } from './http/idempotency.js';
import type { JobQueue } from './jobs/queue.js';
import type { Scheduler } from './jobs/schedule.js';

export const HOUSEKEEPING_JOB = 'platform.housekeeping';

export function registerHousekeeping(database: Database, jobs: JobQueue, schedules: Scheduler) {
  const db = database.db;
  jobs.register(
    HOUSEKEEPING_JOB,
    async () => {
      await removeExpiredIdempotencyKeys(db);
      await db.execute(sql`delete from domain_events where dispatched_at < now() - interval '7 days'`);
      await db.execute(
        sql`delete from webhook_events where processed_at is not null and received_at < now() - interval '30 days'`,
      );
    },
    { concurrency: 1 },
  );
  schedules.add({ name: HOUSEKEEPING_JOB, cron: '17 * * * *' });
}
