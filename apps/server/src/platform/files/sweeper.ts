/**
 * The orphan sweeper: a durable job that removes what a crash left behind. The storage ledger's part is here
 * (blobs.ts: reserved blobs no record claimed within an hour, blobs whose record is gone); areas add their own
 * leftovers (the imports area: uploads no attempt needs). It is queued when the process starts (main.ts); once the
 * platform has scheduled jobs it should also run every few hours (a blob storage refused to delete waits till then).
 */
import type { Deps } from '../deps.js';
import { sweepBlobs } from './blobs.js';

export const SWEEP_JOB = 'files.sweep';

/** An area's leftovers: removes them and answers how many. */
export type SweepSource = (signal: AbortSignal) => Promise<number>;

export function registerSweepJob(deps: Deps, sources: Record<string, SweepSource> = {}) {
  deps.jobs.register(SWEEP_JOB, async (ctx) => {
    const swept: Record<string, unknown> = { blobs: await sweepBlobs(deps, { signal: ctx.signal }) };
    for (const [name, sweep] of Object.entries(sources)) {
      if (ctx.signal.aborted) break;
      swept[name] = await sweep(ctx.signal);
    }
    // What was removed stays on the job row, for whoever wonders where a file went.
    await ctx.checkpoint(swept);
  });
}

/** Queues a sweep unless one is already waiting or running (several processes starting at once queue one). */
export async function enqueueSweep(deps: Deps): Promise<number | null> {
  const [busy] = await deps.database.query<{ id: number }>(
    "select id from jobs where name = $1 and status in ('queued', 'running') limit 1",
    [SWEEP_JOB],
  );
  if (busy) return null;
  return deps.jobs.enqueue(SWEEP_JOB, {}, { maxAttempts: 3 });
}
