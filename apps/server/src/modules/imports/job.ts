/**
 * The durable import job: stage -> classify -> write in chunks -> (attach files) -> completed. The phase and the
 * last committed row live on the attempt and each chunk commits together with its checkpoint, so a process killed
 * at any point resumes after the last whole chunk and no row is written twice.
 */
import fs from 'node:fs/promises';
import { eq, sql } from 'drizzle-orm';
import { buildAuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { companies, users } from '../../platform/db/schema.js';
import type { Deps } from '../../platform/deps.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { reachOf } from '../../platform/reach.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { attachFromList } from './attachments.js';
import { COMPACT_JOB } from './compact.js';
import { countActions, dumpTimes, writeChunk } from './engine.js';
import { classify } from './match.js';
import { ensureTags, ensureVendor, type ImportOptions } from './options.js';
import { inspectFile } from './parse/read.js';
import { publishProgress } from './progress.js';
import { importAttempts } from './schema.js';
import { FIRST_ROW, stageFile } from './stage.js';

export const IMPORT_JOB = 'imports.process';

/** IMPORT_TRACE=1 prints how long each phase took (bench/imports.ts). */
const trace = process.env.IMPORT_TRACE === '1';
let mark = performance.now();
const lap = (what: string) => {
  if (!trace) return;
  const now = performance.now();
  console.log(`  import ${what}: ${Math.round(now - mark)} ms`);
  mark = now;
};

interface Checkpoint {
  phase?: 'staged' | 'classified' | 'written';
  lastRow?: number;
  maxRow?: number;
  vendorId?: number | null;
  tagIds?: number[];
  updatedTagIds?: number[];
}

export interface RunOptions {
  /** Rows per transaction; tests make it tiny to cross chunk boundaries. */
  chunkRows?: number;
}

export async function processImport(
  deps: Deps,
  attemptId: number,
  ctx: Pick<JobContext, 'checkpoint' | 'signal'>,
  run: RunOptions = {},
) {
  const db = deps.database.db;
  const [attempt] = await db.select().from(importAttempts).where(eq(importAttempts.id, attemptId));
  // Deleted, cancelled or finished while queued: nothing to do.
  if (!attempt || !['pending', 'processing'].includes(attempt.status)) return;
  const opts = attempt.options as unknown as ImportOptions;
  const c = attempt.companyId;
  let cp = attempt.checkpoint as Checkpoint;
  const figures = { ...attempt, status: 'processing' };
  const save = async (next: Checkpoint, values: Partial<typeof importAttempts.$inferInsert> = {}) => {
    cp = next;
    Object.assign(figures, values);
    await db
      .update(importAttempts)
      .set({ ...values, checkpoint: next as Record<string, unknown>, status: 'processing', updatedAt: new Date() })
      .where(eq(importAttempts.id, attemptId));
    publishProgress(deps.bus, figures);
    await ctx.checkpoint({ attemptId, ...next });
  };

  lap('start');
  if (!cp.phase) {
    if (!attempt.filePath) throw new Error('the uploaded file is gone; import it again');
    const info = await inspectFile(attempt.filePath, listName(attempt), opts.sheet ?? undefined);
    // Reading a big file takes a while before the total is known: say how far it got, at most once a second.
    let told = 0;
    const onRead = (rows: number) => {
      if (Date.now() - told < 1000) return;
      told = Date.now();
      publishProgress(deps.bus, figures, rows);
    };
    const total = await stageFile(deps.database, attemptId, attempt.filePath, info, opts.headers, opts.fields, onRead);
    await save({ phase: 'staged', maxRow: FIRST_ROW - 1 + total }, { total });
    lap('staged');
  }
  if (cp.phase === 'staged') {
    // Fresh statistics for the rows just staged: without them (PGlite has no autovacuum) the planner took the
    // scrub join for a handful of rows and looped, 38 s instead of under one for 100,000 rows.
    await db.execute(sql`analyze import_rows`);
    const visible = await visibilityOf(db, opts.userId, c);
    const next = await db.transaction(async (tx) => {
      const vendorId = opts.vendor ? await ensureVendor(tx, c, opts.vendor) : opts.apiVendorId;
      const tagIds = await ensureTags(tx, c, opts.tags);
      const updatedTagIds = await ensureTags(tx, c, opts.updatedTags);
      await classify(tx, c, attemptId, opts, visible);
      return { ...cp, phase: 'classified' as const, lastRow: FIRST_ROW - 1, vendorId, tagIds, updatedTagIds };
    });
    const n = await countActions(db, attemptId);
    await save(next, { skipped: n.skip + n.duplicate, failed: n.invalid, created: 0, updated: 0 });
    lap('classified');
  }
  if (cp.phase === 'classified') {
    const size = run.chunkRows ?? (deps.database.kind === 'pglite' ? 10_000 : 25_000);
    const w = {
      companyId: c,
      attemptId,
      fileName: attempt.fileName,
      opts,
      vendorId: cp.vendorId ?? null,
      tagIds: cp.tagIds ?? [],
      updatedTagIds: cp.updatedTagIds ?? [],
    };
    while ((cp.lastRow ?? 0) < (cp.maxRow ?? 0)) {
      if (ctx.signal.aborted) throw new Error('stopped');
      const lo = cp.lastRow ?? 0;
      const hi = Math.min(lo + size, cp.maxRow ?? 0);
      const next = { ...cp, lastRow: hi };
      const figuresNext = await db.transaction(async (tx) => {
        const done = await writeChunk(tx, w, lo, hi);
        const values = {
          processed: hi - FIRST_ROW + 1,
          created: figures.created + done.created,
          updated: figures.updated + done.updated,
        };
        // The checkpoint commits with the chunk's rows: after a crash the chunk is either all there or not at all.
        await tx
          .update(importAttempts)
          .set({ ...values, checkpoint: next as Record<string, unknown>, updatedAt: new Date() })
          .where(eq(importAttempts.id, attemptId));
        return values;
      });
      cp = next;
      Object.assign(figures, figuresNext);
      publishProgress(deps.bus, figures);
      await ctx.checkpoint({ attemptId, ...next });
    }
    await save({ ...cp, phase: 'written' });
    lap('written');
    if (trace) dumpTimes();
  }
  if (cp.phase === 'written' && attempt.kind === 'attachments_list' && !('attachments' in attempt.result)) {
    const report = await attachFromList(deps, attempt);
    await db
      .update(importAttempts)
      .set({ result: { attachments: report } })
      .where(eq(importAttempts.id, attemptId));
  }
  await finish(deps, attemptId);
}

/** Final figures come from the staging rows, so they are exact even after chunks were re-run. */
async function finish(deps: Deps, attemptId: number) {
  const db = deps.database.db;
  const n = await countActions(db, attemptId);
  // The attempt completes together with the job that strips its staging rows of personal data (compact.ts).
  const { row: done, compactJob } = await db.transaction(async (tx) => {
    const [row] = await tx
      .update(importAttempts)
      .set({
        status: 'completed',
        processed: n.total,
        total: n.total,
        created: n.create,
        updated: n.update,
        unchanged: n.unchanged,
        skipped: n.skip + n.duplicate,
        failed: n.invalid,
        finishedAt: new Date(),
        updatedAt: new Date(),
        error: null,
      })
      .where(eq(importAttempts.id, attemptId))
      .returning();
    const job = row
      ? await deps.jobs.enqueue(COMPACT_JOB, { attemptId }, { companyId: row.companyId, db: tx })
      : undefined;
    return { row, compactJob: job };
  });
  deps.jobs.poke(compactJob);
  // The upload is no longer needed either.
  if (done?.filePath) {
    await fs.rm(done.filePath, { force: true });
    if (done.options.zipPath) await fs.rm(String(done.options.zipPath), { force: true });
    await db.update(importAttempts).set({ filePath: null }).where(eq(importAttempts.id, attemptId));
  }
  if (done) publishProgress(deps.bus, done);
}

export async function failAttempt(deps: Deps, attemptId: number, message: string) {
  const [row] = await deps.database.db
    .update(importAttempts)
    .set({ status: 'failed', error: message.slice(0, 1000), updatedAt: new Date(), finishedAt: new Date() })
    .where(eq(importAttempts.id, attemptId))
    .returning();
  if (row) publishProgress(deps.bus, row);
}

/** The file's own name decides how it is read (the stored copy has a generated name). */
function listName(a: { fileName: string; kind: string; options: Record<string, unknown> }) {
  return a.kind === 'attachments_list' ? String(a.options.listName ?? 'list.csv') : a.fileName;
}

async function visibilityOf(db: Db, userId: number, companyId: number) {
  const [row] = await db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.id, userId));
  if (!row || row.company.id !== companyId) return sql`false`;
  const auth = buildAuthContext(row.user, row.company, null);
  return reachOf(auth) === 'company' ? null : visibleContactsSql(auth);
}

export function registerImportJob(deps: Deps, register: (name: string, h: (ctx: JobContext) => Promise<void>) => void) {
  register(IMPORT_JOB, async (ctx) => {
    const attemptId = Number(ctx.job.payload.attemptId);
    try {
      await processImport(deps, attemptId, ctx);
    } catch (err) {
      // A stop is not a failure: the attempt resumes on the next start. A last failed try is shown as failed.
      if (!ctx.signal.aborted && ctx.job.attempts >= ctx.job.maxAttempts) {
        await failAttempt(deps, attemptId, (err as Error).message);
      }
      throw err;
    }
  });
}
