/**
 * Shared steps of the list routes: read the upload's header and first rows (refusing files that are empty, header
 * only or not what their name says), infer the mapping, and the preview's set-based classification.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ImportForm, ImportPreview } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid } from '../../platform/http/errors.js';
import { reachOf, visibleContactsSql } from '../contacts/visibility.js';
import { classify, countActions } from './engine.js';
import type { ImportOptions } from './options.js';
import { checkMagic, FileRefused, kindFromName, readHead } from './parse/detect.js';
import { type InferredColumn, inferMapping } from './parse/fields.js';
import { neutralize } from './parse/normalize.js';
import { inspectFile, peekRows, type SourceInfo } from './parse/read.js';
import { stageFile } from './stage.js';
import { eachEntry, zipEntries } from './zipfiles.js';

export interface ListFile {
  info: SourceInfo;
  columns: InferredColumn[];
}

/** FileRefused becomes a 422 on `file` with the reader's own message. */
export async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FileRefused) throw invalid('file', err.message);
    throw err;
  }
}

export function readList(file: string, name: string, form: ImportForm): Promise<ListFile> {
  return refusing(async () => {
    const info = await inspectFile(file, name, form.sheet);
    const peek = await peekRows(file, info, name);
    const known = new Set(peek.headers);
    for (const h of Object.keys(form.fields)) {
      if (!known.has(h)) throw invalid('fields', `The file has no column '${h}'`);
    }
    return { info, columns: inferMapping(peek.headers, peek.samples, form.fields) };
  });
}

export async function checkZip(file: string, name: string) {
  await refusing(async () => {
    if (kindFromName(name) !== 'zip') throw new FileRefused(`${name}: attachments come as a ZIP file`);
    checkMagic('zip', await readHead(file, 8), name);
  });
}

/** attachments_leads_uploader: the first CSV or XLSX inside the ZIP is the list; it is copied out beside it. */
export async function extractList(zipPath: string): Promise<{ entry: string; name: string; path: string }> {
  const names = await refusing(() =>
    zipEntries(zipPath).catch(() => Promise.reject(new FileRefused('The ZIP cannot be read'))),
  );
  const entry = names.find((n) => ['csv', 'xlsx'].includes(kindFromName(n) ?? '') && kindFromName(n) !== 'zip');
  if (!entry) throw invalid('file', 'The ZIP holds no CSV or XLSX list of contacts');
  const name = path.basename(entry);
  const target = `${zipPath}.${kindFromName(name)}`;
  await eachEntry(
    zipPath,
    (n) => n === entry,
    async (_n, stream) => pipeline(stream, fs.createWriteStream(target)),
  );
  return { entry, name, path: target };
}

export function visibleFor(auth: AuthContext) {
  return reachOf(auth) === 'company' ? null : visibleContactsSql(auth);
}

const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
export const INVALID_LIST_LIMIT = 1000;
/** The CSV download is built in memory: a list that is mostly invalid is cut here (and says so in its last line). */
export const INVALID_CSV_LIMIT = 200_000;

/** Stages the file under a throwaway id, classifies it like the job would, and removes the staging rows. */
export async function previewList(
  deps: Deps,
  auth: AuthContext,
  upload: { path: string; name: string },
  list: ListFile,
  opts: ImportOptions,
  format: 'json' | 'csv',
): Promise<ImportPreview | string> {
  const { database } = deps;
  const db = database.db;
  const [{ id }] = await database.query<{ id: string }>(
    "select nextval(pg_get_serial_sequence('import_attempts', 'id')) as id",
  );
  const previewId = -Number(id);
  try {
    await refusing(() => stageFile(database, previewId, upload.path, list.info, opts.headers, opts.fields));
    await db.execute(sql`analyze import_rows`); // as the job does: the planner must know how many rows came in
    await db.transaction(async (tx) =>
      classify(tx as unknown as Db, auth.company.id, previewId, opts, visibleFor(auth), false),
    );
    const n = await countActions(db, previewId);
    if (n.total === 0) throw invalid('file', `${upload.name} has a header row but no data rows`);
    const limit = format === 'csv' ? INVALID_CSV_LIMIT : INVALID_LIST_LIMIT + 1;
    const bad = rowsOf<{ row_no: number; reasons: string; raw: string[] | string }>(
      await db.execute(sql`select row_no, reasons, raw from import_rows
        where attempt_id = ${previewId} and action = 'invalid' order by row_no limit ${limit}`),
    ).map((r) => ({
      row: Number(r.row_no),
      reasons: r.reasons.split('; '),
      values: (typeof r.raw === 'string' ? JSON.parse(r.raw) : r.raw) as string[],
    }));
    if (format === 'csv') {
      const csv = invalidCsv(opts.headers, bad);
      return n.invalid > INVALID_CSV_LIMIT
        ? `${csv}"Only the first ${INVALID_CSV_LIMIT} of ${n.invalid} invalid rows are listed"\r\n`
        : csv;
    }
    return {
      file_name: upload.name,
      sheets: list.info.sheets,
      sheet: list.info.sheet,
      columns: list.columns,
      row_count: n.total,
      to_create: n.create,
      to_update: n.update,
      to_skip: n.skip + n.duplicate,
      duplicates_in_file: n.duplicate,
      invalid_count: n.invalid,
      invalid: bad.slice(0, INVALID_LIST_LIMIT),
      invalid_truncated: n.invalid > INVALID_LIST_LIMIT,
    };
  } finally {
    await database.query('delete from import_rows where attempt_id = $1', [previewId]);
  }
}

const q = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** The invalid rows as they came, plus why, ready to fix and import again (cells neutralised for spreadsheets). */
export function invalidCsv(headers: string[], rows: Array<{ row: number; reasons: string[]; values: string[] }>) {
  const lines = [[...headers, 'Row', 'Errors'].map((h) => q(neutralize(h))).join(',')];
  for (const r of rows) {
    const cells = headers.map((_, i) => r.values[i] ?? '');
    lines.push([...cells, String(r.row), r.reasons.join('; ')].map((v) => q(neutralize(v))).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
