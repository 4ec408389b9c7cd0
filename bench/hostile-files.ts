/**
 * What an uploaded file can cost the server (issue 15; docs/decisions/upload-limits-and-caps.md). Every file of the
 * hostile corpus (apps/server/src/modules/imports/test-hostile.ts) is read the way its route reads it, and so are
 * big legitimate workbooks near the caps; for each: the time, the peak RSS above the baseline, and the outcome.
 * Goals: every hostile file refused with its message in under 5 s; no file raises RSS by more than 256 MB.
 * No database: this measures the readers, which is where memory and time were lost. Each file is read in a process
 * of its own, so one file's garbage never hides another's growth.
 * Run: node --import tsx bench/hostile-files.ts      (BENCH_FULL=1: the near-cap workbook at full size, about 4.5
 *   million shared strings; default 500,000)
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractList } from '../apps/server/src/modules/imports/lists.js';
import { inspectFile, peekRows, readRows } from '../apps/server/src/modules/imports/parse/read.js';
import { HOSTILE } from '../apps/server/src/modules/imports/test-hostile.js';
import { attachable, openUserFiles, readEntry } from '../apps/server/src/modules/imports/zipfiles.js';
import { FILE_CAPS, FileRefused } from '../apps/server/src/platform/files/limits.js';
import { writeZip } from '../apps/server/src/platform/files/test-zip.js';
import { XlsxWriter } from '../apps/server/src/platform/files/xlsx-writer.js';

const MB = 1 << 20;
const RSS_GOAL_MB = 256;
const HOSTILE_SECONDS = 5;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-bench-hostile-'));
const gc = (globalThis as { gc?: () => void }).gc;

/** Reads a list the way validate_import does: inspect, peek, then every row (what staging reads). */
async function readList(file: string, name: string) {
  const info = await inspectFile(file, name);
  await peekRows(file, info, name);
  let rows = 0;
  for await (const _ of readRows(file, { ...info, name })) rows++;
  return `${rows.toLocaleString('en-US')} rows`;
}

/** Reads a ZIP the way import_attachments does: the directory, the checks, then each acceptable entry. */
async function readAttachments(file: string, name: string) {
  const zip = await openUserFiles(file, name);
  try {
    const { eligible } = attachable(zip, name);
    for (const e of eligible) await readEntry(zip.archive, e);
    return `${eligible.length} files`;
  } finally {
    zip.archive.close();
  }
}

/** Reads a ZIP the way attachments_leads_uploader does: finds and unpacks its list, then reads the list. */
async function readZippedList(file: string, name: string) {
  const list = await extractList(file, name).catch(
    (err: { statusCode?: number; errors?: Record<string, string[]> }) => {
      // The route's own refusal is an HttpError; here it is reported like the readers' ones.
      if (err.errors) throw new FileRefused(Object.values(err.errors).flat()[0], err.statusCode === 413 ? 413 : 422);
      throw err;
    },
  );
  return readList(list.path, list.name);
}

async function measure(label: string, work: () => Promise<string>) {
  gc?.();
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const t0 = performance.now();
  let outcome: string;
  let refusal: FileRefused | null = null;
  try {
    outcome = await work();
  } catch (err) {
    if (err instanceof FileRefused) refusal = err;
    outcome = refusal ? `${refusal.status} ${refusal.message.slice(0, 70)}` : `ERROR ${(err as Error).message}`;
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage().rss);
  return { label, ms: performance.now() - t0, mb: (peak - base) / MB, outcome, refusal };
}

async function bigWorkbook(file: string, rows: number, shared: boolean) {
  if (!shared) {
    const out = fs.createWriteStream(file);
    const w = new XlsxWriter(out, { sheetName: 'Leads' });
    await w.header(['First Name', 'Last Name', 'Email', 'Phone', 'City']);
    for (let b = 0; b < rows; b += 1000) {
      const chunk = [];
      for (let i = b; i < Math.min(rows, b + 1000); i++)
        chunk.push([`First${i}`, `Last${i}`, `p${i}@example.com`, 5552010000 + i, 'Springfield']);
      await w.rows(chunk);
    }
    await w.finish();
    await new Promise<void>((r) => out.on('close', () => r()));
    return;
  }
  // Shared strings, each distinct (the worst case: nothing repeats), about 25 characters.
  const sst: string[] = [];
  const sheet: string[] = [];
  for (let i = 0; i < rows; i++) {
    sst.push(`<si><t>Person number ${String(i).padStart(10, '0')}</t></si>`);
    sheet.push(
      `<row r="${i + 2}"><c r="A${i + 2}" t="s"><v>${i}</v></c><c r="B${i + 2}"><v>${5552010000 + i}</v></c></row>`,
    );
  }
  const head = '<?xml version="1.0"?>';
  const ns = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
  const rel = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
  writeZip(file, [
    {
      name: '_rels/.rels',
      data: `${head}<Relationships><Relationship Id="r1" Type="${rel}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    },
    {
      name: 'xl/workbook.xml',
      data: `${head}<workbook ${ns} xmlns:r="${rel}"><sheets><sheet name="Leads" sheetId="1" r:id="r1"/></sheets></workbook>`,
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      data: `${head}<Relationships><Relationship Id="r1" Type="${rel}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="r2" Type="${rel}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    },
    { name: 'xl/sharedStrings.xml', data: `${head}<sst ${ns}>${sst.join('')}</sst>` },
    {
      name: 'xl/worksheets/sheet1.xml',
      data: `${head}<worksheet ${ns}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>Name</t></is></c><c r="B1" t="inlineStr"><is><t>Phone</t></is></c></row>${sheet.join('')}</sheetData></worksheet>`,
    },
  ]);
}

const READERS: Record<string, (file: string, name: string) => Promise<string>> = {
  '/v1/contacts/validate_import': readList,
  '/v1/contacts/import_attachments': readAttachments,
  '/v1/contacts/attachments_leads_uploader': readZippedList,
};
const full = process.env.BENCH_FULL === '1';
const LEGIT: Array<[string, number, boolean]> = [
  ['200k-rows-inline.xlsx', 200_000, false],
  [`${full ? '4.5M' : '500k'}-shared-strings.xlsx`, full ? 4_500_000 : 500_000, true],
];

/** In a child: read one file the parent wrote, print the figures as JSON (writing it here would hide the growth). */
async function child(which: string, file: string) {
  const c = HOSTILE.find((h) => h.file === which);
  const read = c ? READERS[c.route] : readList;
  const size = fs.statSync(file).size;
  const r = await measure(which, () => read(file, which));
  console.log(JSON.stringify({ ...r, size, status: r.refusal?.status ?? null, message: r.refusal?.message ?? null }));
}

/** In the parent: the file for a case. */
async function make(which: string): Promise<string> {
  const c = HOSTILE.find((h) => h.file === which);
  if (c) return c.make(dir);
  const [name, rows, shared] = LEGIT.find(([n]) => n === which)!;
  const file = path.join(dir, name);
  await bigWorkbook(file, rows, shared);
  return file;
}

if (process.env.BENCH_ONE) {
  fs.rmSync(dir, { recursive: true, force: true });
  await child(process.env.BENCH_ONE, String(process.env.BENCH_FILE));
} else {
  const pad = (v: string, n: number) => v.padEnd(n).slice(0, n);
  console.log(
    `caps: ${FILE_CAPS.sharedStrings.toLocaleString('en-US')} shared strings, ${FILE_CAPS.sharedStringsText / MB} MB of their text, ${FILE_CAPS.columns} columns, ${FILE_CAPS.cellChars.toLocaleString('en-US')} characters a cell`,
  );
  console.log(
    `${pad('file', 40)} ${pad('size', 9)} ${pad('time', 9)} ${pad('peak RSS', 10)} ${pad('outcome', 72)} goal`,
  );
  let failed = 0;
  for (const which of [...HOSTILE.map((h) => h.file), ...LEGIT.map(([n]) => n)]) {
    const file = await make(which);
    const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename], {
      env: { ...process.env, BENCH_ONE: which, BENCH_FILE: file },
      encoding: 'utf8',
      maxBuffer: 16 * MB,
    });
    fs.rmSync(file, { force: true });
    const r = JSON.parse(out.trim().split('\n').pop() ?? '{}');
    const c = HOSTILE.find((h) => h.file === which);
    const goal = c ? `${c.status}, < ${HOSTILE_SECONDS} s, < ${RSS_GOAL_MB} MB` : `read, < ${RSS_GOAL_MB} MB`;
    const pass = c
      ? r.status === c.status && c.message.test(r.message ?? '') && r.ms < HOSTILE_SECONDS * 1000 && r.mb < RSS_GOAL_MB
      : r.status === null && !String(r.outcome).startsWith('ERROR') && r.mb < RSS_GOAL_MB;
    if (!pass) failed++;
    console.log(
      `${pad(which, 40)} ${pad(`${(r.size / MB).toFixed(1)} MB`, 9)} ${pad(`${Math.round(r.ms)} ms`, 9)} ${pad(`+${Math.round(r.mb)} MB`, 10)} ${pad(r.outcome, 72)} ${goal}: ${pass ? 'pass' : 'FAIL'}`,
    );
  }
  fs.rmSync(dir, { recursive: true, force: true });
  process.exitCode = failed === 0 ? 0 : 1;
}
