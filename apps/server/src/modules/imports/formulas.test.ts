/**
 * Formula-looking text (docs/decisions/formula-neutralisation-on-export.md): stored and shown as the person typed it,
 * by an import and by the contact form alike, and neutralised when it leaves for a spreadsheet. The data migration
 * takes off the quote the old imports added, and only that one.
 */
import fs from 'node:fs';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { fx, testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let agent: Client;
const dataDir = testDataDir();
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  agent = await signIn(t.app, DEMO('agent'));
});
afterAll(() => t.close());

const FORMULA = '=HYPERLINK("http://evil.test")';

describe('formula-looking text', () => {
  it('is stored and shown as typed by an import and by the contact form, and neutralised in both exports', async () => {
    const res = await upload(agent, '/v1/contacts/import', fx('formulas.csv'));
    expect(res.status).toBe(202);
    await t.deps.jobs.drain();
    const [imported] = await q("select id, number, first_name, extra from contacts where phone = '15552010020'");
    expect(imported.first_name).toBe(FORMULA);
    expect(imported.extra).toEqual({ Notes: '@SUM(A1:A2)' });
    expect((await agent.get(`/v1/contacts/${imported.number}`)).body.first_name).toBe(FORMULA);

    const typed = await newContact(agent, { first_name: '+SUM(1)', last_name: '-Lovelace' });
    expect(typed.first_name).toBe('+SUM(1)');
    const edited = await agent.patch(`/v1/contacts/${typed.number}`, { last_name: '@Lovelace' });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    const [row] = await q('select first_name, last_name from contacts where id = $1', [typed.id]);
    expect(row).toEqual({ first_name: '+SUM(1)', last_name: '@Lovelace' });

    const ids = [Number(imported.id), typed.id];
    const csv = await agent.request('PATCH', '/v1/export.csv', { ids });
    expect(csv.status).toBe(200);
    expect(csv.body).toContain(`"'=HYPERLINK(""http://evil.test"")"`);
    expect(csv.body).toContain("'+SUM(1)");
    expect(csv.body).toContain("'@Lovelace");
    expect(csv.body).not.toMatch(/(^|,)[=+@]/m);

    const xlsx = await t.app.inject({
      method: 'PATCH',
      url: '/v1/export.xlsx',
      headers: {
        cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': agent.cookies.get('csrf_token') ?? '',
      },
      payload: { ids },
    });
    expect(xlsx.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const names = wb.worksheets[0].getColumn(2).values.slice(2).map(String);
    expect(names.sort()).toEqual([`'+SUM(1)`, `'${FORMULA}`]);
  });

  it('the migration takes off only the quote an old import added', async () => {
    const migration = fs
      .readdirSync(path.join(import.meta.dirname, '../../../drizzle'))
      .find((f) => f.endsWith('_storage_ledger_backfill_and_unquote.sql'))!;
    const statements = fs
      .readFileSync(path.join(import.meta.dirname, '../../../drizzle', migration), 'utf8')
      .split('--> statement-breakpoint')
      .filter((s) => /UPDATE (contacts|tags)/.test(s));
    const viaImport = await newContact(agent, { first_name: "'=HYPERLINK(1)", last_name: "'-42", city: "'@home" });
    await q(`update contacts set extra = $2::jsonb, address = $3 where id = $1`, [
      viaImport.id,
      JSON.stringify({ Notes: "'+1 555", Plain: "'quoted on purpose", n: 5 }),
      `'\tTabbed`,
    ]);
    await q(
      `insert into contact_events (company_id, contact_id, kind, data) select company_id, id, 'imported', '{}' from contacts where id = $1`,
      [viaImport.id],
    );
    // Typed in the form (no import ever touched it): left alone.
    const typed = await newContact(agent, { first_name: "'=typed", last_name: 'Person' });
    for (const s of statements) await q(s);
    const [a] = await q('select first_name, last_name, city, address, extra from contacts where id = $1', [
      viaImport.id,
    ]);
    expect(a).toEqual({
      first_name: '=HYPERLINK(1)',
      last_name: "'-42",
      city: '@home',
      address: '\tTabbed',
      extra: { Notes: '+1 555', Plain: "'quoted on purpose", n: 5 },
    });
    const [b] = await q('select first_name from contacts where id = $1', [typed.id]);
    expect(b.first_name).toBe("'=typed");
  });
});
