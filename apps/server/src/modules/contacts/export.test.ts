/**
 * Issue 8, exports as Excel users open them: a UTF-8 byte-order mark ("José" survives), phones as text, the rows in
 * the order on screen, labels rather than stored codes. Runs on PGlite (keyset batches) and, with
 * TEST_DATABASE_URL, on the PostgreSQL server (one COPY).
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from './test-helpers.js';

let t: TestApp;
let agent: Client;
const ids: number[] = [];

beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
  const people: Array<Record<string, unknown>> = [
    { first_name: 'José', last_name: 'Muñoz', phone: '(305) 892-0000', category: 'final_expense', type: 'client' },
    { first_name: 'Ann', last_name: 'Zeta', phone: '305-892-0001', category: 'Medicare Supplement' },
    { first_name: 'Zoe', last_name: 'Adams', phone: '305-892-0002', category: 'medicare' },
  ];
  for (const p of people) ids.push((await newContact(agent, p)).id);
});
afterAll(() => t.close());

async function exported(format: 'csv' | 'xlsx', body: Record<string, unknown>) {
  const res = await t.app.inject({
    method: 'PATCH',
    url: `/v1/export.${format}`,
    headers: {
      cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'x-csrf-token': agent.cookies.get('csrf_token')!,
    },
    payload: body,
  });
  expect(res.statusCode, res.body).toBe(200);
  return res;
}

const csvRows = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .split(/\r?\n/)
    .map((l) => l.split(','));

describe('PATCH /v1/export.csv', () => {
  it('starts with a byte-order mark, keeps accents, writes phones as text and labels instead of codes', async () => {
    const res = await exported('csv', { ids });
    expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = csvRows(res.body);
    const col = (name: string) => rows[0].indexOf(name);
    const jose = rows.find((r) => r[col('First Name')] === 'José')!;
    expect(jose[col('Last Name')]).toBe('Muñoz');
    expect(jose[col('Phone')]).toBe('1-305-892-0000');
    expect(jose[col('Category')]).toBe('Final expense');
    expect(jose[col('Type')]).toBe('Client');
    // What a person typed stays as typed; a stored code is humanised.
    expect(
      rows
        .map((r) => r[col('Category')])
        .slice(1)
        .sort(),
    ).toEqual(['Final expense', 'Medicare', 'Medicare Supplement']);
  });

  it('lists the rows in the order on screen: the default last name, or the order sent with the ids', async () => {
    const byLast = csvRows((await exported('csv', { ids })).body).slice(1);
    expect(byLast.map((r) => r[2])).toEqual(['Adams', 'Muñoz', 'Zeta']);
    const byFirstDesc = csvRows((await exported('csv', { ids, order: 'DESC', order_field: 'first_name' })).body);
    expect(byFirstDesc.slice(1).map((r) => r[1])).toEqual(['Zoe', 'José', 'Ann']);
    const bad = await agent.request('PATCH', '/v1/export.csv', { ids, order_field: 'password' });
    expect(bad.status).toBe(422);
  });

  it('"all matching" follows its scope\'s order', async () => {
    const res = await exported('csv', {
      all: true,
      contacts_scope: { q: '305892000', order: 'DESC', order_field: 'last_name' },
    });
    const rows = csvRows(res.body).slice(1);
    expect(rows.map((r) => r[2])).toEqual(['Zeta', 'Muñoz', 'Adams']);
  });
});

describe('PATCH /v1/export.xlsx', () => {
  it('writes phones as text cells, in the order on screen, with labels', async () => {
    const res = await exported('xlsx', { ids, order: 'ASC', order_field: 'first_name' });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Contacts')!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = (name: string) => header.indexOf(name) + 1;
    const names = [2, 3, 4].map((i) => sheet.getRow(i).getCell(col('First Name')).value);
    expect(names).toEqual(['Ann', 'José', 'Zoe']);
    const phone = sheet.getRow(3).getCell(col('Phone'));
    expect(phone.value).toBe('1-305-892-0000');
    expect(phone.type).toBe(ExcelJS.ValueType.String);
    expect(sheet.getRow(3).getCell(col('Category')).value).toBe('Final expense');
  });
});
