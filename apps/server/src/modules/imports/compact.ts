/**
 * A finished import's staging rows hold a copy of every person in the file: names, dates of birth, Medicare numbers.
 * Afterwards only one fact is needed: which contacts the import created, because deleting the attempt may remove
 * them. A durable job, queued when an attempt completes, drops everything else in two set-based statements. Failed
 * attempts keep their rows: a retry resumes from them.
 */
import { eq, sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { STAGE_COLUMNS } from './parse/normalize.js';
import { importAttempts } from './schema.js';

export const COMPACT_JOB = 'imports.compact';

/** Everything a staged row holds about the person: the staged fields, the unmapped cells, the original row. */
const PERSONAL = [...STAGE_COLUMNS, 'extra', 'raw', 'reasons'];

export async function compactStaging(deps: Deps, attemptId: number) {
  const db = deps.database.db;
  const [attempt] = await db
    .select({ status: importAttempts.status })
    .from(importAttempts)
    .where(eq(importAttempts.id, attemptId));
  // A deleted attempt took its rows with it; a failed one needs them to resume.
  if (attempt?.status !== 'completed') return;
  await db.execute(sql`delete from import_rows
    where attempt_id = ${attemptId} and (action is distinct from 'create' or contact_id is null)`);
  const clear = sql.raw(PERSONAL.map((c) => `${c} = null`).join(', '));
  const holding = sql.raw(PERSONAL.map((c) => `${c} is not null`).join(' or '));
  // Only rows still holding something: a re-run (the job retried) rewrites nothing.
  await db.execute(sql`update import_rows set ${clear} where attempt_id = ${attemptId} and (${holding})`);
  // The embedded database has no autovacuum: reclaim the space now or the table only ever grows. A server's
  // autovacuum does this on its own, without this job holding a lock another import's ANALYZE would wait for.
  if (deps.database.kind === 'pglite') await deps.database.query('vacuum import_rows');
}

export function registerCompactJob(
  deps: Deps,
  register: (name: string, h: (ctx: JobContext) => Promise<void>) => void,
) {
  register(COMPACT_JOB, async (ctx) => compactStaging(deps, Number(ctx.job.payload.attemptId)));
}
