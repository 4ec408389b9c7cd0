/**
 * What a file really is, from its first bytes: XLSX must be a ZIP; a CSV must decode as text (UTF-8 with or without
 * BOM, UTF-16 by BOM, otherwise Windows-1252) and its delimiter is sniffed from the first lines.
 */
import fs from 'node:fs/promises';
import chardet from 'chardet';
import iconv from 'iconv-lite';
import { FileRefused } from '../../../platform/files/limits.js';

export type FileKind = 'csv' | 'xlsx' | 'zip';
export type Encoding = 'utf8' | 'utf-16le' | 'utf-16be' | 'win1252';

export { FileRefused } from '../../../platform/files/limits.js';

const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const EMPTY_ZIP = Buffer.from([0x50, 0x4b, 0x05, 0x06]);

export function kindFromName(name: string): FileKind | null {
  const ext = name.toLowerCase().split('.').pop();
  if (ext === 'csv' || ext === 'txt' || ext === 'tsv') return 'csv';
  if (ext === 'xlsx') return 'xlsx';
  if (ext === 'zip') return 'zip';
  return null;
}

export async function readHead(file: string, bytes = 64 * 1024): Promise<Buffer> {
  const fh = await fs.open(file, 'r');
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Refuses a file whose bytes are not what its name says. */
export function checkMagic(kind: FileKind, head: Buffer, name: string) {
  const isZip = head.subarray(0, 4).equals(ZIP_MAGIC) || head.subarray(0, 4).equals(EMPTY_ZIP);
  if (kind === 'xlsx' || kind === 'zip') {
    if (!isZip) throw new FileRefused(`${name} is not a real ${kind.toUpperCase()} file`);
    return;
  }
  if (isZip) throw new FileRefused(`${name} is not a CSV file (it looks like an XLSX or ZIP file)`);
  const pdf = head.subarray(0, 5).toString('latin1') === '%PDF-';
  if (pdf) throw new FileRefused(`${name} is not a CSV file (it looks like a PDF)`);
}

export function detectEncoding(head: Buffer): Encoding {
  if (head[0] === 0xff && head[1] === 0xfe) return 'utf-16le';
  if (head[0] === 0xfe && head[1] === 0xff) return 'utf-16be';
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8';
  if (head.length === 0) return 'utf8';
  // A cut multibyte character at the end of the sample must not count against UTF-8.
  let end = head.length;
  while (end > 0 && end > head.length - 4 && (head[end - 1] & 0xc0) === 0x80) end--;
  if (end > 0 && head[end - 1] >= 0xc0) end--;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head.subarray(0, end));
    return 'utf8';
  } catch {
    const guess = chardet.detect(head);
    if (guess === 'UTF-16LE') return 'utf-16le';
    if (guess === 'UTF-16BE') return 'utf-16be';
    return 'win1252';
  }
}

export function decodeHead(head: Buffer, encoding: Encoding): string {
  return iconv.decode(head, encoding);
}

/** Text a CSV may hold: no NUL or other control bytes beyond tab, CR, LF. */
export function checkText(text: string, name: string) {
  const sample = text.slice(0, 8192);
  let bad = 0;
  for (let i = 0; i < sample.length; i++) {
    const c = sample.charCodeAt(i);
    if (c < 32 && c !== 9 && c !== 10 && c !== 13) bad++;
  }
  if (bad > 0 && bad > sample.length / 1000) throw new FileRefused(`${name} is not a text (CSV) file`);
}

/** The delimiter that splits the first lines into the same, largest number of fields. */
export function sniffDelimiter(text: string): ',' | ';' | '\t' {
  const lines = splitLines(text).slice(0, 10);
  if (lines.length === 0) return ',';
  let best: ',' | ';' | '\t' = ',';
  let bestScore = 0;
  for (const d of [',', ';', '\t'] as const) {
    const counts = lines.map((l) => countOutsideQuotes(l, d));
    const first = counts[0];
    if (first === 0) continue;
    const consistent = counts.filter((c) => c === first).length / counts.length;
    const score = first * consistent;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

function splitLines(text: string): string[] {
  const out: string[] = [];
  let inQuotes = false;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '"') inQuotes = !inQuotes;
    else if ((ch === '\n' || ch === '\r') && !inQuotes) {
      const line = text.slice(start, i);
      if (line.trim()) out.push(line);
      start = i + 1;
    }
  }
  // The sample may end mid-line; only a whole first line is trusted when it is all there is.
  if (out.length === 0 && text.trim()) out.push(text);
  return out;
}

function countOutsideQuotes(line: string, d: string): number {
  let n = 0;
  let q = false;
  for (const ch of line) {
    if (ch === '"') q = !q;
    else if (ch === d && !q) n++;
  }
  return n;
}
