/**
 * Every valid workbook imports (issue 8): real LibreOffice files, exceljs's, and each producer style the reader
 * knows (shared or inline strings, parts in any order, absolute or relative targets, prefixed elements, 1904 dates),
 * through the wizard's own route. A cover page first offers the list sheet; a "Total" row is skipped with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { type SheetSpec, type XlsxStyle, xlsxParts } from '../../platform/files/test-xlsx.js';
import { zipBuffer } from '../../platform/files/test-zip.js';
import { fx, testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let agent: Client;
const dataDir = testDataDir();

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

const preview = (name: string, data: Buffer, fields: Record<string, unknown> = {}) =>
  upload(agent, '/v1/contacts/validate_import', { name, data }, fields);

describe('workbooks people really have', () => {
  it('LibreOffice: real dates, and the Total row skipped with its reason', async () => {
    const res = await upload(agent, '/v1/contacts/validate_import', fx('libreoffice-dates.xlsx'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ row_count: 4, to_create: 3, to_skip: 1, invalid_count: 0 });
    expect(res.body.skipped_rows).toEqual([
      { row: 5, reasons: ["Footer row ('Total'), not a contact"], values: ['Total', '', '', '', '', '', '299.5'] },
    ]);
    const dob = res.body.columns.find((c: any) => c.header === 'DOB');
    expect(dob).toMatchObject({ field: 'date_of_birth', samples: ['1950-03-15', '1951-07-04', '1949-12-01'] });
    const run = await upload(agent, '/v1/contacts/import', fx('libreoffice-dates.xlsx'));
    expect(run.status).toBe(202);
    await t.deps.jobs.drain();
    const [a] = await t.database.query<{ created: number; skipped: number }>(
      'select created, skipped from import_attempts where id = (select max(id) from import_attempts where number = $1)',
      [run.body.id],
    );
    expect(a).toEqual({ created: 3, skipped: 1 });
    expect((await t.database.query("select count(*)::int n from contacts where first_name = 'Total'"))[0]).toEqual({
      n: 0,
    });
  });

  it('a cover page first: the list sheet is offered and picked, its footer skipped', async () => {
    const res = await upload(agent, '/v1/contacts/validate_import', fx('libreoffice-cover.xlsx'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      sheets: ['Cover', 'Leads'],
      sheet: 'Leads',
      row_count: 3,
      to_create: 2,
      to_skip: 1,
    });
    // Picking the cover page says so and names the sheet; the picker has what it needs to go back.
    const cover = await upload(agent, '/v1/contacts/validate_import', fx('libreoffice-cover.xlsx'), { sheet: 'Cover' });
    expect(cover.status).toBe(422);
    expect(cover.body.errors.file).toEqual([
      "Sheet 'Cover' of libreoffice-cover.xlsx holds no list (no rows under a header): pick the sheet the list is on",
    ]);
    const exceljs = await upload(agent, '/v1/contacts/validate_import', fx('multi-sheet.xlsx'));
    expect(exceljs.body).toMatchObject({ sheet: 'Leads', row_count: 3 });
  });

  const LIST: SheetSpec = {
    name: 'Clients',
    rows: [
      ['First Name', 'Last Name', 'Phone', 'Birth Date'],
      ['Lena', 'Park', 5557030001, { date: 18337 }],
      ['Omar', 'Reyes', '(555) 703-0002', { iso: '1951-07-04T00:00:00Z' }],
      ['Totals', null, null, null],
    ],
  };
  const STYLES: Array<[string, Partial<XlsxStyle>]> = [
    ['Excel', {}],
    ['Google Sheets / openpyxl (absolute targets)', { targets: 'absolute' }],
    ['a streaming writer (inline strings, no references)', { strings: 'inline', refs: false }],
    ['the OpenXML SDK (prefixed elements)', { prefix: 'x:' }],
    ['parts in another order (was refused)', { order: 'reversed' }],
    ['sheets before the workbook (was "Cannot read properties of undefined")', { order: 'sheets-first' }],
    ['a chart sheet first', { chartSheet: true }],
  ];
  for (const [label, style] of STYLES) {
    it(label, async () => {
      const res = await preview('clients.xlsx', zipBuffer(xlsxParts([LIST], style)));
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject({ sheet: 'Clients', row_count: 3, to_create: 2, to_skip: 1, invalid_count: 0 });
      const dob = res.body.columns.find((c: any) => c.header === 'Birth Date');
      expect(dob.samples).toEqual(['1950-03-15', '1951-07-04']);
    });
  }

  it('the 1904 date system', async () => {
    const res = await preview('mac.xlsx', zipBuffer(xlsxParts([LIST], { date1904: true })));
    expect(res.body.columns.find((c: any) => c.header === 'Birth Date').samples[0]).toBe('1954-03-16');
  });
});
