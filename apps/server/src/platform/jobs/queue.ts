/**
 * The jobs port. Areas register handlers by name and enqueue work; the table is the source of truth. In-process
 * by default (a poller claims rows with FOR UPDATE SKIP LOCKED, so several processes on one PostgreSQL server also
 * share work safely); with REDIS_URL, BullMQ carries the wake-ups between processes (see bullmq.ts).
 */
import crypto from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.js';
import { type JobRow, jobs } from './schema.js';

export interface JobContext {
  job: JobRow;
  /** Saves a checkpoint (also the heartbeat); the handler reads job.progress to resume after a crash. */
  checkpoint(progress: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
}
export type JobHandler = (ctx: JobContext) => Promise<void>;

export interface EnqueueOptions {
  companyId?: number | null;
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction so the job exists exactly when the records it works on do. */
  db?: Db;
}

const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;

export class JobQueue {
  private handlers = new Map<string, JobHandler>();
  private running = new Map<number, { promise: Promise<void>; abort: AbortController }>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  private wake: (() => void) | null = null;
  readonly workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  /** Set by the BullMQ adapter: called after a job row is committed. */
  onEnqueued: ((id: number) => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    private readonly concurrency = 2,
    private readonly pollMs = 1_000,
  ) {}

  register(name: string, handler: JobHandler) {
    if (this.handlers.has(name)) throw new Error(`job ${name} registered twice`);
    this.handlers.set(name, handler);
  }

  async enqueue(name: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<number> {
    if (!this.handlers.has(name)) throw new Error(`no handler for job ${name}`);
    const db = opts.db ?? this.database.db;
    const [row] = await db
      .insert(jobs)
      .values({ name, payload, companyId: opts.companyId ?? null, maxAttempts: opts.maxAttempts ?? 3 })
      .returning({ id: jobs.id });
    // Inside a caller's transaction the row is not visible yet; the poller (or the caller, after commit) picks it up.
    if (!opts.db) this.poke(row.id);
    return row.id;
  }

  /** Tells the runner a job is ready (after the enqueuing transaction committed). */
  poke(id?: number) {
    if (this.onEnqueued && id !== undefined) void this.onEnqueued(id);
    this.wake?.();
  }

  /** True until start() and after stop(): no job runs, from the poller or from BullMQ. */
  get isStopped() {
    return this.stopped;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    void this.loop();
  }

  async stop() {
    this.stopped = true;
    this.wake?.();
    for (const r of this.running.values()) r.abort.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.promise));
  }

  /** Waits until no job is queued or running (tests and benches). */
  async drain(timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const [{ n }] = await this.database.query<{ n: number }>(
        "select count(*)::int as n from jobs where status in ('queued','running')",
      );
      if (n === 0 && this.running.size === 0) return;
      this.wake?.();
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('jobs did not drain in time');
  }

  private async loop() {
    while (!this.stopped) {
      try {
        await this.requeueStale();
        while (this.running.size < this.concurrency) {
          const job = await this.claim();
          if (!job) break;
          this.run(job);
        }
      } catch (err) {
        console.error('job runner error', (err as Error).message);
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.pollMs);
      });
      if (this.timer) clearTimeout(this.timer);
    }
  }

  /** Claims one job by id (BullMQ workers) or the oldest ready one. */
  async claim(id?: number): Promise<JobRow | null> {
    const pick = id
      ? sql`select id from jobs where id = ${id} and status = 'queued' for update skip locked`
      : sql`select id from jobs where status = 'queued' and run_after <= now() order by id for update skip locked limit 1`;
    const res = await this.database.db.execute(
      sql`update jobs set status = 'running', attempts = attempts + 1, locked_by = ${this.workerId}, heartbeat_at = now()
          where id = (${pick}) returning *`,
    );
    const raw = (res as unknown as { rows: Record<string, unknown>[] }).rows[0];
    return raw ? toJobRow(raw) : null;
  }

  run(job: JobRow) {
    const abort = new AbortController();
    const promise = this.execute(job, abort).finally(() => {
      this.running.delete(job.id);
      this.wake?.();
    });
    this.running.set(job.id, { promise, abort });
    return promise;
  }

  private async execute(job: JobRow, abort: AbortController) {
    const db = this.database.db;
    const handler = this.handlers.get(job.name);
    // A Drizzle query runs only when awaited (then() called): `void query` alone never sent the heartbeat.
    const beat = setInterval(() => {
      db.update(jobs)
        .set({ heartbeatAt: new Date() })
        .where(eq(jobs.id, job.id))
        .then(
          () => {},
          () => {},
        );
    }, HEARTBEAT_MS);
    try {
      if (!handler) throw new Error(`no handler for job ${job.name}`);
      await handler({
        job,
        signal: abort.signal,
        checkpoint: async (progress) => {
          job.progress = progress;
          await db.update(jobs).set({ progress, heartbeatAt: new Date() }).where(eq(jobs.id, job.id));
        },
      });
      await db.update(jobs).set({ status: 'done', finishedAt: new Date(), error: null }).where(eq(jobs.id, job.id));
    } catch (err) {
      const message = (err as Error).message ?? String(err);
      // Stopping the process is not the job's fault: leave it for the next start to resume.
      if (abort.signal.aborted && this.stopped) {
        await db
          .update(jobs)
          .set({ status: 'queued', attempts: sql`${jobs.attempts} - 1` })
          .where(eq(jobs.id, job.id));
      } else {
        const final = job.attempts >= job.maxAttempts;
        await db
          .update(jobs)
          .set({
            status: final ? 'failed' : 'queued',
            error: message.slice(0, 2000),
            runAfter: new Date(Date.now() + 2 ** job.attempts * 1000),
            finishedAt: final ? new Date() : null,
          })
          .where(eq(jobs.id, job.id));
      }
    } finally {
      clearInterval(beat);
    }
  }

  /** A running job whose heartbeat stopped belongs to a dead process: queue it again (it resumes from its checkpoint). */
  private async requeueStale() {
    await this.database.db
      .update(jobs)
      .set({ status: 'queued', lockedBy: null })
      .where(and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, new Date(Date.now() - STALE_MS))));
  }
}

function toJobRow(r: Record<string, unknown>): JobRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    id: Number(r.id),
    companyId: r.company_id === null ? null : Number(r.company_id),
    name: String(r.name),
    payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
    status: String(r.status),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    progress: (typeof r.progress === 'string' ? JSON.parse(r.progress) : r.progress) as Record<string, unknown>,
    error: (r.error as string) ?? null,
    runAfter: date(r.run_after)!,
    lockedBy: (r.locked_by as string) ?? null,
    heartbeatAt: date(r.heartbeat_at),
    createdAt: date(r.created_at)!,
    finishedAt: date(r.finished_at),
  };
}
