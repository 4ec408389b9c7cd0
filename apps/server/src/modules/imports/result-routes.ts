/**
 * The result page's routes: one attempt with its figures, its rows by kind, the CSV of the rows that were not
 * imported, and undo (GET: what it would do; POST: do it, as a durable job). Everyone reaches their own attempts;
 * admins and managers those of the people they track (reach.ts).
 */
import {
  ErrorBody,
  ImportAttempt,
  ImportAttemptDetail,
  ImportRowList,
  ImportRowsQuery,
  UndoPreview,
} from '@harbor/shared';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { conflict } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { presentAttempt } from './presenter.js';
import { publishProgress } from './progress.js';
import { attemptInReach } from './reach.js';
import { attemptDetail, listRows, notImportedCsv, undoPreview, whyNoUndo } from './result.js';
import { nameOf } from './routes.js';
import { importAttempts } from './schema.js';
import { startState, UNDO_JOB, type UndoState } from './undo-job.js';

const tags = ['imports'];
const IdParams = z.object({ id: z.coerce.number().int().positive() });
const denied = { 401: ErrorBody, 403: ErrorBody, 404: ErrorBody };
const config = { access: 'imports.use' as const, tenant: { param: 'id', resource: 'import_attempt' } };

export function registerResultRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  app.get(
    '/v1/contacts/import_attempts/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One import attempt: figures, settings, how long its rows are kept, whether it can be undone',
        params: IdParams,
        response: { 200: ImportAttemptDetail, ...denied },
      },
    },
    async (req) => attemptDetail(db, await attemptInReach(db, authOf(req), req.params.id)),
  );

  app.get(
    '/v1/contacts/import_attempts/:id/rows',
    {
      config,
      schema: {
        tags,
        summary: "An attempt's rows by kind: skipped and invalid ones with their reasons, changed contacts old -> new",
        params: IdParams,
        querystring: ImportRowsQuery,
        response: { 200: ImportRowList, ...denied, 422: ErrorBody },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const attempt = await attemptInReach(db, auth, req.params.id);
      const q = req.query;
      const { headers, data, total } = await listRows(db, auth, attempt, q);
      return {
        headers,
        data,
        meta: {
          current_page: q.page,
          limit: q.limit,
          total_count: total,
          total_pages: Math.max(1, Math.ceil(total / q.limit)),
        },
      };
    },
  );

  app.get(
    '/v1/contacts/import_attempts/:id/not_imported.csv',
    {
      config,
      schema: {
        tags,
        summary: 'The rows that were not imported (invalid and skipped), under the file headers plus Row and Reason',
        params: IdParams,
        produces: ['text/csv'],
      },
    },
    async (req, reply) => {
      const attempt = await attemptInReach(db, authOf(req), req.params.id);
      const base = attempt.fileName.replace(/\.[^.]+$/, '').replace(/[^\w.-]+/g, '_') || 'import';
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${base}-not-imported.csv"`);
      return reply.send(notImportedCsv(db, attempt));
    },
  );

  app.get(
    '/v1/contacts/import_attempts/:id/undo',
    {
      config,
      schema: {
        tags,
        summary: 'What undoing the import would do: contacts removed and kept, fields restored and left as changed',
        params: IdParams,
        response: { 200: UndoPreview, ...denied, 409: ErrorBody },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const attempt = await attemptInReach(db, auth, req.params.id);
      const why = whyNoUndo(attempt);
      if (why) throw conflict('status', why);
      return undoPreview(db, auth, attempt);
    },
  );

  app.post(
    '/v1/contacts/import_attempts/:id/undo',
    {
      config,
      schema: {
        tags,
        summary: 'Undo a completed import (a job: progress on ContactsImportChannel, status undoing then undone)',
        params: IdParams,
        response: { 202: ImportAttempt, ...denied, 409: ErrorBody },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const attempt = await attemptInReach(db, auth, req.params.id);
      const why = whyNoUndo(attempt);
      if (why) throw conflict('status', why);
      const by = { id: auth.user.id, name: nameOf(auth.user) };
      // A failed undo resumes from its checkpoint; a fresh one starts at the first row.
      const state = (attempt.status === 'undoing' ? attempt.result.undo : startState(by)) as UndoState;
      // Only from the status seen (and, to resume, only a failed undo): two clicks never queue two undos.
      const resumable =
        attempt.status === 'undoing'
          ? sql`${importAttempts.result}->'undo'->>'error' is not null`
          : eq(importAttempts.status, 'completed');
      const done = await db.transaction(async (t) => {
        const tx = t;
        const [updated] = await tx
          .update(importAttempts)
          .set({
            status: 'undoing',
            result: sql`${importAttempts.result} || jsonb_build_object('undo', ${JSON.stringify({ ...state, error: null })}::jsonb)`,
            updatedAt: new Date(),
          })
          .where(and(eq(importAttempts.id, attempt.id), eq(importAttempts.status, attempt.status), resumable))
          .returning();
        if (!updated) return null;
        const jobId = await deps.jobs.enqueue(
          UNDO_JOB,
          { attemptId: attempt.id },
          { companyId: auth.company.id, db: tx },
        );
        return { row: updated, jobId };
      });
      if (!done) throw conflict('status', 'This import is already being undone');
      deps.jobs.poke(done.jobId);
      publishProgress(deps.bus, done.row);
      reply.code(202);
      return presentAttempt(done.row, null);
    },
  );
}
