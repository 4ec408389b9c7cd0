/**
 * Shared steps of the list routes: read the upload's header and first rows (refusing files that are empty, header
 * only or not what their name says), infer the mapping; the CSV of rows people fix and import again.
 */
import fs from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ImportForm } from '@harbor/shared';
import type { AuthContext } from '../../platform/auth/context.js';
import { neutralize } from '../../platform/files/formula-safe.js';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { reachOf } from '../../platform/reach.js';
import { visibleContactsSql } from '../contacts/visibility.js';
import { checkMagic, FileRefused, kindFromName, readHead } from './parse/detect.js';
import { type InferredColumn, inferMapping } from './parse/fields.js';
import { inspectFile, peekRows, type SourceInfo } from './parse/read.js';

export interface ListFile {
  info: SourceInfo;
  columns: InferredColumn[];
}

/** FileRefused becomes a 4xx on `file` (413 for a size cap, 422 otherwise) with the reader's own message. */
export async function refusing<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof FileRefused) throw new HttpError(err.status, { file: [err.message] });
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

/**
 * attachments_leads_uploader: the first CSV or XLSX inside the ZIP is the list; it is copied out beside it, within
 * the size a list upload may have (a bigger one is a 413 naming it, not a missing file later).
 */
export async function extractList(
  zipPath: string,
  zipName: string,
): Promise<{ entry: string; name: string; path: string }> {
  return refusing(async () => {
    const zip = await openUserFiles(zipPath, zipName);
    try {
      const entry = zip.files.find((e) => ['csv', 'xlsx'].includes(kindFromName(e.name) ?? ''));
      if (!entry) throw invalid('file', `${zipName} holds no CSV or XLSX list of contacts`);
      const name = path.basename(entry.name);
      const target = `${zipPath}.${kindFromName(name)}`;
      const max = maxUploadMb() * 1024 * 1024;
      const out = fs.createWriteStream(target);
      try {
        await pipeline(zip.archive.chunks(entry, { maxBytes: max, what: `${name} in ${zipName}` }), out);
      } catch (err) {
        // The stream opens its file asynchronously: removed before that open lands, the file would come back empty
        // and stay (seen when the cap is hit at once). Wait until the stream has closed, then remove it.
        if (!out.closed) await new Promise<void>((resolve) => out.once('close', () => resolve()));
        await fs.promises.rm(target, { force: true });
        throw err;
      }
      return { entry: entry.name, name, path: target };
    } finally {
      zip.archive.close();
    }
  });
}

export function visibleFor(auth: AuthContext) {
  return reachOf(auth) === 'company' ? null : visibleContactsSql(auth);
}

import { maxUploadMb } from './upload.js';
import { openUserFiles } from './zipfiles.js';

const q = (v: string) => (/[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** One CSV line (CRLF-terminated), cells neutralised for spreadsheets. */
export const csvLine = (cells: string[]) => `${cells.map((v) => q(neutralize(v))).join(',')}\r\n`;

/** The invalid rows as they came, plus why, ready to fix and import again. */
export function invalidCsv(headers: string[], rows: Array<{ row: number; reasons: string[]; values: string[] }>) {
  let out = csvLine([...headers, 'Row', 'Errors']);
  for (const r of rows)
    out += csvLine([...headers.map((_, i) => r.values[i] ?? ''), String(r.row), r.reasons.join('; ')]);
  return out;
}
