/**
 * A finished import's staging rows hold a copy of every person in the file. What stays, and for how long
 * (docs/decisions/import-staging-retention.md): the rows that were not imported (invalid, duplicate, skipped) keep
 * their cells for IMPORT_RESULT_DAYS so the result page can list and download them; the rows of created and matched
 * contacts lose the file's values at once and keep only what undo needs (the contact id, what changed from what, the
 * tags added). After IMPORT_RESULT_DAYS only "which contacts it created" remains, because deleting the attempt may
 * remove them. A durable job, queued when an attempt completes, does both in a few set-based statements; failed
 * attempts keep their rows: a retry resumes from them.
 */
import { IMPORT_RESULT_DAYS } from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { STAGE_COLUMNS } from './parse/normalize.js';
import { importAttempts } from './schema.js';

export const COMPACT_JOB = 'imports.compact';

/** What a staged row holds about the person in the file: the staged fields, the unmapped cells, the original row. */
const FILE_VALUES = [...STAGE_COLUMNS, 'extra', 'raw'];

const clear = (cols: string[]) => sql.raw(cols.map((c) => `${c} = null`).join(', '));
const holding = (cols: string[]) => sql.raw(cols.map((c) => `${c} is not null`).join(' or '));

export async function compactStaging(deps: Deps, attemptId: number) {
  const db = deps.database.db;
  const [attempt] = await db
    .select({ status: importAttempts.status, companyId: importAttempts.companyId })
    .from(importAttempts)
    .where(eq(importAttempts.id, attemptId));
  // A deleted attempt took its rows with it; a failed one needs them to resume.
  if (attempt?.status === 'completed' || attempt?.status === 'undone') {
    // Only rows still holding something: a re-run (the job retried) rewrites nothing.
    await db.execute(sql`update import_rows set ${clear(FILE_VALUES)}
      where attempt_id = ${attemptId} and action in ('create', 'update', 'unchanged') and (${holding(FILE_VALUES)})`);
  }
  if (attempt) await purgeExpired(db, attempt.companyId);
  // The embedded database has no autovacuum: reclaim the space now or the table only ever grows. A server's
  // autovacuum does this on its own, without this job holding a lock another import's ANALYZE would wait for.
  if (deps.database.kind === 'pglite') await deps.database.query('vacuum import_rows');
}

/** The company's attempts whose result period is over: everything but the created contacts' ids goes. */
export async function purgeExpired(db: Db, companyId: number) {
  const found = (await db.execute(sql`select id from import_attempts where company_id = ${companyId}
    and status in ('completed', 'undone') and finished_at < now() - ${`${IMPORT_RESULT_DAYS} days`}::interval
    and not result ? 'rows_purged_at'`)) as unknown as { rows: Array<{ id: number }> };
  if (!found.rows.length) return;
  const ids = sql`${sql.param(found.rows.map((r) => Number(r.id)))}::bigint[]`;
  await db.transaction(async (tx) => {
    await tx.execute(sql`delete from import_rows where attempt_id = any(${ids}) and action <> 'create'`);
    await tx.execute(sql`update import_rows set ${clear([...FILE_VALUES, 'reasons', 'undo'])}
      where attempt_id = any(${ids})`);
    await tx.execute(sql`update import_attempts set result = result || jsonb_build_object('rows_purged_at', now())
      where id = any(${ids})`);
  });
}

export function registerCompactJob(
  deps: Deps,
  register: (name: string, h: (ctx: JobContext) => Promise<void>) => void,
) {
  register(COMPACT_JOB, async (ctx) => compactStaging(deps, Number(ctx.job.payload.attemptId)));
}
