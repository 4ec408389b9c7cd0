/**
 * Files on a contact: list, upload (multipart, one file, at most MAX_FILE_BYTES, content checked against its type
 * before anything is stored), download (GET .../files/{fileId}/download, see docs/decisions/contact-file-download.md)
 * and delete. Blobs go through the storage port and its ledger (platform/files/blobs.ts): counted against the
 * company's quota when written, released when deleted, and never orphaned: the blob is reserved before its row,
 * and marked for deletion in the transaction that deletes the row, then removed.
 */
import crypto from 'node:crypto';
import { ContactFile, ContactFileForm, ContactFileList, FileParams, MAX_FILE_BYTES, NoContent } from '@harbor/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { commitBlobs, discardBlobs, purgeBlobs, releaseBlobs, storeBlob } from '../../platform/files/blobs.js';
import { bufferPart } from '../../platform/files/uploads.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContact } from '../contacts/access.js';
import { recordContactEvent } from '../contacts/events.js';
import { contactFiles } from '../contacts/schema.js';
import { checkUpload } from './file-type.js';
import { assertMayChange, ContactParams, contactTenant, fullName } from './shared.js';

const tags = ['contact-records'];
const config = { access: 'contacts.use', tenant: contactTenant } as const;
const LIMIT_MB = MAX_FILE_BYTES / 1024 / 1024;

/** Storage keys are made of server-side ids only (the port refuses anything else). */
export const contactFileKey = (companyId: number, contactId: number) =>
  `contacts/${companyId}/${contactId}/${crypto.randomUUID()}`;

/** A display name safe for headers and screens: no path, no control characters. */
export function cleanFileName(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  return cleaned.slice(-200) || 'file';
}

async function listFiles(db: Db, contactNumber: number, contactId: number, fileId?: number) {
  const rows = await db
    .select({ file: contactFiles, first: users.firstName, last: users.lastName })
    .from(contactFiles)
    .leftJoin(users, eq(users.id, contactFiles.uploadedBy))
    .where(
      fileId
        ? and(eq(contactFiles.contactId, contactId), eq(contactFiles.id, fileId))
        : eq(contactFiles.contactId, contactId),
    )
    .orderBy(desc(contactFiles.id));
  return rows.map(({ file, first, last }) => ({
    id: file.id,
    name: file.name,
    content_type: file.contentType,
    size: file.size,
    uploaded_by: file.uploadedBy ? { id: file.uploadedBy, name: fullName(first, last) } : null,
    created_at: file.createdAt.toISOString(),
    download_url: `/v1/contacts/${contactNumber}/files/${file.id}/download`,
  }));
}

async function findFile(db: Db, contactId: number, fileId: number) {
  const [row] = await db
    .select()
    .from(contactFiles)
    .where(and(eq(contactFiles.id, fileId), eq(contactFiles.contactId, contactId)));
  if (!row) throw notFound('file');
  return row;
}

export function fileRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { database, storage } = scope.deps;
  const db = database.db;

  app.get(
    '/v1/contacts/:id/files',
    {
      config,
      schema: {
        tags,
        summary: 'Files, newest first',
        params: ContactParams,
        response: { 200: ContactFileList },
      },
    },
    async (req) => {
      const c = await findVisibleContact(db, authOf(req), req.params.id);
      return { data: await listFiles(db, c.number, c.id) };
    },
  );

  app.post(
    '/v1/contacts/:id/files',
    {
      config,
      schema: {
        tags,
        summary: `Upload a file (multipart field "file"; pdf, png, jpg, gif, docx, xlsx, csv or txt; at most ${LIMIT_MB} MB)`,
        params: ContactParams,
        consumes: ['multipart/form-data'],
        multipart: ContactFileForm,
        response: { 201: ContactFile },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const contact = await findVisibleContact(db, auth, req.params.id, true);
      if (!req.isMultipart()) throw invalid('file', 'must be sent as multipart/form-data');
      const part = await req.file();
      if (!part) throw invalid('file', 'is required');
      const data = await bufferPart(part, MAX_FILE_BYTES);
      const name = cleanFileName(part.filename);
      const check = await checkUpload(name, part.mimetype, data);
      if (!check.ok) throw invalid('file', check.message);

      const key = contactFileKey(auth.company.id, contact.id);
      await storeBlob(scope.deps, { companyId: auth.company.id, key, data, contentType: check.contentType });
      try {
        const file = await db.transaction(async (t) => {
          const c = await findVisibleContact(t, auth, req.params.id, true);
          const [row] = await t
            .insert(contactFiles)
            .values({
              companyId: auth.company.id,
              contactId: c.id,
              name,
              contentType: check.contentType,
              size: data.length,
              storageKey: key,
              uploadedBy: auth.user.id,
            })
            .returning();
          await recordContactEvent(t, {
            companyId: auth.company.id,
            contactId: c.id,
            kind: 'file_uploaded',
            actorId: auth.user.id,
            data: { file_id: row.id, name, size: data.length },
          });
          await commitBlobs(t, [key]);
          return (await listFiles(t, c.number, c.id, row.id))[0];
        });
        return reply.code(201).send(file);
      } catch (err) {
        // No row points at the blob: remove it (and give its bytes back) so a failed upload leaves nothing behind.
        await discardBlobs(scope.deps, [key]);
        throw err;
      }
    },
  );

  app.get(
    '/v1/contacts/:id/files/:fileId/download',
    { config, schema: { tags, summary: 'Download a file (as an attachment)', params: FileParams } },
    async (req, reply) => {
      const c = await findVisibleContact(db, authOf(req), req.params.id);
      const file = await findFile(db, c.id, req.params.fileId);
      const stream = await storage.get(file.storageKey);
      if (!stream) throw notFound('file');
      const ascii = file.name.replace(/[^\x20-\x7e]/g, '_');
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
        )
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'private, no-store')
        .send(stream);
    },
  );

  app.delete(
    '/v1/contacts/:id/files/:fileId',
    { config, schema: { tags, summary: 'Delete a file', params: FileParams, response: { 204: NoContent } } },
    async (req, reply) => {
      const auth = authOf(req);
      const key = await db.transaction(async (t) => {
        const c = await findVisibleContact(t, auth, req.params.id, true);
        const file = await findFile(t, c.id, req.params.fileId);
        assertMayChange(auth, file.uploadedBy);
        await t.delete(contactFiles).where(eq(contactFiles.id, file.id));
        await recordContactEvent(t, {
          companyId: auth.company.id,
          contactId: c.id,
          kind: 'file_deleted',
          actorId: auth.user.id,
          data: { file_id: file.id, name: file.name },
        });
        // Marked for deletion with the row, in one transaction: after a crash the sweeper finishes the job.
        await releaseBlobs(t, [file.storageKey]);
        return file.storageKey;
      });
      await purgeBlobs(scope.deps, [key]);
      return reply.code(204).send(null);
    },
  );
}
