import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
const users: Record<string, number> = {};

const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const idsOf = async (email: string, n: number, extra = '') =>
  (
    await q<{ id: string }>(
      `select c.id from contacts c join users u on u.id = c.owner_id where u.email = $1 and c.deleted_at is null
       and c.pool_id is null ${extra} order by c.id limit $2`,
      [email, n],
    )
  ).map((r) => Number(r.id));
const foreignId = async () =>
  Number(
    (
      await q<{ id: string }>(
        "select c.id from contacts c join companies co on co.id = c.company_id where co.number = 'C-1002' limit 1",
      )
    )[0].id,
  );
const events = async (kind: string, ids: number[]) =>
  (
    await q<{ n: number }>('select count(*)::int as n from contact_events where kind = $1 and contact_id = any($2)', [
      kind,
      ids,
    ])
  )[0].n;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent] = await Promise.all(['admin', 'manager', 'agent'].map((r) => signIn(t.app, DEMO(r))));
  for (const u of await q<{ id: number; email: string }>('select id, email from users')) users[u.email] = u.id;
});
afterAll(() => t.close());

describe('selections', () => {
  it('counts ids and whole filtered sets (not just the page) before acting', async () => {
    const ids = await idsOf(DEMO('agent'), 3);
    const res = await agent.post('/v1/contacts/selected_items', { ids, limit: 2 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ count: 3, ids: ids.slice(0, 2) });
    const all = await agent.post('/v1/contacts/selected_items', {
      all: true,
      contacts_scope: { limit: 5, search: [{ field: 'type', value: 'client' }] },
    });
    const [{ n }] = await q<{ n: number }>(
      `select count(*)::int as n from contacts where type = 'client' and deleted_at is null and
        (owner_id = $1 or pool_id in (select pool_id from pool_holders where user_id = $1))`,
      [users[DEMO('agent')]],
    );
    expect(all.body.count).toBe(n);
    expect(n).toBeGreaterThan(5);
  });

  it('answers 404 and changes nothing when one id is another company’s or not visible to the caller', async () => {
    const mine = await idsOf(DEMO('agent'), 2);
    const foreign = await foreignId();
    const res = await agent.request('DELETE', '/v1/contacts/destroy_all', { ids: [...mine, foreign] });
    expect(res.status).toBe(404);
    const notMine = await idsOf(DEMO('field_manager'), 1);
    expect((await agent.request('DELETE', '/v1/contacts/destroy_all', { ids: [mine[0], ...notMine] })).status).toBe(
      404,
    );
    const [{ n }] = await q<{ n: number }>(
      'select count(*)::int as n from contacts where id = any($1) and deleted_at is not null',
      [mine],
    );
    expect(n).toBe(0);
    expect((await agent.request('DELETE', '/v1/contacts/destroy_all', {})).status).toBe(422);
  });

  it('select_first_last answers the first or last n in list order, with a cap', async () => {
    const first = await agent.patch('/v1/contacts/select_first_last', { select_n: 3, position: 'first' });
    const list = await agent.patch('/v1/contacts', { limit: 3 });
    expect(first.body.ids).toEqual(list.body.data.map((r: any) => r.id));
    const last = await agent.patch('/v1/contacts/select_first_last', { select_n: 2, position: 'last' });
    expect(last.body.count).toBe(2);
    expect((await agent.patch('/v1/contacts/select_first_last', { select_n: 10_001 })).status).toBe(422);
  });
});

describe('bulk delete, restore, group, tags', () => {
  it('soft-deletes and restores a selection, recording both on the timeline', async () => {
    const ids = await idsOf(DEMO('agent'), 3);
    const del = await agent.request('DELETE', '/v1/contacts/destroy_all', { ids });
    expect(del.body).toEqual({ count: 3 });
    expect(await events('deleted', ids)).toBe(3);
    const deleted = await agent.patch('/v1/contacts', { contact_group: 'deleted', limit: 500 });
    expect(ids.every((id) => deleted.body.data.some((r: any) => r.id === id))).toBe(true);
    const res = await agent.put('/v1/contacts/restore', { ids });
    expect(res.body).toEqual({ count: 3 });
    expect(await events('restored', ids)).toBe(3);
    // Restoring "all" acts on the deleted view only.
    const restoreAll = await agent.put('/v1/contacts/restore', { all: true, contacts_scope: {} });
    expect(restoreAll.status).toBe(200);
    const [{ n }] = await q<{ n: number }>(
      'select count(*)::int as n from contacts where owner_id = $1 and deleted_at is not null',
      [users[DEMO('agent')]],
    );
    expect(n).toBe(0);
  });

  it('changes the group of a selection; another company’s group is 404', async () => {
    const ids = await idsOf(DEMO('agent'), 2);
    const [g] = await q<{ id: number }>(
      "select g.id from groups g join companies c on c.id = g.company_id where g.name = 'Seminar Attendees' and c.number = 'C-1001'",
    );
    const res = await agent.patch('/v1/contacts/update_group', { ids, group_id: g.id });
    expect(res.status).toBe(200);
    const rows = await q<{ group_id: number }>('select group_id from contacts where id = any($1)', [ids]);
    expect(rows.every((r) => r.group_id === g.id)).toBe(true);
    const [other] = await q<{ id: number }>(
      "insert into groups (company_id, name) select id, 'Foreign' from companies where number = 'C-1002' returning id",
    );
    expect((await agent.patch('/v1/contacts/update_group', { ids, group_id: other.id })).status).toBe(404);
  });

  it('adds and removes tags on every matching contact, and sets one contact’s tags', async () => {
    const scope = { search: [{ field: 'state', value: 'AZ' }] };
    const add = await manager.patch('/v1/contacts/update_tags_group', {
      all: true,
      contacts_scope: scope,
      tags: [{ name: 'AEP 2026', color: 'red' }],
    });
    expect(add.status).toBe(200);
    const tagged = await q<{ n: number }>(
      `select count(*)::int as n from contact_tags ct join tags t on t.id = ct.tag_id where t.name = 'AEP 2026'`,
    );
    expect(tagged[0].n).toBe(add.body.count);
    const count = await manager.post('/v1/contacts/selected_items', { all: true, contacts_scope: scope });
    expect(add.body.count).toBe(count.body.count);
    const remove = await manager.patch('/v1/contacts/update_tags_group', {
      all: true,
      contacts_scope: scope,
      tags: [{ name: 'aep 2026' }],
      action: 'remove',
    });
    expect(remove.body.count).toBe(add.body.count);

    const [id] = await idsOf(DEMO('agent'), 1);
    const single = await agent.patch('/v1/contacts/update_tags_single', {
      id,
      tags: [{ name: 'Hot Lead' }, { name: 'Brand New', color: 'pink' }],
    });
    expect(single.status).toBe(200);
    const names = await q<{ name: string }>(
      'select t.name from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = $1 order by t.name',
      [id],
    );
    expect(names.map((r) => r.name)).toEqual(['Brand New', 'Hot Lead']);
    expect((await agent.patch('/v1/contacts/update_tags_single', { id: await foreignId(), tags: [] })).status).toBe(
      404,
    );
    expect((await agent.patch('/v1/contacts/update_tags_group', { ids: [id], tags: [] })).status).toBe(422);
  });
});

describe('PATCH /v1/contacts/merge', () => {
  it('keeps every note, file, policy, security, tag and event of both, and records the merge', async () => {
    const [pair] = await q<{ kept: string; dup: string }>(
      `select min(id) as kept, max(id) as dup from contacts where deleted_at is null and owner_id = $1
       group by lower(first_name), lower(last_name) having count(*) = 2 limit 1`,
      [users[DEMO('agent')]],
    );
    const kept = Number(pair.kept);
    const dup = Number(pair.dup);
    const [co] = await q<{ id: number }>("select id from companies where number = 'C-1001'");
    await q('insert into notes (company_id, contact_id, body) values ($1, $2, $3), ($1, $4, $5)', [
      co.id,
      kept,
      'kept note',
      dup,
      'dup note',
    ]);
    await q(
      `insert into contact_files (company_id, contact_id, name, content_type, size, storage_key) values ($1, $2, 'soa.pdf', 'application/pdf', 10, 'k1')`,
      [co.id, dup],
    );
    await q(`insert into policies (company_id, contact_id, product_type) values ($1, $2, 'medigap')`, [co.id, dup]);
    await q(`insert into securities (company_id, contact_id, kind) values ($1, $2, 'annuity')`, [co.id, dup]);
    await q(
      `with t as (insert into tags (company_id, name) values ($2, 'Merge Check') returning id)
       insert into contact_tags (contact_id, tag_id) select $1, id from t`,
      [dup, co.id],
    );
    await q(`insert into contact_events (company_id, contact_id, kind) values ($1, $2, 'called')`, [co.id, dup]);

    // An agent cannot merge a contact they cannot see; nothing moves.
    const other = await idsOf(DEMO('field_manager'), 1);
    expect((await agent.patch('/v1/contacts/merge', { kept_id: kept, ids: [other[0]] })).status).toBe(404);
    expect((await agent.patch('/v1/contacts/merge', { kept_id: kept, ids: [kept] })).status).toBe(422);

    const res = await admin.patch('/v1/contacts/merge', { kept_id: kept, ids: [dup] });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ kept_id: kept, merged_ids: [dup] });
    for (const table of ['notes', 'contact_files', 'policies', 'securities']) {
      const rows = await q<{ n: number }>(`select count(*)::int as n from ${table} where contact_id = $1`, [dup]);
      expect(rows[0].n, table).toBe(0);
    }
    const notes = await q<{ body: string }>('select body from notes where contact_id = $1 order by body', [kept]);
    expect(notes.map((n) => n.body)).toEqual(['dup note', 'kept note']);
    const tagNames = await q<{ name: string }>(
      'select t.name from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = $1',
      [kept],
    );
    expect(tagNames.map((r) => r.name)).toContain('Merge Check');
    expect(await events('called', [kept])).toBe(1);
    expect(await events('merged', [kept])).toBe(1);
    const [m] = await q<{ snapshot: any }>('select snapshot from contact_merges where kept_contact_id = $1', [kept]);
    expect(Number(m.snapshot.id)).toBe(dup);
    const [gone] = await q<{ deleted_at: string | null; extra: any }>(
      'select deleted_at, extra from contacts where id = $1',
      [dup],
    );
    expect(gone.deleted_at).not.toBeNull();
    expect(Number(gone.extra.merged_into)).toBe(kept);
  });
});

describe('PATCH /v1/export.{format}', () => {
  it('streams CSV of the selection with formula cells neutralised', async () => {
    const ids = await idsOf(DEMO('agent'), 3);
    await q(
      `update contacts set first_name = '=HYPERLINK("http://evil")', last_name = '@SUM(1)', city = '+1', email = '-x' where id = $1`,
      [ids[0]],
    );
    const res = await agent.request('PATCH', '/v1/export.csv', { ids });
    expect(res.status).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/csv');
    expect(String(res.headers['content-disposition'])).toMatch(/attachment; filename="contacts-.*\.csv"/);
    const lines = String(res.body).trim().split(/\r?\n/);
    expect(lines[0]).toContain('First Name');
    expect(lines).toHaveLength(4);
    expect(res.body).toContain(`"'=HYPERLINK(""http://evil"")"`);
    expect(res.body).toContain("'@SUM(1)");
    expect(res.body).toContain("'+1");
    expect(res.body).not.toMatch(/,=HYPERLINK/);
  });

  it('streams an XLSX that reads back', async () => {
    const [id] = await idsOf(DEMO('agent'), 1);
    // Formula-looking text, markup, a tab and a newline, a control character XML forbids, and non-Latin text.
    await q(
      `update contacts set first_name = '=HYPERLINK("http://evil")', last_name = 'O''Brien & <Sons>',
         address = E'1\tMain\nApt 2\x01', city = 'Zürich 東京', email = null where id = $1`,
      [id],
    );
    const [{ number }] = await q<{ number: string }>('select number from contacts where id = $1', [id]);
    const all = await agent.post('/v1/contacts/selected_items', { all: true, contacts_scope: {} });
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/v1/export.xlsx',
      headers: {
        cookie: [...agent.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        'x-csrf-token': agent.cookies.get('csrf_token')!,
      },
      payload: { all: true, contacts_scope: {} },
    });
    expect(res.statusCode).toBe(200);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.getWorksheet('Contacts')!;
    expect(sheet.getRow(1).getCell(2).value).toBe('First Name');
    expect(sheet.actualRowCount).toBe(all.body.count + 1);
    const header = (sheet.getRow(1).values as unknown[]).slice(1);
    const col = (name: string) => header.indexOf(name) + 1;
    let row: ExcelJS.Row | undefined;
    sheet.eachRow((r) => {
      if (r.getCell(1).value === Number(number)) row = r;
    });
    if (!row) throw new Error(`contact number ${number} not in the sheet`);
    expect(row.getCell(col('First Name')).value).toBe(`'=HYPERLINK("http://evil")`);
    expect(row.getCell(col('Last Name')).value).toBe("O'Brien & <Sons>");
    expect(row.getCell(col('Address')).value).toBe('1\tMain\nApt 2');
    expect(row.getCell(col('City')).value).toBe('Zürich 東京');
    expect(row.getCell(col('Email')).value).toBeNull();
  });

  it('refuses unknown formats and foreign ids', async () => {
    expect((await agent.request('PATCH', '/v1/export.pdf', { all: true })).status).toBe(422);
    expect((await agent.request('PATCH', '/v1/export.csv', { ids: [await foreignId()] })).status).toBe(404);
    const other = await signIn(t.app, RECRUIT('agent'));
    const mine = await idsOf(DEMO('agent'), 1);
    expect((await other.request('PATCH', '/v1/export.csv', { ids: mine })).status).toBe(404);
  });
});
