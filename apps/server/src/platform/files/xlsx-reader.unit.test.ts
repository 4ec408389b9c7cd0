import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FILE_CAPS, type FileCaps, FileRefused } from './limits.js';
import { type SheetSpec, type XlsxStyle, xlsxParts } from './test-xlsx.js';
import { writeZip, type ZipPart } from './test-zip.js';
import { columnIndex, excelSerialToIso, isDateFormat, XlsxReader } from './xlsx-reader.js';
import { XlsxWriter } from './xlsx-writer.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-xlsx-reader-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = (parts: ZipPart[]) => {
  const f = path.join(dir, `w${n++}.xlsx`);
  writeZip(f, parts);
  return f;
};

async function read(f: string, sheet?: string, caps: FileCaps = FILE_CAPS) {
  const r = await XlsxReader.open(f, 'book.xlsx', caps);
  try {
    const s = sheet ? r.sheets.find((x) => x.name === sheet) : r.sheets[0];
    const rows: string[][] = [];
    for await (const row of r.rows(s!)) rows.push(row.cells);
    return { sheets: r.sheets.map((x) => x.name), rows };
  } finally {
    r.close();
  }
}

const LIST: SheetSpec = {
  name: 'Leads',
  rows: [
    ['First Name', 'Last Name', 'Phone', 'DOB', 'Client'],
    ['Ada', 'Lovelace & Co <x>', 5552010001, { date: 18337 }, true],
    ['Grace', ' Hopper ', '(555) 201-0002', { iso: '1951-07-04T00:00:00Z' }, false],
  ],
};
const EXPECTED = [
  ['First Name', 'Last Name', 'Phone', 'DOB', 'Client'],
  ['Ada', 'Lovelace & Co <x>', '5552010001', '1950-03-15', 'TRUE'],
  ['Grace', ' Hopper ', '(555) 201-0002', '1951-07-04', 'FALSE'],
];

describe('XlsxReader: every producer style reads the same', () => {
  const STYLES: Array<[string, Partial<XlsxStyle>]> = [
    ['Excel (shared strings, relative targets)', {}],
    ['Google Sheets / openpyxl (absolute targets)', { targets: 'absolute' }],
    ['a streaming writer (inline strings, no references, no styles)', { strings: 'inline', refs: false }],
    ['the OpenXML SDK (prefixed elements)', { prefix: 'x:' }],
    ['parts in reverse order', { order: 'reversed' }],
    ['sheets before the workbook, shared strings last', { order: 'sheets-first', targets: 'absolute' }],
    ['a chart sheet first', { chartSheet: true }],
  ];
  for (const [label, style] of STYLES) {
    it(label, async () => {
      const got = await read(file(xlsxParts([LIST], style)));
      expect(got.sheets).toEqual(['Leads']);
      expect(got.rows).toEqual(EXPECTED);
    });
  }

  it('reads the 1904 date system', async () => {
    const got = await read(file(xlsxParts([LIST], { date1904: true })));
    expect(got.rows[1][3]).toBe(excelSerialToIso(18337 + 1462));
    expect(got.rows[1][3]).toBe('1954-03-16');
  });

  it('reads what our own streaming writer and exceljs write', async () => {
    const ours = path.join(dir, 'ours.xlsx');
    const out = fs.createWriteStream(ours);
    const w = new XlsxWriter(out, { sheetName: 'Contacts' });
    await w.header(['Name', 'Phone']);
    await w.rows([
      ['José Muñoz', 5552010001],
      ['=HYPERLINK("x")', null],
    ]);
    await w.finish();
    await new Promise<void>((r) => out.on('close', () => r()));
    expect((await read(ours)).rows).toEqual([['Name', 'Phone'], ['José Muñoz', '5552010001'], ['=HYPERLINK("x")']]);
    const exceljs = path.join(import.meta.dirname, '../../modules/imports/fixtures/multi-sheet.xlsx');
    const got = await read(exceljs, 'Leads');
    expect(got.sheets).toEqual(['Notes', 'Leads', 'Empty']);
    expect(got.rows[1]).toEqual(['Ada', 'Lovelace', 'ada@example.com', '5552010001', '1950-03-15', '18264', 'CA']);
  });

  it('sparse rows and cells, with and without references; formulas give their values', async () => {
    const sheet = `<?xml version="1.0"?><worksheet xmlns="x"><sheetData>
      <row r="2"><c r="B2" t="inlineStr"><is><t>B</t></is></c><c r="E2"><v>5</v></c></row>
      <row><c><v>1</v></c><c t="str"><f>A3&amp;"x"</f><v>1x</v></c><c t="e"><v>#N/A</v></c><c/><c><v>1.5552010001E10</v></c></row>
      <row r="9" spans="1:3"><c r="C9" t="inlineStr"><is><r><t>rich </t></r><r><rPr><b/></rPr><t>text</t></r><rPh><t>ruby</t></rPh></is></c></row>
      <row r="10"><c r="A10" t="inlineStr"><is><t>line_x000D_
break</t></is></c></row>
      <row r="11"/>
    </sheetData><mergeCells/></worksheet>`;
    const parts = xlsxParts([{ name: 'S', rows: [] }], { strings: 'inline', styles: false });
    parts[parts.length - 1].data = sheet;
    const got = await read(file(parts));
    expect(got.rows).toEqual([
      ['', 'B', '', '', '5'],
      ['1', '1x', '', '', '15552010001'],
      ['', '', 'rich text'],
      ['line\r\nbreak'],
    ]);
  });

  it('shared strings with rich runs and phonetic guides, names compared without case', async () => {
    const parts = xlsxParts([
      { name: 'S', rows: [[{ xml: '<c r="A1" t="s"><v>0</v></c>' }, { xml: '<c r="B1" t="s"><v>1</v></c>' }]] },
    ]);
    const sst = parts.find((p) => p.name === 'xl/sharedStrings.xml')!;
    sst.name = 'xl/SharedStrings.xml';
    sst.data =
      '<sst xmlns="x"><si><r><t>Jos</t></r><r><t>é</t></r><rPh sb="0" eb="1"><t>ホセ</t></rPh></si><si><t/></si></sst>';
    const got = await read(file(parts));
    expect(got.rows).toEqual([['José']]);
  });

  it('lists worksheets only, in workbook order, with hidden ones marked', async () => {
    const f = file(
      xlsxParts([{ name: 'Cover', rows: [['Title']] }, { name: 'Secret', rows: [], hidden: true }, LIST], {
        chartSheet: true,
      }),
    );
    const r = await XlsxReader.open(f, 'book.xlsx');
    expect(r.sheets.map((s) => [s.name, s.hidden])).toEqual([
      ['Cover', false],
      ['Secret', true],
      ['Leads', false],
    ]);
    r.close();
  });
});

describe('XlsxReader: bounds', () => {
  const refused = async (f: string, message: RegExp, caps: FileCaps = FILE_CAPS, status = 413) => {
    const err = await read(f, undefined, caps).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(FileRefused);
    expect((err as FileRefused).message).toMatch(message);
    expect((err as FileRefused).status).toBe(status);
  };

  it('a value beyond column 500, a cell over 32,767 characters, too many rows', async () => {
    const wide = Array.from({ length: 501 }, (_, i) => `c${i}`);
    await refused(file(xlsxParts([{ name: 'W', rows: [wide] }])), /cell SG1 is beyond the 500 columns/, FILE_CAPS, 422);
    // Empty cells far right (formatting only) are no reason to refuse.
    const styled = xlsxParts([{ name: 'W', rows: [['a', { xml: '<c r="XFD1" s="1"/>' }]] }]);
    expect((await read(file(styled))).rows).toEqual([['a']]);
    await refused(
      file(xlsxParts([{ name: 'L', rows: [['x'.repeat(32_768)]] }], { strings: 'inline' })),
      /cell A1 holds more than 32,767 characters/,
    );
    await refused(file(xlsxParts([{ name: 'L', rows: [['x'.repeat(32_768)]] }])), /longer than 32,767 characters/);
    const many = { name: 'R', rows: Array.from({ length: 12 }, (_, i) => [`r${i}`]) };
    await refused(file(xlsxParts([many])), /more than 10 rows/, { ...FILE_CAPS, rows: 10 });
  });

  it('shared strings: count and total text', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => [`text ${i}`]);
    const f = file(xlsxParts([{ name: 'S', rows }]));
    await refused(f, /more than 20 distinct texts/, { ...FILE_CAPS, sharedStrings: 20 });
    await refused(f, /add up to more than 0 MB/, { ...FILE_CAPS, sharedStringsText: 100 });
  });

  it('parts over their cap and ZIP bombs are refused before they are inflated', async () => {
    const padded = (name: string, mb: number) => {
      const parts = xlsxParts([LIST]);
      const part = parts.find((p) => p.name === name)!;
      const xml = String(part.data);
      const at = xml.indexOf('?>') + 2;
      part.data = undefined;
      part.repeat = { head: xml.slice(0, at), unit: ' '.repeat(1 << 20), times: mb, tail: xml.slice(at) };
      return file(parts);
    };
    await refused(padded('xl/workbook.xml', 17), /xl\/workbook.xml unpacks to more than 16 MB/);
    // How fast the refusal comes is measured in bench/hostile-files.ts: a test that times itself fails on a busy machine.
    await refused(
      padded('xl/worksheets/sheet1.xml', 64),
      /Sheet 'Leads' would unpack from .* to 64 MB: refused as a ZIP bomb/,
    );
  });

  it('a lying size header, a DOCTYPE, a file that is no workbook', async () => {
    const parts = xlsxParts([LIST]);
    parts.find((p) => p.name === 'xl/worksheets/sheet1.xml')!.declaredSize = 10;
    await refused(file(parts), /Sheet 'Leads' cannot be unpacked: the archive is damaged/, FILE_CAPS, 422);
    const dtd = xlsxParts([LIST]);
    dtd.find((p) => p.name === 'xl/workbook.xml')!.data =
      '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><workbook><sheets><sheet name="&lol;" r:id="rId1"/></sheets></workbook>';
    await refused(file(dtd), /document type declaration/, FILE_CAPS, 422);
    await refused(file([{ name: 'a.txt', data: 'hello' }]), /has no workbook part/, FILE_CAPS, 422);
    const notZip = path.join(dir, 'not.xlsx');
    fs.writeFileSync(notZip, 'First,Last\n');
    await refused(notZip, /is not a readable ZIP archive/, FILE_CAPS, 422);
    await refused(
      file(Array.from({ length: 12 }, (_, i) => ({ name: `f${i}`, data: 'x' }))),
      /holds 12 entries; at most 10/,
      {
        ...FILE_CAPS,
        zipEntries: 10,
      },
    );
  });
});

describe('helpers', () => {
  it('knows date formats from number formats', () => {
    expect(isDateFormat(14, undefined)).toBe(true);
    expect(isDateFormat(0, undefined)).toBe(false);
    expect(isDateFormat(164, 'yyyy\\-mm\\-dd')).toBe(true);
    expect(isDateFormat(165, '[$-409]mmmm d", "yyyy;@')).toBe(true);
    expect(isDateFormat(166, '"Day "0')).toBe(false);
    expect(isDateFormat(167, '[Red]0.00')).toBe(false);
    expect(isDateFormat(168, 'h:mm AM/PM')).toBe(false);
  });
  it('column references', () => {
    expect([columnIndex('A1'), columnIndex('Z9'), columnIndex('AA1'), columnIndex('XFD1'), columnIndex('1')]).toEqual([
      0, 25, 26, 16_383, -1,
    ]);
  });
});
