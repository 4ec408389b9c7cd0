/** The list routes: validate_import, import, leads_uploader, clients_uploader, against every fixture. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { importStream } from './progress.js';
import { fx, testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let agent: Client;
let manager: Client;

const dataDir = testDataDir();

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  admin = await signIn(t.app, DEMO('admin'));
  agent = await signIn(t.app, DEMO('agent'));
  manager = await signIn(t.app, DEMO('manager'));
});
afterAll(() => t.close());

const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const count = async (text: string, params: unknown[] = []) => (await q<{ n: number }>(text, params))[0].n;
const userId = async (email: string) =>
  (await q<{ id: number }>('select id from users where email = $1', [email]))[0].id;

async function importAndWait(client: Client, url: string, file: { name: string; data: Buffer }, fields = {}) {
  const res = await upload(client, url, file, fields);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await t.deps.jobs.drain();
  const [a] = await q(
    'select * from import_attempts where id = (select max(id) from import_attempts where number = $1)',
    [res.body.id],
  );
  return a;
}

describe('POST /v1/contacts/validate_import', () => {
  const CASES: Array<[string, Record<string, unknown>, Record<string, number>]> = [
    ['utf8.csv', {}, { row_count: 3, to_create: 3, invalid_count: 0 }],
    ['utf8-bom.csv', {}, { row_count: 3, to_create: 3 }],
    ['utf16le.csv', {}, { row_count: 3, to_create: 3 }],
    ['utf16be.csv', {}, { row_count: 3, to_create: 3 }],
    ['windows-1252.csv', {}, { row_count: 4, to_create: 4 }],
    ['semicolon.csv', {}, { row_count: 3, to_create: 3 }],
    ['tab.tsv', {}, { row_count: 3, to_create: 3 }],
    ['quoted-newlines.csv', {}, { row_count: 2, to_create: 2 }],
    ['ragged.csv', {}, { row_count: 2, to_create: 2 }],
    ['blank-lines.csv', {}, { row_count: 3, to_create: 3 }],
    ['phones.csv', {}, { row_count: 8, to_create: 7, invalid_count: 1 }],
    ['duplicates.csv', {}, { row_count: 6, to_create: 3, duplicates_in_file: 3 }],
    ['invalid.csv', {}, { row_count: 6, to_create: 2, invalid_count: 4 }],
    ['formulas.csv', {}, { row_count: 2, to_create: 2 }],
    ['multi-sheet.xlsx', { sheet: 'Leads' }, { row_count: 3, to_create: 3, invalid_count: 0 }],
  ];
  for (const [name, fields, expected] of CASES) {
    it(`previews ${name}`, async () => {
      const res = await upload(agent, '/v1/contacts/validate_import', fx(name), fields);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(res.body).toMatchObject(expected);
    });
  }

  it('matches columns by header and content, lists sheets, and writes nothing', async () => {
    const before = await count('select count(*)::int n from contacts');
    const res = await upload(agent, '/v1/contacts/validate_import', fx('multi-sheet.xlsx'), {
      sheet: 'Leads',
      fields: { 'Part A': 'part_a_effective' },
    });
    expect(res.body.sheets).toEqual(['Notes', 'Leads', 'Empty']);
    expect(res.body.columns.map((c: any) => [c.header, c.field, c.matched_by])).toEqual([
      ['First Name', 'first_name', 'header'],
      ['Last Name', 'last_name', 'header'],
      ['E-mail', 'email', 'header'],
      ['Cell', 'phone', 'header'],
      ['Birth Date', 'date_of_birth', 'header'],
      ['Part A', 'part_a_effective', 'form'],
      ['St', 'state', 'header'],
    ]);
    expect(await count('select count(*)::int n from contacts')).toBe(before);
    expect(await count('select count(*)::int n from import_rows where attempt_id < 0')).toBe(0);
    expect(await count('select count(*)::int n from import_attempts')).toBe(1);
  });

  it('lists every invalid row with its reasons, and downloads them as CSV', async () => {
    const res = await upload(agent, '/v1/contacts/validate_import', fx('invalid.csv'));
    expect(res.body.invalid.map((r: any) => [r.row, r.reasons])).toEqual([
      [3, ["Email 'not-an-email' is not an email address"]],
      [4, ["State 'Atlantis' is not a US state"]],
      [5, ["Date '31/31/1950' in DOB is not a date"]],
      [6, ['The row needs a name, a phone or an email']],
    ]);
    expect(res.body.invalid[0].values[2]).toBe('not-an-email');
    const csv = await upload(agent, '/v1/contacts/validate_import', fx('invalid.csv'), { format: 'csv' });
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toContain('invalid-invalid.csv');
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toBe('First Name,Last Name,Email,Phone Number,DOB,State,Zip Code,Row,Errors');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain('not-an-email');
  });

  it('scrubs against the existing book', async () => {
    await importAndWait(agent, '/v1/contacts/import', fx('utf8.csv'));
    const res = await upload(agent, '/v1/contacts/validate_import', fx('utf8-bom.csv'), { scrub_against: 'phone' });
    // The same people again: matched, and nothing new to fill in, so nothing would change.
    expect(res.body).toMatchObject({ row_count: 3, to_create: 0, to_update: 0, unchanged: 3, on_match: 'fill' });
    expect(res.body.untouched.map((m: any) => [m.row, m.reason])).toEqual([
      [2, 'The file has nothing new for this contact'],
      [3, 'The file has nothing new for this contact'],
      [4, 'The file has nothing new for this contact'],
    ]);
    const skip = await upload(agent, '/v1/contacts/validate_import', fx('utf8.csv'), {
      scrub_against: { by: ['email'], on_match: 'skip' },
    });
    expect(skip.body).toMatchObject({ to_create: 0, to_update: 0, to_skip: 3 });
  });

  const REFUSED: Array<[string, string]> = [
    ['empty.csv', 'empty.csv is empty'],
    ['header-only.csv', 'header-only.csv has a header row but no data rows'],
    ['not-really.xlsx', 'not-really.xlsx is not a real XLSX file'],
    ['not-really.csv', 'not-really.csv is not a CSV file (it looks like an XLSX or ZIP file)'],
    ['picture.csv', 'picture.csv is not a CSV file (it looks like a PDF)'],
    ['attachments.zip', 'attachments.zip: only CSV and XLSX files can be imported'],
  ];
  for (const [name, message] of REFUSED) {
    it(`refuses ${name} with a clear message`, async () => {
      const res = await upload(agent, '/v1/contacts/validate_import', fx(name));
      expect(res.status).toBe(422);
      expect(res.body.errors.file).toEqual([message]);
    });
  }

  it('refuses bad input in our error shape', async () => {
    const noFile = await upload(agent, '/v1/contacts/validate_import', undefined, { type: 'lead' });
    expect(noFile.body.errors.file).toEqual(['Choose a file to upload']);
    const json = await agent.post('/v1/contacts/validate_import', { file: 'x' });
    expect(json.status).toBe(422);
    expect(json.body.errors.file).toEqual(['Send the file as multipart/form-data']);
    const badTags = await upload(agent, '/v1/contacts/validate_import', fx('utf8.csv'), { tags: '[{"name":' });
    expect(badTags.body.errors.tags).toEqual(['is not valid JSON']);
    const badType = await upload(agent, '/v1/contacts/validate_import', fx('utf8.csv'), { type: 'prospect' });
    expect(badType.status).toBe(422);
    expect(badType.body.errors.type).toBeDefined();
    const badField = await upload(agent, '/v1/contacts/validate_import', fx('utf8.csv'), { fields: { Nope: 'phone' } });
    expect(badField.body.errors.fields).toEqual(["The file has no column 'Nope'"]);
    const badSheet = await upload(agent, '/v1/contacts/validate_import', fx('multi-sheet.xlsx'), { sheet: 'Nope' });
    expect(badSheet.body.errors.file).toEqual(["multi-sheet.xlsx has no sheet named 'Nope'"]);
  });

  it('is denied to basic users and to anyone signed out', async () => {
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await upload(basic, '/v1/contacts/validate_import', fx('utf8.csv'))).status).toBe(403);
    expect((await upload(new Client(t.app), '/v1/contacts/validate_import', fx('utf8.csv'))).status).toBe(401);
  });
});

describe('POST /v1/contacts/import', () => {
  it('says how many rows it has read while a big file is still being read', async () => {
    const me = await userId(DEMO('admin'));
    const messages: any[] = [];
    const stop = await t.deps.bus.subscribe(importStream(me), (m) => messages.push(m));
    const lines = ['First,Last,Email,Notes'];
    for (let i = 0; i < 4000; i++) lines.push(`Reader${i},Bulk${i},reader${i}@bulk.example.com,${'x'.repeat(60)}`);
    const a = await importAndWait(admin, '/v1/contacts/import', {
      name: 'big-read.csv',
      data: Buffer.from(lines.join('\n')),
    });
    await stop();
    expect(a).toMatchObject({ status: 'completed', created: 4000 });
    const reading = messages.filter((m) => m.id === Number(a.number) && m.read !== undefined);
    expect(reading.length).toBeGreaterThan(0);
    expect(reading[0]).toMatchObject({ status: 'processing', total: 0 });
    expect(reading[0].read).toBeGreaterThan(0);
    expect(reading[0].read).toBeLessThan(4000);
  });

  it('writes contacts with owner, tags, vendor and timeline events, and reports live progress', async () => {
    const me = await userId(DEMO('admin'));
    const messages: any[] = [];
    const stop = await t.deps.bus.subscribe(importStream(me), (m) => messages.push(m));
    const a = await importAndWait(admin, '/v1/contacts/import', fx('quoted-newlines.csv'), {
      tags: [{ name: 'Spring list', color: 'green' }],
      api_vendor_obj: { vendor_name: 'LeadCo', vendor_type: 'lead' },
    });
    await stop();
    expect(a).toMatchObject({ status: 'completed', total: 2, created: 2, failed: 0, file_path: null });
    const rows = await q(
      `select c.*, v.vendor_name, (select string_agg(t.name || ':' || t.color, ',') from contact_tags ct
         join tags t on t.id = ct.tag_id where ct.contact_id = c.id) as tags
       from contacts c left join api_vendors v on v.id = c.api_vendor_id where c.email = 'grace@example.com'
       and c.owner_id = $1`,
      [me],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      owner_id: me,
      first_name: 'Grace',
      phone: '15552010002',
      address: 'Building 7\nFloor 2, "Navy" Yard',
      state: 'VA',
      type: 'lead',
      vendor_name: 'LeadCo',
      tags: 'Spring list:green',
    });
    expect(
      await count("select count(*)::int n from contact_events where contact_id = $1 and kind = 'imported'", [
        rows[0].id,
      ]),
    ).toBe(1);
    expect(messages.map((m) => m.id)).toContain(Number(a.number));
    expect(messages.at(-1)).toMatchObject({ id: Number(a.number), status: 'completed', total: 2, created: 2 });
  });

  it('stores formula-looking text as typed, normalises phones, dates and states, reads the picked XLSX sheet', async () => {
    await importAndWait(admin, '/v1/contacts/import', fx('formulas.csv'));
    const [f] = await q("select first_name, extra from contacts where phone = '15552010020'");
    // Stored as typed; the exports neutralise it (contacts/export.ts).
    expect(f.first_name).toBe(`=HYPERLINK("http://evil.test")`);
    expect(f.extra).toEqual({ Notes: '@SUM(A1:A2)' });
    const a = await importAndWait(admin, '/v1/contacts/import', fx('multi-sheet.xlsx'), {
      sheet: 'Leads',
      fields: { 'Part A': 'part_a_effective' },
    });
    expect(a.created).toBe(3);
    const got = await q(
      `select first_name, phone, to_char(date_of_birth, 'YYYY-MM-DD') dob, to_char(part_a_effective, 'YYYY-MM-DD') pa, state
       from contacts where created_by = $1 and first_name in ('Ada', 'Grace', 'Alan') and state is not null
       and part_a_effective is not null order by first_name`,
      [await userId(DEMO('admin'))],
    );
    expect(got).toEqual([
      { first_name: 'Ada', phone: '15552010001', dob: '1950-03-15', pa: '1950-01-01', state: 'CA' },
      { first_name: 'Alan', phone: '15552010003', dob: '1948-12-11', pa: '2016-01-01', state: 'TX' },
      { first_name: 'Grace', phone: '15552010002', dob: '1951-07-04', pa: '2016-01-01', state: 'NY' },
    ]);
  });

  it('re-importing the same file creates no duplicates; matched contacts get updated_lead_tags', async () => {
    const first = await importAndWait(manager, '/v1/contacts/import', fx('phones.csv'), { scrub_against: 'phone' });
    expect(first).toMatchObject({ created: 7, failed: 1 });
    const again = await importAndWait(manager, '/v1/contacts/import', fx('phones.csv'), {
      scrub_against: 'phone',
      updated_lead_tags: [{ name: 'Seen again', color: 'red' }],
    });
    // Each matched contact gained the tag (its only change), so each counts as updated and its timeline says so.
    expect(again).toMatchObject({ created: 0, updated: 7, unchanged: 0, failed: 1 });
    expect(
      await count("select count(*)::int n from contacts where phone like '1555301000%' and deleted_at is null"),
    ).toBe(7);
    expect(
      await count(
        "select count(*)::int n from contact_tags ct join tags t on t.id = ct.tag_id where t.name = 'Seen again'",
      ),
    ).toBe(7);
    const events = await q("select data from contact_events where kind = 'import_updated'");
    expect(events).toHaveLength(7);
    expect(events[0].data).toMatchObject({ changes: {}, tags_added: ['Seen again'], matched_by: 'phone' });
    // A third time, without tags: nothing in the file is new, so no contact is rewritten and no event says it was.
    const third = await importAndWait(manager, '/v1/contacts/import', fx('phones.csv'), { scrub_against: 'phone' });
    expect(third).toMatchObject({ created: 0, updated: 0, unchanged: 7, failed: 1 });
    expect(await count("select count(*)::int n from contact_events where kind = 'import_updated'")).toBe(7);
  });

  it('an agent cannot update contacts outside their book: those rows are skipped', async () => {
    // phones.csv is in the manager's book now; the agent's scrub finds them but may not touch them.
    const preview = await upload(agent, '/v1/contacts/validate_import', fx('phones.csv'), { scrub_against: 'phone' });
    expect(preview.body).toMatchObject({ to_create: 0, to_update: 0, to_skip: 7 });
    expect(preview.body.untouched).toHaveLength(7);
    // Outside the agent's book: never described (no name, no number), only said.
    expect(preview.body.untouched[0]).toMatchObject({ contact: null, reason: 'Matches a contact outside your book' });
    const before = await count("select count(*)::int n from contact_events where kind = 'import_updated'");
    const a = await importAndWait(agent, '/v1/contacts/import', fx('phones.csv'), { scrub_against: 'phone' });
    expect(a).toMatchObject({ created: 0, updated: 0, skipped: 7 });
    expect(await count("select count(*)::int n from contact_events where kind = 'import_updated'")).toBe(before);
  });

  it('keeps of a finished import only what its result page and undo need: no copy of the created people', async () => {
    const a = await importAndWait(admin, '/v1/contacts/import', fx('invalid.csv'));
    expect(a).toMatchObject({ status: 'completed', created: 2, failed: 4 });
    const rows = await q('select * from import_rows where attempt_id = $1 order by row_no', [a.id]);
    expect(rows.map((r) => r.action)).toEqual(['create', 'invalid', 'invalid', 'invalid', 'invalid', 'create']);
    for (const r of rows.filter((x) => x.action === 'create')) {
      expect(r.contact_id).not.toBeNull();
      const kept = Object.entries(r).filter(
        ([k, v]) => v !== null && !['attempt_id', 'row_no', 'action', 'contact_id'].includes(k),
      );
      expect(kept).toEqual([]);
    }
    // The invalid rows stay (for the result page and its download) until the retention period ends.
    expect(rows.filter((r) => r.action === 'invalid').every((r) => r.raw && r.reasons)).toBe(true);
    // What the created rows are still for: deleting the attempt can remove the contacts it created.
    const del = await admin.delete(`/v1/contacts/delete_import_attempts/${a.number}?remove_contacts=true`);
    expect(del.body).toEqual({ deleted: true, contacts_removed: 2 });
  });

  it('owner: admins and managers may pick someone within reach, agents may not', async () => {
    const agentId = await userId(DEMO('agent'));
    const adminId = await userId(DEMO('admin'));
    const byManager = await importAndWait(manager, '/v1/contacts/import', fx('tab.tsv'), { owner: agentId });
    expect(byManager.owner_id).toBe(agentId);
    expect(
      await count('select count(*)::int n from contacts where owner_id = $1 and email = $2', [
        agentId,
        'alan@example.com',
      ]),
    ).toBeGreaterThan(0);
    const outside = await upload(manager, '/v1/contacts/import', fx('tab.tsv'), { owner: adminId });
    expect(outside.status).toBe(422);
    expect(outside.body.errors.owner).toEqual(['is not a user you may import for']);
    const own = await upload(agent, '/v1/contacts/import', fx('tab.tsv'), { owner: adminId });
    expect(own.body.errors.owner).toEqual(['You can only import into your own book']);
    const [other] = await q(
      'select id from pools where company_id <> (select company_id from users where id = $1) limit 1',
      [adminId],
    );
    const pool = await upload(admin, '/v1/contacts/import', fx('tab.tsv'), { pool: other?.id ?? 999999 });
    expect(pool.body.errors.pool).toEqual(['not found']);
    const vendor = await upload(admin, '/v1/contacts/import', fx('tab.tsv'), { api_vendor_id: 999999 });
    expect(vendor.body.errors.api_vendor_id).toEqual(['not found']);
    expect(await count("select count(*)::int n from import_attempts where status = 'pending'")).toBe(0);
  });

  it('refuses a bad file before creating an attempt', async () => {
    const before = await count('select count(*)::int n from import_attempts');
    for (const name of ['empty.csv', 'header-only.csv', 'not-really.xlsx']) {
      const res = await upload(agent, '/v1/contacts/import', fx(name));
      expect(res.status).toBe(422);
      expect(res.body.errors.file).toHaveLength(1);
    }
    expect(await count('select count(*)::int n from import_attempts')).toBe(before);
  });
});

describe('leads_uploader and clients_uploader', () => {
  it('import leads and clients', async () => {
    const leads = await importAndWait(agent, '/v1/contacts/leads_uploader', fx('windows-1252.csv'), { type: 'client' });
    expect(leads).toMatchObject({ contact_type: 'lead', created: 4 });
    const [jose] = await q("select type, first_name, last_name from contacts where email = 'jose@example.com'");
    expect(jose).toEqual({ type: 'lead', first_name: 'José', last_name: 'Muñoz' });
    const clients = await importAndWait(agent, '/v1/contacts/clients_uploader', fx('semicolon.csv'), {
      scrub_against: { by: ['email'], on_match: 'update' },
    });
    expect(clients).toMatchObject({ contact_type: 'client', created: 0, updated: 3 });
    // Leads became clients: those three changed and their timelines say so.
    expect(
      await count(
        "select count(*)::int n from contact_events e join contacts c on c.id = e.contact_id where e.kind = 'import_updated' and c.type = 'client'",
      ),
    ).toBe(3);
    expect(
      await count(
        "select count(*)::int n from contacts where email = 'alan@example.com' and type = 'client' and owner_id = $1",
        [await userId(DEMO('agent'))],
      ),
    ).toBe(1);
  });

  it('refuse the signed-out, basic users and bad files', async () => {
    expect((await upload(new Client(t.app), '/v1/contacts/clients_uploader', fx('utf8.csv'))).status).toBe(401);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await upload(basic, '/v1/contacts/leads_uploader', fx('utf8.csv'))).status).toBe(403);
    const bad = await upload(agent, '/v1/contacts/clients_uploader', fx('picture.csv'));
    expect(bad.status).toBe(422);
  });
});
