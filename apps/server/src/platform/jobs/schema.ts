import { sql } from 'drizzle-orm';
import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Durable jobs. A job is a row before it is anything else, so once accepted it survives a restart: a job left
 * 'running' by a dead process is found by its stale heartbeat and queued again (or failed after max_attempts).
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    companyId: integer('company_id'),
    name: text('name').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** queued | running | done | failed */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    /** Handler-owned checkpoint: where to resume after a crash. */
    progress: jsonb('progress').$type<Record<string, unknown>>().notNull().default({}),
    error: text('error'),
    runAfter: timestamp('run_after', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /** The same work is never queued twice: at most one queued or running job per (name, unique_key). */
    uniqueKey: text('unique_key'),
  },
  (t) => [
    index('jobs_status_run_after').on(t.status, t.runAfter, t.id),
    uniqueIndex('jobs_active_unique')
      .on(t.name, t.uniqueKey)
      .where(sql`unique_key is not null and status in ('queued', 'running')`),
    // The fair claim walks the tenants that have queued work (one index probe each) and takes the least busy.
    index('jobs_queued_tenant').on(sql`coalesce(${t.companyId}, 0)`, t.id).where(sql`status = 'queued'`),
  ],
);

export type JobRow = typeof jobs.$inferSelect;

/**
 * Cron schedules: one row per schedule name, holding the last slot that fired. Firing is a compare-and-set on
 * `last_slot`, so with several processes ticking at once exactly one enqueues a slot's job.
 */
export const jobSchedules = pgTable('job_schedules', {
  name: text('name').primaryKey(),
  cron: text('cron').notNull(),
  lastSlot: timestamp('last_slot', { withTimezone: true }).notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
