import fs from 'node:fs';
import path from 'node:path';
import { xlsxParts } from '../../platform/files/test-xlsx.js';
import { writeZip, type ZipPart, zipBuffer } from '../../platform/files/test-zip.js';

export interface HostileCase {
  name: string;
  /** The file's name as uploaded. */
  file: string;
  route: string;
  status: number;
  message: RegExp;
  /** Writes the file under `dir` and answers its path. */
  make(dir: string): string;
}

const MB = 1 << 20;
const HEADER = 'First Name,Last Name,Email,Phone\n';
const row = (i: number) => `Person${i},Family${i},p${i}@example.com,555${String(2010000 + i).padStart(7, '0')}\n`;
/** Plain rows until the text passes `bytes`, and how many rows that was. */
const rowsPast = (bytes: number) => {
  let s = HEADER;
  let i = 0;
  while (s.length < bytes) s += row(i++);
  return { text: s, rows: i };
};

const write = (dir: string, name: string, data: Buffer | string) => {
  const f = path.join(dir, name);
  fs.writeFileSync(f, data);
  return f;
};
const zipTo = (dir: string, name: string, parts: ZipPart[]) => {
  const f = path.join(dir, name);
  writeZip(f, parts);
  return f;
};

/** A workbook whose part `part` is padded (after the XML declaration) to `mb` megabytes of spaces or of `unit`. */
function padded(
  dir: string,
  name: string,
  part: string,
  mb: number,
  unit: string | Buffer = ' '.repeat(MB),
  tail?: string,
) {
  const parts = xlsxParts([
    {
      name: 'Leads',
      rows: [
        ['First Name', 'Phone'],
        ['Ada', '5552010001'],
      ],
    },
  ]);
  const p = parts.find((x) => x.name === part)!;
  const xml = String(p.data);
  const at = xml.indexOf('?>') + 2;
  p.data = undefined;
  p.repeat = { head: xml.slice(0, at), unit, times: mb, tail: tail ?? xml.slice(at) };
  return zipTo(dir, name, parts);
}

const V = '/v1/contacts/validate_import';
/** 70 KB of good rows: past the 64 KB the encoding and text checks look at. */
const PAST_HEAD = rowsPast(70 * 1024);
/** The line of the first row after them (the header is line 1). */
const AFTER = PAST_HEAD.rows + 2;

export const HOSTILE: HostileCase[] = [
  {
    name: 'a CSV with a NUL byte after the first 64 KB',
    file: 'nul.csv',
    route: V,
    status: 422,
    message: new RegExp(`^Row ${AFTER} holds a NUL byte`),
    make: (dir) =>
      write(dir, 'nul.csv', `${PAST_HEAD.text}Bad\u0000Row,Person,bad@example.com,5552019999\n${row(99_999)}`),
  },
  {
    name: 'a CSV that turns out not to be UTF-8 after 64 KB',
    file: 'broken-utf8.csv',
    route: V,
    status: 422,
    message: new RegExp(`^broken-utf8.csv is not valid UTF-8 text at line ${AFTER}: save it again as "CSV UTF-8"`),
    make: (dir) =>
      write(
        dir,
        'broken-utf8.csv',
        Buffer.concat([
          Buffer.from(`${PAST_HEAD.text}José,`),
          Buffer.from([0xc3, 0x28]),
          Buffer.from(',x@example.com,\n'),
        ]),
      ),
  },
  {
    name: 'a UTF-16 CSV cut in the middle of a character',
    file: 'broken-utf16.csv',
    route: V,
    status: 422,
    message: /^broken-utf16.csv is not valid UTF-16 text/,
    make: (dir) =>
      write(
        dir,
        'broken-utf16.csv',
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEADER}${row(1)}`, 'utf16le'), Buffer.from([0x41])]),
      ),
  },
  {
    name: 'a CSV with an unclosed quote',
    file: 'quote.csv',
    route: V,
    status: 422,
    message: /^Row 3 of quote.csv opens a quoted cell \("\) that is never closed$/,
    make: (dir) => write(dir, 'quote.csv', `${HEADER}${row(1)}Grace,"Hopper,grace@example.com,5552010002\n${row(3)}`),
  },
  {
    name: 'a CSV with an unclosed quote and 6 MB after it',
    file: 'quote-long.csv',
    route: V,
    status: 422,
    message: /^Row 2 of quote-long.csv is too long to be a row of a list/,
    make: (dir) => write(dir, 'quote-long.csv', `${HEADER}Ada,"Lovelace,${'x'.repeat(6 * MB)}\n`),
  },
  {
    name: 'a CSV of 2,000 columns',
    file: 'wide.csv',
    route: V,
    status: 422,
    message: /^Row 1 has 2000 columns; a list can have at most 500$/,
    make: (dir) =>
      write(dir, 'wide.csv', `${Array.from({ length: 2000 }, (_, i) => `c${i}`).join(',')}\n${'1,'.repeat(1999)}1\n`),
  },
  {
    name: 'a CSV with a cell of 32 KB',
    file: 'long-cell.csv',
    route: V,
    status: 413,
    message: /^Row 2, column 1 holds more than 32,767 characters$/,
    make: (dir) =>
      write(dir, 'long-cell.csv', `${HEADER}${'x'.repeat(32 * 1024)},Lovelace,ada@example.com,5552010001\n`),
  },
  {
    name: 'an XLSX of 2,000 columns',
    file: 'wide.xlsx',
    route: V,
    status: 422,
    message: /^Sheet 'Wide', cell SG1 is beyond the 500 columns a list can have$/,
    make: (dir) =>
      zipTo(dir, 'wide.xlsx', xlsxParts([{ name: 'Wide', rows: [Array.from({ length: 2000 }, (_, i) => `c${i}`)] }])),
  },
  {
    name: 'an XLSX with a cell of 32 KB (inline string)',
    file: 'long-cell.xlsx',
    route: V,
    status: 413,
    message: /^Sheet 'Leads', cell A2 holds more than 32,767 characters$/,
    make: (dir) =>
      zipTo(
        dir,
        'long-cell.xlsx',
        xlsxParts([{ name: 'Leads', rows: [['Name'], ['x'.repeat(32 * 1024)]] }], { strings: 'inline' }),
      ),
  },
  {
    name: 'an XLSX whose workbook.xml is padded to 1 GB (the 1 MB file that crashed the server)',
    file: 'padded-workbook.xlsx',
    route: V,
    status: 413,
    message: /^xl\/workbook.xml unpacks to more than 16 MB, the most that is read$/,
    make: (dir) => padded(dir, 'padded-workbook.xlsx', 'xl/workbook.xml', 1024),
  },
  {
    name: 'an XLSX with 40 million shared strings in 1.7 MB',
    file: 'strings.xlsx',
    route: V,
    status: 413,
    message: /^xl\/sharedStrings.xml unpacks to more than 512 MB, the most that is read$/,
    make: (dir) =>
      padded(dir, 'strings.xlsx', 'xl/sharedStrings.xml', 610, '<si><t>a</t></si>'.repeat(65_536), '<sst></sst>'),
  },
  {
    name: 'an XLSX with one cell of 500 MB in 0.5 MB',
    file: 'cell.xlsx',
    route: V,
    status: 413,
    message: /^Sheet 'Leads' would unpack from .* to 500 MB: refused as a ZIP bomb$/,
    make: (dir) => {
      const parts = xlsxParts([{ name: 'Leads', rows: [] }], { strings: 'inline' });
      const sheet = parts.find((p) => p.name === 'xl/worksheets/sheet1.xml')!;
      sheet.data = undefined;
      sheet.repeat = {
        head: '<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>',
        unit: 'x'.repeat(MB),
        times: 500,
        tail: '</t></is></c></row></sheetData></worksheet>',
      };
      return zipTo(dir, 'cell.xlsx', parts);
    },
  },
  {
    name: 'an XLSX cell of 4 MB of noise (no ZIP bomb: it is stopped by the cell cap)',
    file: 'cell-noise.xlsx',
    route: V,
    status: 413,
    message: /^Sheet 'Leads', cell A1 holds more than 32,767 characters$/,
    make: (dir) => {
      const parts = xlsxParts([{ name: 'Leads', rows: [] }], { strings: 'inline' });
      const sheet = parts.find((p) => p.name === 'xl/worksheets/sheet1.xml')!;
      let noise = '';
      for (let i = 0; noise.length < 20 * MB; i++) noise += ((i * 2654435761) >>> 0).toString(36);
      sheet.data = `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${noise}</t></is></c></row></sheetData></worksheet>`;
      return zipTo(dir, 'cell-noise.xlsx', parts);
    },
  },
  {
    name: 'an XLSX holding another workbook (a nested archive)',
    file: 'nested.xlsx',
    route: V,
    status: 422,
    message: /^nested.xlsx is not an Excel workbook \(it has no workbook part\)$/,
    make: (dir) =>
      zipTo(dir, 'nested.xlsx', [
        {
          name: 'inner.xlsx',
          data: zipBuffer(
            xlsxParts([
              {
                name: 'S',
                rows: [
                  ['a', 'b'],
                  ['1', '2'],
                ],
              },
            ]),
          ),
        },
      ]),
  },
  {
    name: 'an XLSX of 10,001 entries',
    file: 'entries.xlsx',
    route: V,
    status: 413,
    message: /^entries.xlsx holds 10,001 entries; at most 10,000 can be read$/,
    make: (dir) =>
      zipTo(
        dir,
        'entries.xlsx',
        Array.from({ length: 10_001 }, (_, i) => ({ name: `e/${i}`, data: '', store: true })),
      ),
  },
  {
    name: 'an XLSX whose sheet claims a smaller size than it unpacks to',
    file: 'liar.xlsx',
    route: V,
    status: 422,
    message: /^Sheet 'Leads' cannot be unpacked: the archive is damaged/,
    make: (dir) => {
      const parts = xlsxParts([
        {
          name: 'Leads',
          rows: [
            ['First Name', 'Phone'],
            ['Ada', '5552010001'],
          ],
        },
      ]);
      parts.find((p) => p.name === 'xl/worksheets/sheet1.xml')!.declaredSize = 20;
      return zipTo(dir, 'liar.xlsx', parts);
    },
  },
  {
    name: 'an XLSX with an entity-expansion bomb (billion laughs)',
    file: 'laughs.xlsx',
    route: V,
    status: 422,
    message: /document type declaration/,
    make: (dir) => {
      const parts = xlsxParts([
        {
          name: 'Leads',
          rows: [
            ['First Name', 'Phone'],
            ['Ada', '5552010001'],
          ],
        },
      ]);
      const lol = Array.from({ length: 9 }, (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`).join('');
      parts.find((p) => p.name === 'xl/sharedStrings.xml')!.data =
        `<?xml version="1.0"?><!DOCTYPE sst [<!ENTITY l0 "lol">${lol}]><sst><si><t>&l9;</t></si></sst>`;
      return zipTo(dir, 'laughs.xlsx', parts);
    },
  },
  {
    name: 'a ZIP of attachments that are nested archives',
    file: 'nested.zip',
    route: '/v1/contacts/import_attachments',
    status: 422,
    message: /^nested.zip holds no file that can be attached: .* is not a kind of file a contact can hold/,
    make: (dir) =>
      zipTo(dir, 'nested.zip', [
        {
          name: '100001.zip',
          data: zipBuffer([{ name: 'inner.zip', data: zipBuffer([{ name: 'a.pdf', data: '%PDF' }]) }]),
        },
      ]),
  },
  {
    name: 'a ZIP bomb of attachments (20 x 49 MB of zeros)',
    file: 'zeros.zip',
    route: '/v1/contacts/import_attachments',
    status: 422,
    message: /is 49 MB unpacked; a contact file can be at most 25 MB/,
    make: (dir) =>
      zipTo(
        dir,
        'zeros.zip',
        Array.from({ length: 20 }, (_, i) => ({
          name: `10000${i}.pdf`,
          repeat: { unit: Buffer.alloc(MB), times: 49 },
        })),
      ),
  },
  {
    name: 'a ZIP of attachments with 10,001 entries',
    file: 'many.zip',
    route: '/v1/contacts/import_attachments',
    status: 413,
    message: /^many.zip holds 10,001 entries; at most 10,000 can be read$/,
    make: (dir) =>
      zipTo(
        dir,
        'many.zip',
        Array.from({ length: 10_001 }, (_, i) => ({ name: `f${i}.txt`, data: 'x', store: true })),
      ),
  },
  {
    name: 'a ZIP whose list is inside another ZIP',
    file: 'list-nested.zip',
    route: '/v1/contacts/attachments_leads_uploader',
    status: 422,
    message: /^list-nested.zip holds no CSV or XLSX list of contacts$/,
    make: (dir) =>
      zipTo(dir, 'list-nested.zip', [
        { name: 'inner.zip', data: zipBuffer([{ name: 'leads.csv', data: `${HEADER}${row(1)}` }]) },
      ]),
  },
];
