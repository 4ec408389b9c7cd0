/**
 * The jobs port. Areas register handlers by name (with a concurrency per kind) and enqueue work; the table is the
 * source of truth. In-process by default (a poller claims rows with FOR UPDATE SKIP LOCKED, so several processes on
 * one PostgreSQL server also share work safely); with REDIS_URL, BullMQ carries the wake-ups between processes (see
 * bullmq.ts). Decisions: docs/decisions/jobs.md.
 *
 * - A unique key per job: at most one queued or running job per (name, unique_key), by a partial unique index.
 * - Fairness: the next job comes from the tenant with the fewest running jobs (across all processes), so one
 *   company's 100k-recipient broadcast does not starve another's password-reset mail.
 * - Concurrency: at most `concurrency` jobs of a kind at once in this process, and `processConcurrency` in all.
 * - Schedules (schedule.ts) and throttles (throttle.ts) ride on it.
 */
import crypto from 'node:crypto';
import { and, eq, lt, type SQL, sql } from 'drizzle-orm';
import type { Database, Db } from '../db/client.js';
import { withQueueScans } from '../db/queue-scans.js';
import { type JobRow, jobs } from './schema.js';
import { MemoryThrottle, type Throttle, type ThrottleRule, take } from './throttle.js';

export interface JobContext {
  job: JobRow;
  /** Saves a checkpoint (also the heartbeat); the handler reads job.progress to resume after a crash. */
  checkpoint(progress: Record<string, unknown>): Promise<void>;
  signal: AbortSignal;
  /** Waits for a slot of a shared throttle (e.g. a provider's messages per second) before sending `n` units. */
  throttle(key: string, rule: ThrottleRule, n?: number): Promise<void>;
  /**
   * Frees this job's unique key while it runs, so the same work can be queued again meanwhile (a drain job: what
   * arrives after it took its batch gets a run of its own instead of joining one that will not look again).
   */
  releaseKey(): Promise<void>;
}
export type JobHandler = (ctx: JobContext) => Promise<void>;

export interface JobKindOptions {
  /** Jobs of this kind running at once in one process (default 2). I/O-bound kinds go higher. */
  concurrency?: number;
}

export interface EnqueueOptions {
  companyId?: number | null;
  maxAttempts?: number;
  /** Enqueue inside the caller's transaction so the job exists exactly when the records it works on do. */
  db?: Db;
  /** The same key while a job of this name is queued or running answers that job instead of queueing another. */
  uniqueKey?: string;
  /** Not before this time. */
  runAt?: Date;
}

export interface QueueOptions {
  /** Jobs running at once in this process, all kinds together. */
  processConcurrency?: number;
  pollMs?: number;
  throttle?: Throttle;
}

const HEARTBEAT_MS = 5_000;
const STALE_MS = 30_000;
/** Tenants looked at per claim, least busy first; past them the oldest ready job of anyone is taken. */
const TENANTS_PER_CLAIM = 20;

export class JobQueue {
  private handlers = new Map<string, { handler: JobHandler; concurrency: number }>();
  private running = new Map<number, { name: string; promise: Promise<void>; abort: AbortController }>();
  private timer: NodeJS.Timeout | null = null;
  private stopped = true;
  /** The poller's loop while it runs: stop() waits for it, so a claim in flight is not left running unwatched. */
  private looping: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private tickHooks: Array<() => Promise<void>> = [];
  private workers: Array<{ start(): void; stop(): Promise<void> }> = [];
  readonly workerId = `${process.pid}-${crypto.randomBytes(4).toString('hex')}`;
  readonly processConcurrency: number;
  readonly throttle: Throttle;
  private readonly pollMs: number;
  /** Set by the BullMQ adapter: called after a job row is committed. */
  onEnqueued: ((id: number) => Promise<void>) | null = null;

  constructor(
    private readonly database: Database,
    opts: QueueOptions = {},
  ) {
    this.processConcurrency = opts.processConcurrency ?? 8;
    this.pollMs = opts.pollMs ?? 1_000;
    this.throttle = opts.throttle ?? new MemoryThrottle();
  }

  register(name: string, handler: JobHandler, opts: JobKindOptions = {}) {
    if (this.handlers.has(name)) throw new Error(`job ${name} registered twice`);
    this.handlers.set(name, { handler, concurrency: Math.max(1, opts.concurrency ?? 2) });
  }

  has(name: string) {
    return this.handlers.has(name);
  }

  /** Background work that starts and stops with the job runner (the event outbox's dispatcher). */
  addWorker(worker: { start(): void; stop(): Promise<void> }) {
    this.workers.push(worker);
    if (!this.stopped) worker.start();
  }

  /** Runs on every turn of the runner (schedules use it to fire their slots). */
  onTick(hook: () => Promise<void>) {
    this.tickHooks.push(hook);
  }

  async enqueue(name: string, payload: Record<string, unknown>, opts: EnqueueOptions = {}): Promise<number> {
    if (!this.handlers.has(name)) throw new Error(`no handler for job ${name}`);
    const db = opts.db ?? this.database.db;
    const key = opts.uniqueKey ?? null;
    const runAfter = opts.runAt ? sql`${opts.runAt.toISOString()}::timestamptz` : sql`now()`;
    const res = await db.execute<{ id: number }>(
      sql`insert into jobs (name, payload, company_id, max_attempts, unique_key, run_after)
          values (${name}, ${JSON.stringify(payload)}::jsonb, ${opts.companyId ?? null}, ${opts.maxAttempts ?? 3},
            ${key}, ${runAfter})
          on conflict (name, unique_key) where unique_key is not null and status in ('queued', 'running')
          do nothing returning id`,
    );
    if (!res.rows[0]) {
      // The same work is already queued or running: that job stands for this one.
      const same = await db.execute<{ id: number }>(
        sql`select id from jobs where name = ${name} and unique_key = ${key} and status in ('queued', 'running')
            order by id desc limit 1`,
      );
      if (same.rows[0]) return Number(same.rows[0].id);
      // It finished between the insert and the look: queue it again.
      return this.enqueue(name, payload, opts);
    }
    const id = Number(res.rows[0].id);
    // Inside a caller's transaction the row is not visible yet; the poller (or the caller, after commit) picks it up.
    if (!opts.db) this.poke(id);
    return id;
  }

  /**
   * An `insert into jobs ... returning id` to embed in a caller's statement (e.g. a data-modifying CTE), for a hot
   * path where one round trip stores a record and its job together. `source` is a query answering `payload` (jsonb)
   * and `unique_key`; no row, no job. The caller pokes the returned id after the statement.
   */
  insertFrom(name: string, source: SQL, opts: Pick<EnqueueOptions, 'companyId' | 'maxAttempts'> = {}): SQL {
    if (!this.handlers.has(name)) throw new Error(`no handler for job ${name}`);
    return sql`insert into jobs (name, payload, company_id, max_attempts, unique_key, run_after)
      select ${name}, s.payload, ${opts.companyId ?? null}::bigint, ${opts.maxAttempts ?? 3}, s.unique_key, now()
      from (${source}) s
      on conflict (name, unique_key) where unique_key is not null and status in ('queued', 'running')
      do nothing returning id`;
  }

  /** Tells the runner a job is ready (after the enqueuing transaction committed). */
  poke(id?: number) {
    if (this.onEnqueued && id !== undefined) void this.onEnqueued(id).catch(() => {});
    this.wake?.();
  }

  /** True until start() and after stop(): no job runs, from the poller or from BullMQ. */
  get isStopped() {
    return this.stopped;
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    for (const w of this.workers) w.start();
    this.looping = this.loop();
  }

  async stop() {
    this.stopped = true;
    this.wake?.();
    await Promise.allSettled(this.workers.map((w) => w.stop()));
    // A claim the loop had in flight (a transaction of its own) may still hand it a job: wait for the loop to see
    // the stop, then abort what runs. Before, such a job outlived stop() and wrote to a closed pool.
    await this.looping;
    this.looping = null;
    for (const r of this.running.values()) r.abort.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.promise));
  }

  /** Waits until no job is queued or running (tests and benches). */
  async drain(timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    while (Date.now() < until) {
      const [{ n }] = await this.database.query<{ n: number }>(
        // Retries due within seconds count; a job scheduled for later does not hold the drain forever.
        "select count(*)::int as n from jobs where status in ('queued','running') and run_after <= now() + interval '30 seconds'",
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
        for (const hook of this.tickHooks) await hook();
        while (!this.stopped && this.running.size < this.processConcurrency) {
          const job = await this.claim();
          if (!job) break;
          void this.run(job);
        }
      } catch (err) {
        console.error('job runner error', (err as Error).message);
      }
      if (this.stopped) break;
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.timer = setTimeout(resolve, this.pollMs);
      });
      if (this.timer) clearTimeout(this.timer);
    }
  }

  /** Kinds with a free slot in this process. */
  private kindsWithRoom(): string[] {
    const busy = new Map<string, number>();
    for (const r of this.running.values()) busy.set(r.name, (busy.get(r.name) ?? 0) + 1);
    return [...this.handlers].filter(([name, h]) => (busy.get(name) ?? 0) < h.concurrency).map(([name]) => name);
  }

  private async claimWhere(db: Db, where: ReturnType<typeof sql>): Promise<JobRow | null> {
    const res = await db.execute(
      sql`update jobs set status = 'running', attempts = attempts + 1, locked_by = ${this.workerId}, heartbeat_at = now()
          where id = (select id from jobs where status = 'queued' and run_after <= now() and ${where}
                      order by id for update skip locked limit 1)
          returning *`,
    );
    const raw = res.rows[0];
    return raw ? toJobRow(raw) : null;
  }

  /**
   * Claims the next job fairly: tenants with queued work, least busy first (running jobs in every process), each
   * one's oldest ready job of a kind this process has room for. A wake-up naming a job (BullMQ) is only a hint that
   * work is there: taking that exact job would let one tenant's burst of wake-ups jump the line.
   */
  async claim(_hint?: number): Promise<JobRow | null> {
    const kinds = this.kindsWithRoom();
    if (kinds.length === 0 || this.running.size >= this.processConcurrency) return null;
    const ofKinds = sql`name = any(${sql.param(kinds)}::text[])`;
    // Index scans only: every job leaves dead 'queued' and 'running' entries behind (db/queue-scans.ts).
    return withQueueScans(this.database.db, (tx) => this.claimIn(tx, ofKinds));
  }

  private async claimIn(db: Db, ofKinds: ReturnType<typeof sql>): Promise<JobRow | null> {
    const tenants = await db.execute<{ k: number }>(
      sql`with recursive t(k) as (
            select min(coalesce(company_id, 0)) from jobs where status = 'queued'
            union all
            select (select min(coalesce(j.company_id, 0)) from jobs j
                    where j.status = 'queued' and coalesce(j.company_id, 0) > t.k)
            from t where t.k is not null)
          select t.k from t where t.k is not null
          order by (select count(*) from jobs r where r.status = 'running' and coalesce(r.company_id, 0) = t.k), t.k
          limit ${TENANTS_PER_CLAIM}`,
    );
    for (const { k } of tenants.rows) {
      const job = await this.claimWhere(db, sql`coalesce(company_id, 0) = ${Number(k)} and ${ofKinds}`);
      if (job) return job;
    }
    return tenants.rows.length < TENANTS_PER_CLAIM ? null : this.claimWhere(db, ofKinds);
  }

  run(job: JobRow) {
    const abort = new AbortController();
    const promise = this.execute(job, abort).finally(() => {
      this.running.delete(job.id);
      this.wake?.();
    });
    this.running.set(job.id, { name: job.name, promise, abort });
    return promise;
  }

  private async execute(job: JobRow, abort: AbortController) {
    const db = this.database.db;
    const entry = this.handlers.get(job.name);
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
      if (!entry) throw new Error(`no handler for job ${job.name}`);
      await entry.handler({
        job,
        signal: abort.signal,
        checkpoint: async (progress) => {
          job.progress = progress;
          await db.update(jobs).set({ progress, heartbeatAt: new Date() }).where(eq(jobs.id, job.id));
        },
        throttle: (key, rule, n) => take(this.throttle, key, rule, n, abort.signal),
        releaseKey: async () => {
          job.uniqueKey = null;
          await db.update(jobs).set({ uniqueKey: null }).where(eq(jobs.id, job.id));
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
  private staleCheckedAt = 0;

  /**
   * At most once a second: the loop turns on every poke (hundreds a second while a broadcast sends), and a job is
   * stale only after STALE_MS without a heartbeat.
   */
  private async requeueStale() {
    if (Date.now() - this.staleCheckedAt < 1_000) return;
    this.staleCheckedAt = Date.now();
    await this.database.db
      .update(jobs)
      .set({ status: 'queued', lockedBy: null })
      .where(and(eq(jobs.status, 'running'), lt(jobs.heartbeatAt, new Date(Date.now() - STALE_MS))));
  }
}

function toJobRow(r: Record<string, unknown>): JobRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  const json = (v: unknown) => (typeof v === 'string' ? JSON.parse(v) : v) as Record<string, unknown>;
  return {
    id: Number(r.id),
    companyId: r.company_id === null ? null : Number(r.company_id),
    name: String(r.name),
    payload: json(r.payload),
    status: String(r.status),
    attempts: Number(r.attempts),
    maxAttempts: Number(r.max_attempts),
    progress: json(r.progress),
    error: (r.error as string) ?? null,
    runAfter: date(r.run_after)!,
    lockedBy: (r.locked_by as string) ?? null,
    heartbeatAt: date(r.heartbeat_at),
    createdAt: date(r.created_at)!,
    finishedAt: date(r.finished_at),
    uniqueKey: (r.unique_key as string) ?? null,
  };
}
