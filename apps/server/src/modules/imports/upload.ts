/**
 * Multipart uploads: the file part is streamed to DATA_DIR/imports under a generated name (never the client's),
 * with a size limit; text parts become the import form (objects and arrays arrive as JSON strings).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type {} from '@fastify/multipart';
import { ImportForm } from '@harbor/shared';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../../platform/db/client.js';
import { wasCut } from '../../platform/files/uploads.js';
import { HttpError, invalid } from '../../platform/http/errors.js';

/** IMPORT_MAX_MB (default 300: a million-row list is about 100 MB); read when the app is built. */
export const maxUploadMb = () => Number(process.env.IMPORT_MAX_MB ?? 300);

export interface Upload {
  path: string;
  name: string;
  size: number;
  fields: Record<string, string>;
}

export const uploadDir = (dataDir: string) => path.join(dataDir, 'imports');

export async function receiveUpload(req: FastifyRequest, dataDir: string): Promise<Upload> {
  if (!req.isMultipart()) throw invalid('file', 'Send the file as multipart/form-data');
  const dir = uploadDir(dataDir);
  await fs.promises.mkdir(dir, { recursive: true });
  const fields: Record<string, string> = {};
  let upload: Upload | null = null;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'field') {
        fields[part.fieldname] = String(part.value ?? '');
        continue;
      }
      if (upload || part.fieldname !== 'file') {
        part.file.resume();
        continue;
      }
      const name = path.basename(part.filename || 'upload').slice(0, 200);
      const ext = (name.split('.').pop() ?? 'bin')
        .toLowerCase()
        .replace(/[^a-z0-9]/g, '')
        .slice(0, 8);
      const target = path.join(dir, `${crypto.randomUUID()}.${ext}`);
      upload = { path: target, name, size: 0, fields };
      await pipeline(part.file, fs.createWriteStream(target));
      // The plugin cuts a file at the limit; only its flag, read now that the part ended, says it was cut.
      if (wasCut(part)) throw Object.assign(new Error('cut'), { code: 'FST_REQ_FILE_TOO_LARGE' });
      upload.size = (await fs.promises.stat(target)).size;
    }
  } catch (err) {
    if (upload) await fs.promises.rm(upload.path, { force: true });
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new HttpError(413, { file: [`The file is larger than the ${maxUploadMb()} MB limit`] });
    }
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw invalid('file', 'Send one file and the import form');
    }
    throw err;
  }
  if (!upload) throw invalid('file', 'Choose a file to upload');
  return upload;
}

const JSON_FIELDS = ['tags', 'updated_lead_tags', 'scrub_against', 'api_vendor_obj', 'fields'];

/** The import form from multipart text parts; a `data` part may carry the whole form as JSON. */
export function parseForm(fields: Record<string, string>, forced: Partial<ImportForm> = {}): ImportForm {
  let raw: Record<string, unknown> = { ...fields };
  if (fields.data) {
    try {
      raw = { ...(JSON.parse(fields.data) as Record<string, unknown>), ...fields };
    } catch {
      throw invalid('data', 'is not valid JSON');
    }
    delete raw.data;
  }
  for (const k of JSON_FIELDS) {
    const v = raw[k];
    if (typeof v !== 'string') continue;
    const t = v.trim();
    if (k === 'scrub_against' && /^[a-z_, ]+$/.test(t)) {
      raw[k] = t === '' || t === 'none' ? undefined : { by: t.split(/[,\s]+/).filter(Boolean) };
      continue;
    }
    try {
      raw[k] = t === '' ? undefined : JSON.parse(t);
    } catch {
      throw invalid(k, 'is not valid JSON');
    }
  }
  for (const k of Object.keys(raw)) if (raw[k] === '') delete raw[k];
  const parsed = ImportForm.safeParse({ ...raw, ...forced });
  if (!parsed.success) {
    const errors: Record<string, string[]> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path.join('.') || 'base';
      errors[field] = [...(errors[field] ?? []), issue.message];
    }
    throw new HttpError(422, errors);
  }
  return parsed.data;
}

/**
 * The sweeper's part for uploads (platform/files/sweeper.ts): files in DATA_DIR/imports older than `maxAgeMs` that no
 * attempt still needs (a pending, processing or failed attempt keeps its file for the run or a retry). They are
 * left behind when a process dies between receiving an upload and creating its attempt, or while it is read.
 */
export async function sweepUploads(database: Database, dataDir: string, maxAgeMs = 24 * 3_600_000): Promise<number> {
  const dir = uploadDir(dataDir);
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return 0;
  }
  const kept = new Set(
    (
      await database.query<{ p: string | null; z: string | null }>(
        "select file_path as p, options->>'zipPath' as z from import_attempts where file_path is not null or status in ('pending', 'processing', 'failed')",
      )
    ).flatMap((r) => [r.p, r.z].filter((v): v is string => Boolean(v)).map((v) => path.basename(v))),
  );
  let removed = 0;
  for (const name of names) {
    if (kept.has(name)) continue;
    const file = path.join(dir, name);
    const stat = await fs.promises.stat(file).catch(() => null);
    if (!stat?.isFile() || Date.now() - stat.mtimeMs < maxAgeMs) continue;
    await fs.promises.rm(file, { force: true });
    removed++;
  }
  return removed;
}
