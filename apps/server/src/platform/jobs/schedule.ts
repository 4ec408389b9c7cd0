/**
 * Cron-like schedules an area registers at start ("0 6 * * *": the birthday triggers of the day). Every process
 * ticks every schedule; a slot fires once across all of them: the process that moves `job_schedules.last_slot`
 * forward (compare-and-set) enqueues the slot's job in the same transaction, with the slot as its unique key.
 * A schedule seen for the first time starts from the next slot; after downtime the latest missed slot fires once
 * (not every missed one). Times are UTC unless the schedule names a time zone.
 */
import { CronExpressionParser } from 'cron-parser';
import { sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import type { JobQueue } from './queue.js';

export interface Schedule {
  /** The schedule's name; also the job's name unless `job` is given. */
  name: string;
  cron: string;
  job?: string;
  payload?: Record<string, unknown>;
  /** IANA time zone the cron fields are read in (default UTC). */
  tz?: string;
}

/** The latest slot of `cron` at or before `now`. Throws on an expression cron-parser refuses. */
export function latestSlot(cron: string, now: Date, tz = 'UTC'): Date {
  // prev() is strictly before currentDate: a tick exactly on a slot must still see that slot.
  return CronExpressionParser.parse(cron, { currentDate: new Date(now.getTime() + 1), tz })
    .prev()
    .toDate();
}

export class Scheduler {
  private schedules = new Map<string, Schedule>();
  /**
   * The slot this process last settled per schedule (fired it, saw it first, or found another process had): the
   * job runner ticks on every turn, hundreds a second while a broadcast sends, and a slot needs the database once.
   */
  private settled = new Map<string, number>();

  constructor(
    private readonly database: Database,
    private readonly queue: JobQueue,
  ) {}

  /** Registers a schedule; its job must be registered on the queue (checked at the first tick). */
  add(s: Schedule) {
    if (this.schedules.has(s.name)) throw new Error(`schedule ${s.name} registered twice`);
    latestSlot(s.cron, new Date(), s.tz); // a bad expression fails at start, not at 6 a.m.
    this.schedules.set(s.name, s);
  }

  /** Fires every schedule whose slot has come (runs on each turn of the job runner; tests call it with a clock). */
  async tick(now = new Date()) {
    for (const s of this.schedules.values()) {
      try {
        await this.fire(s, now);
      } catch (err) {
        console.error(`schedule ${s.name} failed to fire`, (err as Error).message);
      }
    }
  }

  /** True when this call fired the slot (false: not due, first sight, or another process fired it). */
  async fire(s: Schedule, now = new Date()): Promise<boolean> {
    const job = s.job ?? s.name;
    if (!this.queue.has(job)) throw new Error(`schedule ${s.name}: no job ${job} registered`);
    const slot = latestSlot(s.cron, now, s.tz);
    if (this.settled.get(s.name) === slot.getTime()) return false;
    let enqueued = 0;
    await this.database.db.transaction(async (tx) => {
      const seen = await tx.execute<{ fire: boolean }>(
        sql`insert into job_schedules as s (name, cron, last_slot) values (${s.name}, ${s.cron}, ${slot.toISOString()})
            on conflict (name) do update set last_slot = excluded.last_slot, cron = excluded.cron, updated_at = now()
              where s.last_slot < excluded.last_slot
            returning (xmax::text <> '0') as fire`,
      );
      // No row: not due yet or someone else moved it. A fresh insert (xmax = 0): first sight, start from here.
      if (!seen.rows[0]?.fire) return;
      const slotIso = slot.toISOString();
      enqueued = await this.queue.enqueue(
        job,
        { ...s.payload, slot: slotIso },
        { db: tx, uniqueKey: `${s.name}@${slotIso}`, maxAttempts: 3 },
      );
    });
    this.settled.set(s.name, slot.getTime());
    if (enqueued) this.queue.poke(enqueued);
    return enqueued > 0;
  }
}
