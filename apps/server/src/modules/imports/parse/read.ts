/**
 * Streaming readers: rows of a CSV (any encoding and delimiter detect.ts finds) or of one XLSX sheet, one at a
 * time as string cells; the file is never held in memory whole.
 */
import fs from 'node:fs';
import { parse } from 'csv-parse';
import ExcelJS from 'exceljs';
import iconv from 'iconv-lite';
import yauzl from 'yauzl';
import {
  checkMagic,
  checkText,
  decodeHead,
  detectEncoding,
  type Encoding,
  type FileKind,
  FileRefused,
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
}

/** Checks the file against its name and learns how to read it. Throws FileRefused with a message for people. */
export async function inspectFile(file: string, name: string, sheet?: string): Promise<SourceInfo> {
  const kind: FileKind | null = kindFromName(name);
  if (kind !== 'csv' && kind !== 'xlsx') throw new FileRefused(`${name}: only CSV and XLSX files can be imported`);
  const head = await readHead(file);
  if (head.length === 0) throw new FileRefused(`${name} is empty`);
  checkMagic(kind, head, name);
  if (kind === 'xlsx') {
    const sheets = await listSheets(file).catch(() => {
      throw new FileRefused(`${name} is not a readable XLSX workbook`);
    });
    if (sheets.length === 0) throw new FileRefused(`${name} has no sheets`);
    if (sheet && !sheets.includes(sheet)) throw new FileRefused(`${name} has no sheet named '${sheet}'`);
    return { kind, encoding: null, delimiter: null, sheets, sheet: sheet ?? sheets[0] };
  }
  const encoding = detectEncoding(head);
  const text = decodeHead(head, encoding);
  checkText(text, name);
  return { kind, encoding, delimiter: sniffDelimiter(text.replace(/^\uFEFF/, '')), sheets: [], sheet: null };
}

/** Sheet names in workbook order, from xl/workbook.xml (without reading any sheet). */
export function listSheets(file: string): Promise<string[]> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, autoClose: true }, (err, zip) => {
      if (err || !zip) return reject(err ?? new Error('zip'));
      let found = false;
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== 'xl/workbook.xml') return zip.readEntry();
        found = true;
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            const xml = Buffer.concat(chunks).toString('utf8');
            resolve([...xml.matchAll(/<sheet\b[^>]*\bname="([^"]*)"/g)].map((m) => unescapeXml(m[1])));
          });
          stream.on('error', reject);
        });
      });
      zip.on('end', () => {
        if (!found) reject(new Error('no workbook.xml'));
      });
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const unescapeXml = (s: string) =>
  s
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** Every non-empty row, header first. */
export function readRows(file: string, info: SourceInfo): AsyncGenerator<string[]> {
  return info.kind === 'xlsx' ? readXlsx(file, info.sheet) : readCsv(file, info);
}

async function* readCsv(file: string, info: SourceInfo): AsyncGenerator<string[]> {
  const source = fs.createReadStream(file, { highWaterMark: 256 * 1024 });
  const decoder = iconv.decodeStream(info.encoding ?? 'utf8', { stripBOM: true });
  const parser = parse({
    delimiter: info.delimiter ?? ',',
    relax_column_count: true,
    relax_quotes: true,
    skip_empty_lines: true,
    skip_records_with_empty_values: true,
    bom: true,
    max_record_size: 1024 * 1024,
  });
  // pipe() does not forward errors: a file gone mid-read must end the loop below with that error, not hang it.
  source.on('error', (e) => parser.destroy(e));
  decoder.on('error', (e: Error) => parser.destroy(e));
  source.pipe(decoder).pipe(parser);
  try {
    for await (const record of parser) yield record as string[];
  } finally {
    source.destroy();
  }
}

async function* readXlsx(file: string, sheet: string | null): AsyncGenerator<string[]> {
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(file, {
    sharedStrings: 'cache',
    styles: 'cache',
    worksheets: 'emit',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  let first = true;
  for await (const ws of reader) {
    const name = (ws as unknown as { name: string }).name;
    const wanted = sheet === null ? first : name === sheet;
    first = false;
    // Other sheets are still read through (the zip is one stream) but their rows are dropped.
    for await (const row of ws) {
      if (!wanted) continue;
      const values = (row as ExcelJS.Row).values as unknown[];
      const cells: string[] = [];
      for (let i = 1; i < values.length; i++) cells.push(cellText(values[i]));
      if (cells.some((c) => c.trim() !== '')) yield cells;
    }
  }
}

export function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) return '';
    return v.toISOString().slice(0, 10);
  }
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (Array.isArray(o.richText)) return (o.richText as Array<{ text: string }>).map((t) => t.text).join('');
    if ('result' in o) return cellText(o.result);
    if ('text' in o) return cellText(o.text);
    if ('error' in o) return '';
    return '';
  }
  return String(v);
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
