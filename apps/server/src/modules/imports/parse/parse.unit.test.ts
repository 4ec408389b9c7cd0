import path from 'node:path';
import type { ImportField } from '@harbor/shared';
import { describe, expect, it } from 'vitest';
import { neutralize } from '../../../platform/files/formula-safe.js';
import { FILE_CAPS } from '../../../platform/files/limits.js';
import { FileRefused } from './detect.js';
import { inferMapping } from './fields.js';
import { excelSerialToIso, footerReason, normalizeDate, normalizeState, stageRow } from './normalize.js';
import { inspectFile, peekRows, readRows } from './read.js';

const fx = (name: string) => path.join(import.meta.dirname, '../fixtures', name);

async function all(name: string, sheet?: string) {
  const info = await inspectFile(fx(name), name, sheet);
  const rows: string[][] = [];
  for await (const r of readRows(fx(name), info)) rows.push(r);
  return { info, rows };
}

const ADA = ['Ada', 'Lovelace', 'ada@example.com', '(555) 201-0001', '03/15/1950', 'California', '90210'];

describe('reading the files people have', () => {
  for (const name of ['utf8.csv', 'utf8-bom.csv', 'utf16le.csv', 'utf16be.csv', 'semicolon.csv', 'tab.tsv']) {
    it(`reads ${name}`, async () => {
      const { rows } = await all(name);
      expect(rows[0]).toEqual(['First Name', 'Last Name', 'Email', 'Phone Number', 'DOB', 'State', 'Zip Code']);
      expect(rows[1]).toEqual(ADA);
      expect(rows).toHaveLength(4);
    });
  }

  it('decodes Windows-1252', async () => {
    const { info, rows } = await all('windows-1252.csv');
    expect(info.encoding).toBe('win1252');
    expect(rows[1].slice(0, 2)).toEqual(['José', 'Muñoz']);
  });

  it('keeps delimiters, quotes and newlines inside quoted fields', async () => {
    const { rows } = await all('quoted-newlines.csv');
    expect(rows[1][4]).toBe('12 Main St, Apt 4');
    expect(rows[2][4]).toBe('Building 7\nFloor 2, "Navy" Yard');
  });

  it('accepts ragged rows and skips blank lines', async () => {
    expect((await all('ragged.csv')).rows.map((r) => r.length)).toEqual([7, 4, 9]);
    expect((await all('blank-lines.csv')).rows).toHaveLength(4);
  });

  it('refuses empty and header-only files with a clear message', async () => {
    await expect(inspectFile(fx('empty.csv'), 'empty.csv')).rejects.toThrow('empty.csv is empty');
    const info = await inspectFile(fx('header-only.csv'), 'header-only.csv');
    await expect(peekRows(fx('header-only.csv'), info, 'header-only.csv')).rejects.toThrow('no data rows');
  });

  it('refuses a file that is not what its name says', async () => {
    await expect(inspectFile(fx('not-really.xlsx'), 'not-really.xlsx')).rejects.toThrow(FileRefused);
    await expect(inspectFile(fx('not-really.csv'), 'not-really.csv')).rejects.toThrow('not a CSV');
    await expect(inspectFile(fx('picture.csv'), 'picture.csv')).rejects.toThrow('PDF');
    await expect(inspectFile(fx('utf8.csv'), 'list.pdf')).rejects.toThrow('only CSV and XLSX');
  });

  it('lists the sheets of a workbook and reads the one picked, dates as text or serial numbers', async () => {
    const { info, rows } = await all('multi-sheet.xlsx', 'Leads');
    expect(info.sheets).toEqual(['Notes', 'Leads', 'Empty']);
    expect(rows).toHaveLength(4);
    expect(rows[1].slice(0, 6)).toEqual(['Ada', 'Lovelace', 'ada@example.com', '5552010001', '1950-03-15', '18264']);
    expect(rows[3][4]).toBe('17878');
    // Asked for no sheet: the cover page ("Notes", one line) is passed over for the first sheet holding a list.
    const first = await all('multi-sheet.xlsx');
    expect(first.info.sheet).toBe('Leads');
    expect(first.rows).toHaveLength(4);
    expect((await all('multi-sheet.xlsx', 'Notes')).rows).toEqual([['This sheet explains the list']]);
    await expect(inspectFile(fx('multi-sheet.xlsx'), 'multi-sheet.xlsx', 'Nope')).rejects.toThrow(
      "no sheet named 'Nope'",
    );
  });
});

describe('normalising cells', () => {
  it('dates', () => {
    expect(normalizeDate('03/15/1950')).toBe('1950-03-15');
    expect(normalizeDate('1951-07-04')).toBe('1951-07-04');
    expect(normalizeDate('12/01/49')).toBe('1949-12-01');
    expect(normalizeDate('Mar 5, 1950')).toBe('1950-03-05');
    expect(normalizeDate('5 March 1950')).toBe('1950-03-05');
    expect(normalizeDate('18264')).toBe('1950-01-01');
    expect(excelSerialToIso(42370)).toBe('2016-01-01');
    expect(normalizeDate('31/31/1950')).toBeNull();
    expect(normalizeDate('02/30/1950')).toBeNull();
  });
  it('states', () => {
    expect(normalizeState('California')).toBe('CA');
    expect(normalizeState('tx')).toBe('TX');
    expect(normalizeState('new  york')).toBe('NY');
    expect(normalizeState('Atlantis')).toBeNull();
  });
  it('formulas are neutralised for export, numbers are not; imports keep what was typed', () => {
    const staged = stageRow(
      ['=HYPERLINK("x")', '@SUM(A1)', '+1 555'],
      ['A', 'B', 'C'],
      ['first_name', 'last_name', 'extra'],
    );
    expect(staged.values).toMatchObject({ first_name: '=HYPERLINK("x")', last_name: '@SUM(A1)' });
    expect(staged.extra).toEqual({ C: '+1 555' });
    expect(neutralize('=HYPERLINK("x")')).toBe(`'=HYPERLINK("x")`);
    expect(neutralize('@SUM(A1)')).toBe(`'@SUM(A1)`);
    expect(neutralize('-42')).toBe('-42');
    expect(neutralize('+1 555')).toBe(`'+1 555`);
  });
  it('phones in every common format become 11 digits', async () => {
    const { rows } = await all('phones.csv');
    const staged = rows.slice(1).map((r) => stageRow(r, rows[0], ['full_name', 'phone']));
    expect(staged.slice(0, 7).map((s) => s.values.phone)).toEqual([
      '15553010001',
      '15553010002',
      '15553010003',
      '15553010004',
      '15553010005',
      '15553010006',
      '15553010007',
    ]);
    expect(staged[7].reasons).toEqual(["Phone '301-0008' is not a US phone number"]);
    expect(staged[0].values).toMatchObject({ first_name: 'P', last_name: 'One' });
  });
  it('a row gets every reason it cannot be imported', () => {
    const headers = ['Email', 'State', 'DOB', 'Zip'];
    const fields: ImportField[] = ['email', 'state', 'date_of_birth', 'zip'];
    expect(stageRow(['x@', 'Atlantis', '31/31/1950', '9'], headers, fields).reasons).toHaveLength(4);
    expect(stageRow(['', '', '', '90210'], headers, fields).reasons).toEqual([
      'The row needs a name, a phone or an email',
    ]);
  });
  it('footer rows are skipped with the reason, people are not', () => {
    const fields: ImportField[] = ['full_name', 'phone', 'extra', 'zip'];
    const h = ['Name', 'Phone', 'Premium', 'Zip'];
    const skip = (cells: string[]) => stageRow(cells, h, fields).skip;
    expect(skip(['Total', '', '1,234.50', ''])).toBe("Footer row ('Total'), not a contact");
    expect(skip(['Totals:', '', '', ''])).toBe("Footer row ('Totals:'), not a contact");
    expect(skip(['', 'Grand total', '$ 99', ''])).toBe("Footer row ('Grand total'), not a contact");
    expect(skip(['Count: 45', '', '', ''])).toBe("Footer row ('Count: 45'), not a contact");
    expect(skip(['', '', '4,503.20', ''])).toBe('Footer row (only numbers, such as a sum), not a contact');
    // People, and rows that are merely incomplete, are not footers.
    expect(skip(['Total Wellness', '5552010001', '', ''])).toBeNull();
    expect(skip(['Total', 'Smith', '', ''])).toBeNull();
    expect(skip(['', '', '', '90210'])).toBeNull();
    expect(footerReason(['Ada Lovelace'], ['full_name'], {})).toBeNull();
  });
  it('rows over a cap are refused naming the row', async () => {
    const { checkRow } = await import('./read.js');
    expect(() => checkRow({ row: 7, cells: Array(501).fill('x') }, FILE_CAPS)).toThrow(
      'Row 7 has 501 columns; a list can have at most 500',
    );
    expect(() => checkRow({ row: 7, cells: [...Array(600).fill('')] }, FILE_CAPS)).not.toThrow();
    expect(() => checkRow({ row: 8, cells: ['a', 'x'.repeat(32_768)] }, FILE_CAPS)).toThrow(
      'Row 8, column 2 holds more than 32,767 characters',
    );
    expect(() => checkRow({ row: 9, cells: ['a\u0000b'] }, FILE_CAPS)).toThrow('Row 9 holds a NUL byte');
  });
});

describe('mapping inference', () => {
  it('by header synonyms', () => {
    const cols = inferMapping(
      ['fname', 'Surname', 'Cell', 'DOB', 'Zip Code', 'E-Mail Address', 'Favourite colour'],
      [],
    );
    expect(cols.map((c) => c.field)).toEqual([
      'first_name',
      'last_name',
      'phone',
      'date_of_birth',
      'zip',
      'email',
      'extra',
    ]);
  });
  it('by content, and the form wins', () => {
    const rows = [
      ['a@b.co', '555-201-0001', '03/15/1950', 'TX', 'x'],
      ['c@d.co', '(555) 201-0002', '1950-01-01', 'CA', 'y'],
    ];
    const cols = inferMapping(['A', 'B', 'C', 'D', 'E'], rows, { E: 'ignore' });
    expect(cols.map((c) => [c.field, c.matched_by])).toEqual([
      ['email', 'content'],
      ['phone', 'content'],
      ['date_of_birth', 'content'],
      ['state', 'content'],
      ['ignore', 'form'],
    ]);
  });
  it('a second phone column becomes the secondary phone', () => {
    expect(inferMapping(['Phone', 'Cell'], []).map((c) => c.field)).toEqual(['phone', 'secondary_phone']);
  });
});
