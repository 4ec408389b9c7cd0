/**
 * The upload routes of the imports area: preview (validate_import), the list imports (import, leads_uploader,
 * clients_uploader) and the ZIP attachments (import_attachments, attachments_leads_uploader).
 */
import fs from 'node:fs/promises';
import {
  AttachmentsReply,
  AttachmentsUploadForm,
  ErrorBody,
  ImportAttempt,
  type ImportForm,
  ImportPreview,
  ImportUploadForm,
} from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { authOf } from '../../platform/http/pipeline.js';
import { attachByFileName } from './attachments.js';
import { IMPORT_JOB } from './job.js';
import { checkZip, extractList, readList, refusing } from './lists.js';
import { resolveOptions } from './options.js';
import { presentAttempt } from './presenter.js';
import { previewList } from './preview.js';
import { publishProgress } from './progress.js';
import { importAttempts } from './schema.js';
import { parseForm, receiveUpload, type Upload } from './upload.js';

const tags = ['imports'];
const errors = { 401: ErrorBody, 403: ErrorBody, 413: ErrorBody, 422: ErrorBody };

export function registerUploadRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  const dataDir = deps.config.dataDir;

  /** Runs `work` with the upload, and removes the file afterwards unless `keep` says it now belongs to an attempt. */
  async function withUpload<T>(req: FastifyRequest, work: (u: Upload) => Promise<{ value: T; keep?: boolean }>) {
    const upload = await receiveUpload(req, dataDir);
    let keep = false;
    try {
      const out = await work(upload);
      keep = Boolean(out.keep);
      return out.value;
    } finally {
      if (!keep) await fs.rm(upload.path, { force: true });
    }
  }

  app.post(
    '/v1/contacts/validate_import',
    {
      config: { access: 'imports.use' },
      schema: {
        tags,
        summary: 'Preview an import: columns matched, rows to create, update and skip, invalid rows with reasons',
        consumes: ['multipart/form-data'],
        multipart: ImportUploadForm,
        response: { 200: ImportPreview, ...errors },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      return withUpload(req, async (up) => {
        const form = parseForm(up.fields);
        const list = await readList(up.path, up.name, form);
        const opts = await resolveOptions(db, auth, form, list.columns, list.info.sheet);
        const out = await previewList(deps, auth, up, list, opts, form.format);
        if (typeof out === 'string') {
          const base = up.name.replace(/\.[^.]+$/, '').replace(/[^\w.-]+/g, '_');
          reply
            .type('text/csv; charset=utf-8')
            .header('content-disposition', `attachment; filename="${base}-invalid.csv"`);
        }
        return { value: out as z.infer<typeof ImportPreview> };
      });
    },
  );

  /** Creates the attempt and its job in one transaction, then wakes the runner. */
  async function startImport(req: FastifyRequest, reply: FastifyReply, forced: Partial<ImportForm>, zip: boolean) {
    const auth = authOf(req);
    return withUpload(req, async (up) => {
      const form = parseForm(up.fields, forced);
      let listPath = up.path;
      let listName = up.name;
      const extraOptions: Record<string, unknown> = {};
      if (zip) {
        await checkZip(up.path, up.name);
        const list = await extractList(up.path, up.name);
        listPath = list.path;
        listName = list.name;
        Object.assign(extraOptions, { zipPath: up.path, listEntry: list.entry, listName: list.name });
      }
      try {
        const list = await readList(listPath, listName, form);
        const opts = await resolveOptions(db, auth, form, list.columns, list.info.sheet);
        const attempt = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(importAttempts)
            .values({
              companyId: auth.company.id,
              userId: auth.user.id,
              ownerId: opts.ownerId,
              kind: zip ? 'attachments_list' : 'list',
              contactType: opts.type,
              fileName: up.name,
              fileSize: up.size,
              filePath: listPath,
              options: { ...opts, ...extraOptions } as unknown as Record<string, unknown>,
            })
            .returning();
          const jobId = await deps.jobs.enqueue(
            IMPORT_JOB,
            { attemptId: row.id },
            { companyId: auth.company.id, db: tx, maxAttempts: 2 },
          );
          const [withJob] = await tx
            .update(importAttempts)
            .set({ jobId })
            .where(eq(importAttempts.id, row.id))
            .returning();
          return withJob;
        });
        deps.jobs.poke(attempt.jobId ?? undefined);
        publishProgress(deps.bus, attempt);
        reply.code(202);
        return { value: presentAttempt(attempt, { id: auth.user.id, name: nameOf(auth.user) }), keep: true };
      } catch (err) {
        if (zip) await fs.rm(listPath, { force: true });
        throw err;
      }
    });
  }

  const listRoute = (url: string, summary: string, forced: Partial<ImportForm>, zip = false) =>
    app.post(
      url,
      {
        config: { access: 'imports.use' },
        schema: {
          tags,
          summary,
          consumes: ['multipart/form-data'],
          multipart: ImportUploadForm,
          response: { 202: ImportAttempt, ...errors },
        },
      },
      async (req, reply) => startImport(req, reply, forced, zip),
    );
  listRoute(
    '/v1/contacts/import',
    'Import a list of contacts (type lead or client); progress on ContactsImportChannel',
    {},
  );
  listRoute('/v1/contacts/leads_uploader', 'Import a list of leads', { type: 'lead' });
  listRoute('/v1/contacts/clients_uploader', 'Import a list of clients', { type: 'client' });
  listRoute(
    '/v1/contacts/attachments_leads_uploader',
    'Import a ZIP holding a list of leads and the files its attachment column names',
    { type: 'lead' },
    true,
  );

  app.post(
    '/v1/contacts/import_attachments',
    {
      config: { access: 'imports.use' },
      schema: {
        tags,
        summary: 'Attach the files of a ZIP to the contacts their names give (contact number, email or phone)',
        consumes: ['multipart/form-data'],
        multipart: AttachmentsUploadForm,
        response: { 200: AttachmentsReply, ...errors },
      },
    },
    async (req) => {
      const auth = authOf(req);
      return withUpload(req, async (up) => {
        await checkZip(up.path, up.name);
        const report = await refusing(() => attachByFileName(deps, auth, up.path, up.name));
        const [attempt] = await db
          .insert(importAttempts)
          .values({
            companyId: auth.company.id,
            userId: auth.user.id,
            ownerId: auth.user.id,
            kind: 'attachments',
            status: 'completed',
            fileName: up.name,
            fileSize: up.size,
            total: report.matched.length + report.unmatched.length,
            processed: report.matched.length + report.unmatched.length,
            updated: report.matched.length,
            skipped: report.unmatched.length,
            result: { attachments: report },
            finishedAt: new Date(),
          })
          .returning();
        return {
          value: { attempt: presentAttempt(attempt, { id: auth.user.id, name: nameOf(auth.user) }), ...report },
        };
      });
    },
  );
}

export const nameOf = (u: { firstName: string; lastName: string; email?: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || (u.email ?? '');
