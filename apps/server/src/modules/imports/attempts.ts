/**
 * The attempts list with tabs and filters (everyone sees their own; import-lead tracking, spec §6, shows admins and
 * managers those of the people they reach: reach.ts), delete (optionally with the contacts it created), retry of a
 * failed attempt, and whether the workers are busy.
 */
import fs from 'node:fs/promises';
import {
  DeleteAttemptBody,
  DeleteAttemptQuery,
  DeleteAttemptReply,
  ErrorBody,
  ImportAttempt,
  ImportAttemptList,
  ImportAttemptsQuery,
  WorkersStatus,
} from '@harbor/shared';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthContext } from '../../platform/auth/context.js';
import { conflict } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { IMPORT_JOB } from './job.js';
import { presentAttempt } from './presenter.js';
import { publishProgress } from './progress.js';
import { attemptsReachSql, attemptInReach as findAttempt } from './reach.js';
import { importAttempts } from './schema.js';

const tags = ['imports'];
const IdParams = z.object({ id: z.coerce.number().int().positive() });
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;

const TABS: Record<string, SQL> = {
  all: sql`true`,
  active: sql`a.status in ('pending', 'processing')`,
  completed: sql`a.status in ('completed', 'undoing', 'undone')`,
  failed: sql`a.status in ('failed', 'cancelled')`,
};

export function registerAttemptRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  const attemptInReach = (auth: AuthContext, id: number) => findAttempt(db, auth, id);

  app.get(
    '/v1/contacts/import_attempts',
    {
      config: { access: 'imports.use' },
      schema: {
        tags,
        summary: 'Import attempts with tabs and filters (progress arrives on ContactsImportChannel)',
        querystring: ImportAttemptsQuery,
        response: { 200: ImportAttemptList, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const q = req.query;
      const v = q.filter_value?.trim();
      let filter = sql`true`;
      if (q.filter_by && v) {
        filter = {
          file_name: sql`a.file_name ilike ${`%${v.replace(/[%_\\]/g, '\\$&')}%`}`,
          status: sql`a.status = ${v}`,
          type: sql`a.contact_type = ${v}`,
          user: sql`(u.first_name || ' ' || u.last_name) ilike ${`%${v.replace(/[%_\\]/g, '\\$&')}%`}`,
        }[q.filter_by];
      }
      const where = sql`${attemptsReachSql(auth)} and ${filter}`;
      const counts = rowsOf<{ tab: string; n: number }>(
        await db.execute(sql`select t.tab, count(a.id)::int as n from import_attempts a
          left join users u on u.id = a.user_id
          cross join lateral (values ('all'), (case when a.status in ('pending', 'processing') then 'active'
            when a.status in ('completed', 'undoing', 'undone') then 'completed' else 'failed' end)) t(tab)
          where ${where} group by t.tab`),
      );
      const byTab = Object.fromEntries(['all', 'active', 'completed', 'failed'].map((t) => [t, 0]));
      for (const c of counts) byTab[c.tab] = Number(c.n);
      const list = rowsOf<{ id: number; user_name: string | null }>(
        await db.execute(sql`select a.id, nullif(trim(u.first_name || ' ' || u.last_name), '') as user_name
          from import_attempts a left join users u on u.id = a.user_id
          where ${where} and ${TABS[q.tab]} order by a.id desc limit ${q.limit} offset ${pageOffset(q.page, q.limit)}`),
      );
      const ids = list.map((r) => Number(r.id));
      const rows = ids.length ? await db.select().from(importAttempts).where(sql`${importAttempts.id} in ${ids}`) : [];
      const byId = new Map(rows.map((r) => [r.id, r]));
      const total = byTab[q.tab];
      return {
        data: list.map((r) => {
          const a = byId.get(Number(r.id))!;
          return presentAttempt(a, { id: a.userId, name: r.user_name ?? '' });
        }),
        meta: { ...pageMeta(q.page, q.limit, total), counts: byTab },
      };
    },
  );

  app.delete(
    '/v1/contacts/delete_import_attempts/:id',
    {
      config: { access: 'imports.use', tenant: { param: 'id', resource: 'import_attempt' } },
      schema: {
        tags,
        summary: 'Delete an import attempt; remove_contacts=true also removes (soft) the contacts it created',
        params: IdParams,
        querystring: DeleteAttemptQuery,
        body: DeleteAttemptBody,
        response: {
          200: DeleteAttemptReply,
          401: ErrorBody,
          403: ErrorBody,
          404: ErrorBody,
          409: ErrorBody,
        },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const attempt = await attemptInReach(auth, req.params.id);
      if (['pending', 'processing', 'undoing'].includes(attempt.status)) {
        throw conflict('status', 'The import is still running; wait for it to finish or fail');
      }
      const q = req.query.remove_contacts;
      const remove = req.body?.remove_contacts ?? (q === 'true' || q === '1');
      const removed = await db.transaction(async (tx) => {
        let n = 0;
        if (remove) {
          const res = rowsOf<{ n: number }>(
            await tx.execute(sql`with gone as (update contacts c set deleted_at = now(), updated_at = now()
                from import_rows r where r.attempt_id = ${attempt.id} and r.action = 'create'
                  and c.id = r.contact_id and c.company_id = ${auth.company.id} and c.deleted_at is null
                returning c.id),
              ev as (insert into contact_events (company_id, contact_id, kind, data, actor_id)
                select ${auth.company.id}, id, 'deleted', ${JSON.stringify({ import_attempt_id: attempt.id })}::jsonb,
                  ${auth.user.id} from gone)
              select count(*)::int as n from gone`),
          );
          n = Number(res[0]?.n ?? 0);
        }
        await tx.execute(sql`delete from import_rows where attempt_id = ${attempt.id}`);
        await tx.delete(importAttempts).where(eq(importAttempts.id, attempt.id));
        return n;
      });
      for (const p of [attempt.filePath, attempt.options.zipPath]) {
        if (typeof p === 'string' && p) await fs.rm(p, { force: true });
      }
      return { deleted: true as const, contacts_removed: removed };
    },
  );

  app.post(
    '/v1/contacts/retry_failed_import_attempts/:id',
    {
      config: { access: 'imports.use', tenant: { param: 'id', resource: 'import_attempt' } },
      schema: {
        tags,
        summary: 'Retry a failed import attempt: it resumes from its last committed row, writing nothing twice',
        params: IdParams,
        response: { 202: ImportAttempt, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 409: ErrorBody },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const attempt = await attemptInReach(auth, req.params.id);
      if (attempt.status !== 'failed') throw conflict('status', 'Only a failed import can be retried');
      if (!attempt.checkpoint.phase && !attempt.filePath) {
        throw conflict('file', 'The uploaded file is gone; import it again');
      }
      const updated = await db.transaction(async (tx) => {
        const jobId = await deps.jobs.enqueue(
          IMPORT_JOB,
          { attemptId: attempt.id },
          { companyId: auth.company.id, db: tx, maxAttempts: 2 },
        );
        const [row] = await tx
          .update(importAttempts)
          .set({ status: 'pending', error: null, finishedAt: null, jobId, updatedAt: new Date() })
          .where(and(eq(importAttempts.id, attempt.id), eq(importAttempts.status, 'failed')))
          .returning();
        return row;
      });
      deps.jobs.poke(updated.jobId ?? undefined);
      publishProgress(deps.bus, updated);
      reply.code(202);
      return presentAttempt(updated, null);
    },
  );

  app.get(
    '/v1/contacts/workers_status',
    {
      config: { access: 'imports.use' },
      schema: {
        tags,
        summary: "Whether the company's imports are being processed and how many wait",
        response: { 200: WorkersStatus, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const [r] = rowsOf<{ running: number; waiting: number }>(
        await db.execute(sql`select count(*) filter (where status = 'running')::int as running,
            count(*) filter (where status = 'queued')::int as waiting
          from jobs where name = ${IMPORT_JOB} and company_id = ${auth.company.id}
            and status in ('running', 'queued')`),
      );
      return { processing: Number(r.running) > 0, running: Number(r.running), waiting: Number(r.waiting) };
    },
  );
}
