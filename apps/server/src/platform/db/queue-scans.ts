/**
 * Polls of queue tables (pending webhooks, queued and running jobs) as plain index scans.
 *
 * A queue row's index entry dies when the row moves on (processed, done), and stays in the index until VACUUM. A
 * plain index scan that meets such an entry marks it dead in the index page (kill_prior_tuple), so the next poll
 * skips it; a bitmap scan never does, and reads every entry again, on every poll. With stale statistics the planner
 * costs the two alike and picked the bitmap: measured on a 100,000-text broadcast (autovacuum off, as on the CI
 * database server), the pending-webhooks poll read ~56,000 dead entries a call (1.7 billion over the run) and the
 * database took ~1.6 of the 2 cores; the same poll as an index scan read 148,815 buffers once, then 674.
 * `SET LOCAL` holds for the transaction only: nothing else on the pooled connection changes.
 */
import { sql } from 'drizzle-orm';
import type { Db } from './client.js';

/** Runs `fn` in a transaction whose statements may not use bitmap scans. */
export async function withQueueScans<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_bitmapscan = off`);
    return fn(tx);
  });
}

/** The same, inside a transaction already open. */
export async function queueScansIn(tx: Db): Promise<void> {
  await tx.execute(sql`set local enable_bitmapscan = off`);
}
