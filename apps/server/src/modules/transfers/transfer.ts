/**
 * Bulk transfers as durable jobs. The request records the whole selection as transfer_logs (each contact with its
 * previous owner and pool) in one set-based statement, in the same transaction as the attempt and its job; the job
 * then moves contacts in chunks. Each chunk moves its contacts, advances attempt.processed and the job checkpoint in
 * ONE transaction, so a crash resumes exactly where it stopped and an attempt always says how far it got (processed
 * of total; failed with the error if it gave up). The log row is each contact's record of the transfer (shown as its
 * Transfer history; a revert stamps reverted_at on the rows it put back): no second copy goes to contact_events,
 * whose per-row key checks doubled a 250,000-contact transfer (docs/decisions/contacts-bulk-writes.md).
 */
import { MAX_TRANSFER_LIMIT } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { conflict, invalid, notFound } from '../../platform/http/errors.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { reachedUserIdsSql } from '../../platform/reach.js';
import { rowsOf } from '../contacts/list-scope.js';
import { countSelection, type ResolvedSelection } from '../contacts/selection.js';
import { recordTransferChange } from './live.js';

export const TRANSFER_JOB = 'contacts.transfer';
export const REVERT_JOB = 'contacts.transfer_revert';

/**
 * Rows per chunk (one transaction each) and chunks run side by side. Small chunks keep each commit short, so the
 * locks and the write burst other agents' reads wait behind stay short too; two lanes keep both cores busy.
 * Measured in bench/contacts.ts (transfer phase); mutable only so the bench can compare settings.
 */
export const transferTuning = { chunk: 10_000, lanes: 2 };

export interface TransferTarget {
  to_user_id?: number | null;
  to_pool_id?: number | null;
}

export async function startTransfer(
  app: FastifyInstance,
  auth: AuthContext,
  db: Db,
  sel: ResolvedSelection,
  target: TransferTarget,
  selectionField: string,
): Promise<number> {
  const toUser = target.to_user_id ?? null;
  const toPool = target.to_pool_id ?? null;
  if ((toUser === null) === (toPool === null)) throw invalid('to_user_id', 'choose one agent or one pool');
  const c = auth.company.id;
  if (toUser !== null) {
    const [ok] = await rowsOf(
      db,
      sql`select 1 from users where id = ${toUser} and company_id = ${c} and id in ${reachedUserIdsSql(auth)}`,
    );
    if (!ok) throw notFound('to_user');
  } else {
    const [ok] = await rowsOf(db, sql`select 1 from pools where id = ${toPool} and company_id = ${c}`);
    if (!ok) throw notFound('to_pool');
  }
  const [attempt] = await rowsOf<{ id: number }>(
    db,
    sql`insert into transfer_attempts (company_id, created_by, to_user_id, to_pool_id, status, total, selection)
        values (${c}, ${auth.user.id}, ${toUser}, ${toPool}, 'pending', 0, ${JSON.stringify(sel.describe)}::jsonb)
        returning id`,
  );
  const id = Number(attempt.id);
  // The selection is read once: the logs are written and counted in one statement (one past the limit at most).
  // Over the limit or empty, the caller's transaction rolls everything back.
  const [{ n: total }] = await rowsOf<{ n: number }>(
    db,
    sql`with logged as (insert into transfer_logs (attempt_id, contact_id, from_user_id, from_pool_id, to_user_id)
          select ${id}, contacts.id, contacts.owner_id, contacts.pool_id, ${toUser}::int
          from contacts where contacts.id in (${sel.idsSql}) order by contacts.id limit ${MAX_TRANSFER_LIMIT + 1}
          returning 1)
        select count(*)::int as n from logged`,
  );
  if (total > MAX_TRANSFER_LIMIT) {
    throw invalid(
      selectionField,
      `at most ${MAX_TRANSFER_LIMIT} contacts can be transferred at once (${await countSelection(db, sel)} selected)`,
    );
  }
  if (total === 0) throw invalid(selectionField, 'no contacts to transfer');
  await db.execute(sql`update transfer_attempts set total = ${total} where id = ${id}`);
  await app.deps.jobs.enqueue(TRANSFER_JOB, { attempt_id: id, actor_id: auth.user.id }, { companyId: c, db });
  return id;
}

interface AttemptRow {
  id: number;
  company_id: number;
  created_by: number | null;
  to_user_id: number | null;
  to_pool_id: number | null;
  status: string;
  reverting: boolean;
  reverted: boolean;
}

async function loadAttempt(db: Db, id: number): Promise<AttemptRow> {
  const [row] = await rowsOf<AttemptRow>(db, sql`select * from transfer_attempts where id = ${id}`);
  if (!row) throw new Error(`transfer attempt ${id} is gone`);
  return row;
}

/**
 * Lanes (logs by id modulo the lane count) run side by side on their own connections; each keeps its own
 * checkpoint, so a resumed job skips exactly what any lane finished. A resumed job keeps the lane count it started
 * with (stored in its progress), so the checkpoints keep their meaning.
 */
const lanesOf = (ctx: JobContext) => Number(ctx.job.progress.lanes ?? transferTuning.lanes);

/** One chunk of one lane in one transaction: move (or move back), counters, checkpoint. */
async function runChunk(db: Db, ctx: JobContext, a: AttemptRow, revert: boolean, lane: number) {
  const key = `after_${lane}`;
  const after = Number(ctx.job.progress[key] ?? 0);
  const lanes = lanesOf(ctx);
  const change = revert
    ? sql`update contacts c set
          owner_id = case when ${a.to_user_id}::int is not null then b.from_user_id else c.owner_id end,
          pool_id = case when ${a.to_pool_id}::int is not null then b.from_pool_id else c.pool_id end,
          updated_at = now()
        from batch b where c.id = b.contact_id and c.company_id = ${a.company_id}
          and (c.owner_id is not distinct from coalesce(${a.to_user_id}::int, c.owner_id))
          and (c.pool_id is not distinct from coalesce(${a.to_pool_id}::int, c.pool_id))
        returning c.id`
    : sql`update contacts c set owner_id = coalesce(${a.to_user_id}::int, c.owner_id),
          pool_id = coalesce(${a.to_pool_id}::int, c.pool_id), updated_at = now()
        from batch b where c.id = b.contact_id and c.company_id = ${a.company_id} returning c.id`;
  // A revert stamps the log rows of the contacts it actually put back (not those someone moved again since).
  const mark = revert
    ? sql`, marked as (update transfer_logs l set reverted_at = now() from moved
          where l.attempt_id = ${a.id} and l.contact_id = moved.id)`
    : sql``;
  const run = async (tx: Db) => {
    const [res] = await rowsOf<{ n: number; last: string | null }>(
      tx,
      sql`with batch as (
            select id, contact_id, from_user_id, from_pool_id from transfer_logs
            where attempt_id = ${a.id} and id > ${after} and id % ${lanes} = ${lane} order by id
            limit ${transferTuning.chunk}),
          moved as (${change})${mark}
          select count(*)::int as n, max(id)::text as last from batch`,
    );
    if (res.last === null) return res;
    // Short statements last, so the lanes hold the attempt and job rows only for the instant before commit.
    if (!revert) {
      await tx.execute(
        sql`update transfer_attempts set processed = processed + ${res.n}, updated_at = now() where id = ${a.id}`,
      );
    }
    await tx.execute(
      sql`update jobs set progress = progress || jsonb_build_object(${key}::text, ${Number(res.last)}::bigint,
            'lanes', ${lanes}::int), heartbeat_at = now() where id = ${ctx.job.id}`,
    );
    return res;
  };
  const res = await db.transaction(run);
  if (res.last !== null) ctx.job.progress = { ...ctx.job.progress, [key]: Number(res.last), lanes };
  return res.n;
}

/** Runs every lane to the end of the logs. */
async function runAll(db: Db, ctx: JobContext, a: AttemptRow, revert: boolean) {
  const lanes = lanesOf(ctx);
  await Promise.all(
    Array.from({ length: lanes }, async (_, lane) => {
      while ((await runChunk(db, ctx, a, revert, lane)) > 0) {
        if (ctx.signal.aborted) throw new Error('stopped');
      }
    }),
  );
}

export function registerTransferJobs(app: FastifyInstance) {
  const db = app.deps.database.db;
  // The attempt's new state and the "it changed" event commit together (the live notification follows from it).
  const settle = async (a: AttemptRow, actorId: number | null, change: ReturnType<typeof sql>) => {
    await db.transaction(async (tx) => {
      await tx.execute(change);
      await recordTransferChange(tx, a, actorId);
    });
    app.deps.events.poke();
  };

  app.deps.jobs.register(TRANSFER_JOB, async (ctx) => {
    const a = await loadAttempt(db, Number(ctx.job.payload.attempt_id));
    const actor = Number(ctx.job.payload.actor_id) || null;
    try {
      await db.execute(sql`update transfer_attempts set status = 'processing', updated_at = now() where id = ${a.id}`);
      await runAll(db, ctx, a, false);
      await settle(
        a,
        actor,
        sql`update transfer_attempts set status = 'complete', completed_at = now(), updated_at = now(), error = null where id = ${a.id}`,
      );
    } catch (err) {
      if (ctx.job.attempts >= ctx.job.maxAttempts && !ctx.signal.aborted) {
        // Given up: say so, with how far it got; the moved part can be reverted or the rest resumed.
        await settle(
          a,
          actor,
          sql`update transfer_attempts set status = 'failed', error = ${(err as Error).message.slice(0, 500)}, updated_at = now() where id = ${a.id}`,
        );
      }
      throw err;
    }
  });

  app.deps.jobs.register(REVERT_JOB, async (ctx) => {
    const a = await loadAttempt(db, Number(ctx.job.payload.attempt_id));
    const actor = Number(ctx.job.payload.actor_id) || null;
    try {
      await runAll(db, ctx, a, true);
      await settle(
        a,
        actor,
        sql`update transfer_attempts set reverted = true, reverting = false, updated_at = now() where id = ${a.id}`,
      );
    } catch (err) {
      if (ctx.job.attempts >= ctx.job.maxAttempts && !ctx.signal.aborted) {
        await settle(
          a,
          actor,
          sql`update transfer_attempts set reverting = false, error = ${`revert failed: ${(err as Error).message}`.slice(0, 500)}, updated_at = now() where id = ${a.id}`,
        );
      }
      throw err;
    }
  });
}

/** Starts a revert (every contact back to its previous owner/pool, unless someone moved it since). */
export async function startRevert(app: FastifyInstance, db: Db, auth: AuthContext, id: number) {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`update transfer_attempts set reverting = true, error = null, updated_at = now()
        where id = ${id} and company_id = ${auth.company.id} and not reverted and not reverting
          and status in ('complete', 'failed') returning id`,
  );
  if (!row) throw conflict('transfer_attempt', 'can be reverted once, after it finished, and not while a revert runs');
  await app.deps.jobs.enqueue(
    REVERT_JOB,
    { attempt_id: id, actor_id: auth.user.id },
    { companyId: auth.company.id, db },
  );
}

/** Resumes a failed transfer from its checkpoint (the logs still say which contacts remain). */
export async function resumeTransfer(app: FastifyInstance, db: Db, auth: AuthContext, id: number) {
  const [row] = await rowsOf<{ id: number }>(
    db,
    sql`update transfer_attempts set status = 'pending', error = null, updated_at = now()
        where id = ${id} and company_id = ${auth.company.id} and status = 'failed' and not reverted and not reverting
        returning id`,
  );
  if (!row) throw conflict('transfer_attempt', 'only a failed transfer can be resumed');
  const [last] = await rowsOf<{ progress: unknown }>(
    db,
    sql`select progress from jobs where name = ${TRANSFER_JOB} and (payload->>'attempt_id')::int = ${id}
        order by id desc limit 1`,
  );
  const jobId = await app.deps.jobs.enqueue(
    TRANSFER_JOB,
    { attempt_id: id, actor_id: auth.user.id },
    { companyId: auth.company.id, db },
  );
  // The new job starts from the old one's lane checkpoints: chunks already moved are not moved (or counted) twice.
  if (last?.progress) {
    const progress = typeof last.progress === 'string' ? last.progress : JSON.stringify(last.progress);
    await db.execute(sql`update jobs set progress = ${progress}::jsonb where id = ${jobId}`);
  }
}
