import { PassThrough, Writable } from 'node:stream';
import zlib from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { columnName, type XlsxCell, XlsxWriter, xmlText } from './xlsx-writer.js';
import { crc32, tableCrc32, ZipWriter } from './zip-writer.js';

async function write(fill: (x: XlsxWriter) => Promise<void>): Promise<Buffer> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((r) => out.on('end', r));
  const x = new XlsxWriter(out, { sheetName: 'Contacts' });
  await fill(x);
  await x.finish();
  await ended;
  return Buffer.concat(chunks);
}

interface Unzipped {
  name: string;
  crc: number;
  text: string;
}

/** Every entry through yauzl, which checks the central directory against the local headers and each CRC. */
function unzip(buf: Buffer): Promise<Unzipped[]> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buf, { lazyEntries: true, validateEntrySizes: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      const entries: Unzipped[] = [];
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, stream) => {
          if (err2 || !stream) return reject(err2);
          const parts: Buffer[] = [];
          stream.on('data', (c: Buffer) => parts.push(c));
          stream.on('error', reject);
          stream.on('end', () => {
            const data = Buffer.concat(parts);
            // yauzl checks sizes; the CRC we check here against the directory's.
            entries.push({ name: e.fileName, crc: e.crc32, text: data.toString('utf8') });
            if (crc32(data) !== e.crc32) reject(new Error(`CRC mismatch in ${e.fileName}`));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

const HEADER = ['Number', 'Name', 'Note', 'Empty', 'Amount'];
const ROWS: XlsxCell[][] = [
  [1, 'Ann & <Bob> "quoted"', '\'=HYPERLINK("http://evil")', null, 12.5],
  [2, 'Zoë Ñúñez 李 😀', '=SUM(A1:A2)', '', -3],
  [3, '  padded  ', 'line one\nline two\r\nthree', undefined, 0],
  [4, 'bad\u0000chars\u0001here\u000b\ud800lone', '+1', null, null],
];

describe('XlsxWriter', () => {
  it('writes a workbook that exceljs reads back cell by cell', async () => {
    const buf = await write(async (x) => {
      await x.header(HEADER);
      await x.rows(ROWS.slice(0, 2));
      await x.rows(ROWS.slice(2));
    });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(buf as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Contacts');
    if (!sheet) throw new Error('no sheet');
    expect(sheet.actualRowCount).toBe(5);
    expect((sheet.getRow(1).values as unknown[]).slice(1)).toEqual(HEADER);
    expect(sheet.getRow(1).getCell(1).font?.bold).toBe(true);
    const cell = (r: number, c: number) => sheet.getRow(r).getCell(c).value;
    expect(cell(2, 1)).toBe(1);
    expect(cell(2, 2)).toBe('Ann & <Bob> "quoted"');
    expect(cell(2, 3)).toBe('\'=HYPERLINK("http://evil")');
    expect(cell(2, 4)).toBeNull();
    expect(cell(2, 5)).toBe(12.5);
    expect(cell(3, 2)).toBe('Zoë Ñúñez 李 😀');
    // Text that looks like a formula is still text, never a formula cell.
    expect(cell(3, 3)).toBe('=SUM(A1:A2)');
    expect(sheet.getRow(3).getCell(3).type).toBe(ExcelJS.ValueType.String);
    expect(cell(3, 4)).toBeNull();
    expect(cell(3, 5)).toBe(-3);
    expect(cell(4, 2)).toBe('  padded  ');
    expect(cell(4, 3)).toBe('line one\nline two\r\nthree');
    expect(cell(4, 5)).toBe(0);
    expect(cell(5, 2)).toBe('badcharsherelone');
    expect(cell(5, 3)).toBe('+1');
    expect(cell(5, 5)).toBeNull();
  });

  it('writes a valid zip with the SpreadsheetML parts and well-formed escaping', async () => {
    const buf = await write(async (x) => {
      await x.header(HEADER);
      await x.rows(ROWS);
    });
    const entries = await unzip(buf);
    expect(entries.map((e) => e.name)).toEqual([
      '[Content_Types].xml',
      '_rels/.rels',
      'xl/workbook.xml',
      'xl/_rels/workbook.xml.rels',
      'xl/styles.xml',
      'xl/worksheets/sheet1.xml',
    ]);
    const sheet = entries[5].text;
    expect(sheet).toContain('<c r="B2" t="inlineStr"><is><t>Ann &amp; &lt;Bob&gt; &quot;quoted&quot;</t></is></c>');
    expect(sheet).toContain('<c r="A2"><v>1</v></c>');
    expect(sheet).not.toContain('<f>');
    expect(sheet).not.toContain('D2'); // empty cells are left out
    expect(sheet).toContain('<t xml:space="preserve">  padded  </t>');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: asserting none survive
    expect(sheet).not.toMatch(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/);
  });

  it('streams many rows with the reader pulling slowly, and the row count reads back', async () => {
    const out = new PassThrough({ highWaterMark: 1024 });
    const slow = new Writable({
      highWaterMark: 1024,
      write(chunk: Buffer, _enc, cb) {
        received.push(chunk);
        setImmediate(cb);
      },
    });
    const received: Buffer[] = [];
    out.pipe(slow);
    const done = new Promise((r) => slow.on('finish', r));
    const x = new XlsxWriter(out, { sheetName: 'Contacts' });
    await x.header(HEADER);
    for (let b = 0; b < 20; b++) {
      await x.rows(Array.from({ length: 500 }, (_, i) => [b * 500 + i, `name ${i}`, `note ${b}`, null, i / 4]));
    }
    await x.finish();
    await done;
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.concat(received) as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Contacts');
    expect(sheet?.actualRowCount).toBe(10_001);
    expect(sheet?.getRow(10_001).getCell(1).value).toBe(9_999);
  });

  it('fails the writes when the output is destroyed (the client went away)', async () => {
    const out = new PassThrough({ highWaterMark: 16 });
    const x = new XlsxWriter(out, { sheetName: 'Contacts' });
    // Nobody reads, so the writer soon waits on the output; destroying it must end that wait with an error.
    setTimeout(() => out.destroy(), 20);
    const rows = Array.from({ length: 2000 }, (_, i) => [i, `row ${i}`]);
    await expect(
      (async () => {
        await x.header(HEADER);
        for (;;) await x.rows(rows);
      })(),
    ).rejects.toThrow('output closed');
  });

  it('refuses bad sheet names', () => {
    expect(() => new XlsxWriter(new PassThrough(), { sheetName: 'a/b' })).toThrow();
    expect(() => new XlsxWriter(new PassThrough(), { sheetName: 'x'.repeat(32) })).toThrow();
  });
});

describe('xlsx helpers', () => {
  it('names columns and escapes text', () => {
    expect([0, 25, 26, 27, 51, 52, 701, 702].map(columnName)).toEqual(['A', 'Z', 'AA', 'AB', 'AZ', 'BA', 'ZZ', 'AAA']);
    expect(xmlText('plain')).toBe('plain');
    expect(xmlText('a&b<c>"d"\re')).toBe('a&amp;b&lt;c&gt;&quot;d&quot;&#13;e');
    expect(xmlText('x\u0000\ufffey\uffff😀')).toBe('xy😀');
  });

  it('computes the same CRC-32 as zlib in plain JS', () => {
    const data = Buffer.from('The quick brown fox jumps over the lazy dog');
    expect(tableCrc32(data)).toBe(0x414fa339);
    expect(tableCrc32(data.subarray(10), tableCrc32(data.subarray(0, 10)))).toBe(0x414fa339);
    if (typeof zlib.crc32 === 'function') expect(crc32(data)).toBe(0x414fa339);
  });

  it('zips an empty entry', async () => {
    const out = new PassThrough();
    const chunks: Buffer[] = [];
    out.on('data', (c: Buffer) => chunks.push(c));
    const ended = new Promise((r) => out.on('end', r));
    const zip = new ZipWriter(out);
    await zip.file('empty.txt', '');
    await zip.file('b.txt', 'b');
    await zip.finish();
    await ended;
    const entries = await unzip(Buffer.concat(chunks));
    expect(entries.map((e) => [e.name, e.text])).toEqual([
      ['empty.txt', ''],
      ['b.txt', 'b'],
    ]);
  });
});
