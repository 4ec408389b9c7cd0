/**
 * Streaming readers: rows of a CSV (any encoding and delimiter detect.ts finds) or of one XLSX sheet, one at a
 * time as string cells; the file is never held in memory whole, and every row passes the caps of
 * platform/files/limits.ts (columns, cell size, no NUL) before anything downstream sees it.
 */
import { FILE_CAPS, type FileCaps, FileRefused, tooLarge } from '../../../platform/files/limits.js';
import { XlsxReader, type XlsxSheet } from '../../../platform/files/xlsx-reader.js';
import { csvRows, type SourceRow } from './csv.js';
import {
  checkMagic,
  checkText,
  decodeHead,
  detectEncoding,
  type Encoding,
  type FileKind,
  kindFromName,
  readHead,
  sniffDelimiter,
} from './detect.js';

export interface SourceInfo {
  kind: 'csv' | 'xlsx';
  encoding: Encoding | null;
  delimiter: ',' | ';' | '\t' | null;
  sheets: string[];
  sheet: string | null;
  /** The file's own name, for messages (the stored copy has a generated one). */
  name?: string;
}

/** Checks the file against its name and learns how to read it. Throws FileRefused with a message for people. */
export async function inspectFile(file: string, name: string, sheet?: string): Promise<SourceInfo> {
  const kind: FileKind | null = kindFromName(name);
  if (kind !== 'csv' && kind !== 'xlsx') throw new FileRefused(`${name}: only CSV and XLSX files can be imported`);
  const head = await readHead(file);
  if (head.length === 0) throw new FileRefused(`${name} is empty`);
  checkMagic(kind, head, name);
  if (kind === 'xlsx') {
    const book = await XlsxReader.open(file, name);
    try {
      const visible = book.sheets.filter((s) => !s.hidden);
      const offered = visible.length > 0 ? visible : book.sheets;
      if (offered.length === 0) throw new FileRefused(`${name} has no sheets`);
      let chosen: string;
      if (sheet) {
        if (!book.sheets.some((s) => s.name === sheet)) throw new FileRefused(`${name} has no sheet named '${sheet}'`);
        chosen = sheet;
      } else {
        chosen = (await pickSheet(book, offered)).name;
      }
      return { kind, encoding: null, delimiter: null, sheets: offered.map((s) => s.name), sheet: chosen, name };
    } finally {
      book.close();
    }
  }
  const encoding = detectEncoding(head);
  const text = decodeHead(head, encoding);
  checkText(text, name);
  return { kind, encoding, delimiter: sniffDelimiter(text.replace(/^\uFEFF/, '')), sheets: [], sheet: null, name };
}

/**
 * The sheet a list is on when none was asked for: the first whose header row has at least two cells and which has a
 * row under it, so a cover page, a title sheet or an empty first sheet does not end the import; then the first with
 * any rows under a header; else the first.
 */
async function pickSheet(book: XlsxReader, sheets: XlsxSheet[]): Promise<XlsxSheet> {
  if (sheets.length === 1) return sheets[0];
  let fallback: XlsxSheet | null = null;
  for (const s of sheets) {
    const rows: string[][] = [];
    const it = book.rows(s);
    try {
      for await (const r of it) {
        rows.push(r.cells);
        if (rows.length >= 2) break;
      }
    } finally {
      await it.return(undefined);
    }
    if (rows.length < 2) continue;
    if (rows[0].filter((c) => c.trim() !== '').length >= 2) return s;
    fallback ??= s;
  }
  return fallback ?? sheets[0];
}

/** Every non-empty row, header first. */
export async function* readRows(file: string, info: SourceInfo, caps: FileCaps = FILE_CAPS): AsyncGenerator<string[]> {
  const name = info.name ?? (info.kind === 'xlsx' ? 'the workbook' : 'the file');
  const rows =
    info.kind === 'xlsx'
      ? xlsxRows(file, name, info.sheet)
      : csvRows(file, name, info.encoding ?? 'utf8', info.delimiter ?? ',', caps);
  for await (const r of rows) {
    checkRow(r, caps);
    if (r.cells.some((c) => c.trim() !== '')) yield r.cells;
  }
}

async function* xlsxRows(file: string, name: string, sheet: string | null): AsyncGenerator<SourceRow> {
  const book = await XlsxReader.open(file, name);
  try {
    const s = sheet === null ? book.sheets[0] : book.sheets.find((x) => x.name === sheet);
    if (!s) throw new FileRefused(`${name} has no sheet named '${sheet}'`);
    for await (const r of book.rows(s)) yield { row: r.r, cells: r.cells };
  } finally {
    book.close();
  }
}

/** The caps every row must pass, whatever the file type; and text PostgreSQL can store (no NUL). */
export function checkRow(r: SourceRow, caps: FileCaps) {
  let last = r.cells.length;
  while (last > 0 && r.cells[last - 1] === '') last--;
  if (last > caps.columns) {
    throw new FileRefused(`Row ${r.row} has ${last} columns; a list can have at most ${caps.columns}`);
  }
  for (let i = 0; i < last; i++) {
    const c = r.cells[i];
    if (c.length > caps.cellChars) {
      throw tooLarge(
        `Row ${r.row}, column ${i + 1} holds more than ${caps.cellChars.toLocaleString('en-US')} characters`,
      );
    }
    if (c.indexOf('\u0000') >= 0) {
      throw new FileRefused(
        `Row ${r.row} holds a NUL byte, which text never has: is the file really a list saved as CSV or XLSX?`,
      );
    }
  }
}

export interface Peek {
  headers: string[];
  samples: string[][];
  /** True when there is at least one data row. */
  hasRows: boolean;
}

/** Header plus the first data rows, for mapping inference; refuses empty and header-only files. */
export async function peekRows(file: string, info: SourceInfo, name: string, n = 50): Promise<Peek> {
  const rows = readRows(file, info);
  let headers: string[] | null = null;
  const samples: string[][] = [];
  try {
    for await (const r of rows) {
      if (!headers) headers = uniqueHeaders(r);
      else samples.push(r);
      if (samples.length >= n) break;
    }
  } catch (err) {
    if (err instanceof FileRefused) throw err;
    throw new FileRefused(`${name} could not be read: ${(err as Error).message}`);
  } finally {
    await rows.return(undefined);
  }
  if (info.kind === 'xlsx' && info.sheets.length > 1 && samples.length === 0) {
    throw new FileRefused(
      `Sheet '${info.sheet}' of ${name} holds no list (no rows under a header): pick the sheet the list is on`,
    );
  }
  if (!headers) throw new FileRefused(`${name} is empty: there is no header row and no data`);
  if (samples.length === 0) throw new FileRefused(`${name} has a header row but no data rows`);
  return { headers, samples, hasRows: true };
}

/** Empty and repeated headers get names of their own, so a mapping by header is never ambiguous. */
export function uniqueHeaders(row: string[]): string[] {
  const seen = new Map<string, number>();
  return row.map((h, i) => {
    let name = h.trim() || `Column ${i + 1}`;
    const n = seen.get(name.toLowerCase()) ?? 0;
    seen.set(name.toLowerCase(), n + 1);
    if (n > 0) name = `${name} (${n + 1})`;
    return name;
  });
}
