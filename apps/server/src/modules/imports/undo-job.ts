/**
 * The durable undo job: chunks of rows undone in order, each committed with the undo's checkpoint and figures on the
 * attempt (result.undo), progress on ContactsImportChannel, `undone` at the end. A process stopped midway resumes
 * after the last committed chunk; a job that gives up leaves the attempt `undoing` with the error, and asking again
 * resumes where it stopped (never re-running a committed chunk, which would report its restored fields as changed).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { COMPACT_JOB } from './compact.js';
import { publishProgress } from './progress.js';
import { importAttempts } from './schema.js';
import { FIRST_ROW } from './stage.js';
import { addFigures, noFigures, type UndoFigures, undoChunk } from './undo.js';

export const UNDO_JOB = 'imports.undo';

export interface UndoState extends UndoFigures {
  by: { id: number; name: string } | null;
  started_at: string;
  finished_at: string | null;
  last_row: number;
  error?: string | null;
}

export function startState(by: { id: number; name: string }): UndoState {
  return { ...noFigures(), by, started_at: new Date().toISOString(), finished_at: null, last_row: FIRST_ROW - 1 };
}

export async function processUndo(deps: Deps, attemptId: number, ctx: Pick<JobContext, 'signal'>, chunkRows = 25_000) {
  const db = deps.database.db;
  const [attempt] = await db.select().from(importAttempts).where(eq(importAttempts.id, attemptId));
  if (attempt?.status !== 'undoing') return;
  let state = attempt.result.undo as UndoState;
  const [{ max }] = (
    (await db.execute(
      sql`select coalesce(max(row_no), 0)::int as max from import_rows where attempt_id = ${attemptId}`,
    )) as unknown as { rows: Array<{ max: number }> }
  ).rows;
  const figures = { ...attempt, processed: Math.max(0, state.last_row - FIRST_ROW + 1) };
  const by = { companyId: attempt.companyId, attemptId, actorId: state.by?.id ?? attempt.userId };
  while (state.last_row < max) {
    if (ctx.signal.aborted) throw new Error('stopped');
    const lo = state.last_row;
    const hi = Math.min(lo + chunkRows, max);
    state = await db.transaction(async (t) => {
      const tx = t;
      const done = await undoChunk(tx, by, sql`r.attempt_id = ${attemptId} and r.row_no > ${lo} and r.row_no <= ${hi}`);
      const next: UndoState = { ...state, ...addFigures(state, done), last_row: hi, error: null };
      await tx
        .update(importAttempts)
        .set({
          result: sql`${importAttempts.result} || jsonb_build_object('undo', ${JSON.stringify(next)}::jsonb)`,
          processed: Math.min(attempt.total, hi - FIRST_ROW + 1),
          updatedAt: new Date(),
        })
        .where(eq(importAttempts.id, attemptId));
      return next;
    });
    figures.processed = Math.min(attempt.total, hi - FIRST_ROW + 1);
    publishProgress(deps.bus, figures);
  }
  const final: UndoState = { ...state, finished_at: new Date().toISOString() };
  const [row] = await db
    .update(importAttempts)
    .set({
      status: 'undone',
      processed: attempt.total,
      result: sql`${importAttempts.result} || jsonb_build_object('undo', ${JSON.stringify(final)}::jsonb)`,
      updatedAt: new Date(),
    })
    .where(and(eq(importAttempts.id, attemptId), eq(importAttempts.status, 'undoing')))
    .returning();
  if (row) {
    publishProgress(deps.bus, row);
    // The rows' retention is unchanged by an undo; the compaction also purges what expired meanwhile.
    await deps.jobs.enqueue(COMPACT_JOB, { attemptId }, { companyId: row.companyId });
  }
}

export function registerUndoJob(deps: Deps, register: (name: string, h: (ctx: JobContext) => Promise<void>) => void) {
  register(UNDO_JOB, async (ctx) => {
    const attemptId = Number(ctx.job.payload.attemptId);
    try {
      await processUndo(deps, attemptId, ctx);
    } catch (err) {
      if (!ctx.signal.aborted && ctx.job.attempts >= ctx.job.maxAttempts) {
        await deps.database.db
          .update(importAttempts)
          .set({
            result: sql`${importAttempts.result} || jsonb_build_object('undo',
              ${importAttempts.result}->'undo' || jsonb_build_object('error', ${(err as Error).message.slice(0, 500)}::text))`,
            updatedAt: new Date(),
          })
          .where(eq(importAttempts.id, attemptId));
      }
      throw err;
    }
  });
}
