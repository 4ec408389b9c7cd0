/**
 * Every import has a result page (figures, each skipped or invalid row with its reason, download of those rows) and
 * can be undone: its created contacts removed (soft), its changes rolled back, a person's later edit never
 * overwritten (left and reported), its tags taken off. Agents see their own imports; nobody sees another's beyond
 * their reach.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';
import { compactStaging } from './compact.js';
import { csv, importAndWait as imported, testDataDir } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
const dataDir = testDataDir();

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  [admin, manager, agent] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
  ]);
});
afterAll(() => t.close());

const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const importAndWait = (client: Client, file: { name: string; data: Buffer }, fields = {}) =>
  imported(t, client, file, fields);

describe('undo', () => {
  let attemptId: number;
  let carol: { id: number; number: number };
  let noted: Record<string, any>;

  beforeAll(async () => {
    carol = await newContact(agent, {
      first_name: 'Carol',
      last_name: 'Thompson',
      phone: '305-892-0000',
      email: 'carol.t@example.com',
      address: '12 Palm Ave',
    });
    attemptId = await importAndWait(
      manager,
      csv('vendor.csv', [
        'First Name,Last Name,Phone,Email,Address,City',
        'Ramón,Domínguez,(305) 892-0000,ramon@example.com,77 Ocean Dr,Miami',
        'Nina,Fresh,(305) 892-1111,nina.fresh@example.com,1 Bay St,Miami',
        'Otto,Noted,(305) 892-2222,otto@example.com,2 Bay St,Miami',
        'Bad,Row,12345,,,',
        'Nina,Again,(305) 892-1111,,,',
      ]),
      {
        scrub_against: { by: ['phone'], on_match: 'update' },
        updated_lead_tags: [{ name: 'Vendor seen', color: 'red' }],
      },
    );
    const [o] = await q("select id, number from contacts where email = 'otto@example.com'");
    noted = o;
    // After the import: the agent corrects Carol's email by hand, and someone adds a note to Otto.
    await agent.patch(`/v1/contacts/${carol.number}`, { email: 'carol.new@example.com' });
    await manager.post(`/v1/contacts/${o.number}/notes`, { body: 'Called, interested' });
  });

  it('the result page has the figures, the rows not imported with reasons and cells, and the changes', async () => {
    const detail = await manager.get(`/v1/contacts/import_attempts/${attemptId}`);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({
      status: 'completed',
      created: 2,
      updated: 1,
      skipped: 1,
      failed: 1,
      scrub: { by: ['phone'], on_match: 'update' },
      rows_available: true,
      undo: { available: true, reason: null, summary: null },
    });
    const rows = await manager.get(`/v1/contacts/import_attempts/${attemptId}/rows?kind=not_imported`);
    expect(rows.body.headers).toEqual(['First Name', 'Last Name', 'Phone', 'Email', 'Address', 'City']);
    expect(rows.body.data.map((r: any) => [r.row, r.action, r.reasons, r.cells])).toEqual([
      [5, 'invalid', ["Phone '12345' is not a US phone number"], ['Bad', 'Row', '12345', '', '', '']],
      [6, 'duplicate', ['Same phone as row 3'], ['Nina', 'Again', '1-305-892-1111', '', '', '']],
    ]);
    const updated = await manager.get(`/v1/contacts/import_attempts/${attemptId}/rows?kind=updated`);
    expect(updated.body.data[0]).toMatchObject({
      row: 2,
      contact: { id: carol.id, name: 'Carol Thompson' },
      matched_by: 'phone',
      same_person: false,
      tags_added: ['Vendor seen'],
    });
    expect(updated.body.data[0].changes).toEqual([
      { field: 'email', from: 'carol.t@example.com', to: 'ramon@example.com' },
      { field: 'address', from: '12 Palm Ave', to: '77 Ocean Dr' },
      { field: 'city', from: null, to: 'Miami' },
    ]);
    const file = await manager.get(`/v1/contacts/import_attempts/${attemptId}/not_imported.csv`);
    expect(file.headers['content-type']).toContain('text/csv');
    expect(file.headers['content-disposition']).toContain('vendor-not-imported.csv');
    expect(String(file.body).split('\r\n')).toEqual([
      '\uFEFFFirst Name,Last Name,Phone,Email,Address,City,Row,Reason',
      "Bad,Row,12345,,,,5,Phone '12345' is not a US phone number",
      'Nina,Again,1-305-892-1111,,,,6,Same phone as row 3',
      '',
    ]);
  });

  it('previews the undo: what goes, what comes back, and what a person changed since', async () => {
    const res = await manager.get(`/v1/contacts/import_attempts/${attemptId}/undo`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      removed: 1,
      kept: 1,
      restored: 1,
      fields_restored: 2,
      fields_skipped: 1,
      tags_removed: 1,
    });
    expect(res.body.skipped_fields).toEqual([
      {
        row: 2,
        contact: expect.objectContaining({ id: carol.id }),
        field: 'email',
        import_set: 'ramon@example.com',
        now: 'carol.new@example.com',
      },
    ]);
    expect(res.body.kept_contacts).toEqual([
      { row: 4, contact: expect.objectContaining({ id: Number(noted.id) }), reason: 'Worked on since the import' },
    ]);
  });

  it('undoes: removes (soft) what it created, restores what it changed, never a later edit', async () => {
    const res = await manager.post(`/v1/contacts/import_attempts/${attemptId}/undo`, {});
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    expect(res.body.status).toBe('undoing');
    await t.deps.jobs.drain();
    const [c] = await q('select * from contacts where id = $1', [carol.id]);
    expect(c).toMatchObject({ email: 'carol.new@example.com', address: '12 Palm Ave', city: null });
    const tags = await q(
      'select t.name from contact_tags ct join tags t on t.id = ct.tag_id where ct.contact_id = $1',
      [carol.id],
    );
    expect(tags).toEqual([]);
    const [nina] = await q("select deleted_at from contacts where email = 'nina.fresh@example.com'");
    expect(nina.deleted_at).not.toBeNull();
    const [otto] = await q('select deleted_at from contacts where id = $1', [noted.id]);
    expect(otto.deleted_at).toBeNull();
    const [ev] = await q("select data from contact_events where contact_id = $1 and kind = 'import_undone'", [
      carol.id,
    ]);
    // The timeline keeps the attempt's internal id (the path uses the company's attempt number).
    const [{ id: internalId }] = await q('select max(id)::int as id from import_attempts where number = $1', [
      attemptId,
    ]);
    expect(ev.data).toMatchObject({
      import_attempt_id: internalId,
      changes: { address: { from: '77 Ocean Dr', to: '12 Palm Ave' }, city: { from: 'Miami', to: null } },
      skipped: { email: { from: 'ramon@example.com', to: 'carol.new@example.com' } },
      tags_removed: ['Vendor seen'],
    });
    const detail = await manager.get(`/v1/contacts/import_attempts/${attemptId}`);
    expect(detail.body).toMatchObject({
      status: 'undone',
      undo: {
        available: false,
        reason: 'This import has been undone',
        summary: { removed: 1, kept: 1, restored: 1, fields_restored: 2, fields_skipped: 1, tags_removed: 1 },
      },
    });
    expect(detail.body.undo.summary.by.name).toBe('Monica Reyes');
    const created = await manager.get(`/v1/contacts/import_attempts/${attemptId}/rows?kind=created`);
    expect(created.body.data.map((r: any) => [r.row, r.undo.outcome])).toEqual([
      [3, 'removed'],
      [4, 'kept'],
    ]);
    // Removed like any deletion: it can be restored.
    const [n] = await q("select id from contacts where email = 'nina.fresh@example.com'");
    expect((await manager.put('/v1/contacts/restore', { ids: [Number(n.id)] })).body).toEqual({ count: 1 });
    expect((await manager.post(`/v1/contacts/import_attempts/${attemptId}/undo`, {})).status).toBe(409);
  });
});

describe('who sees which attempt, and for how long', () => {
  it("agents list and open their own imports; not a manager's; admins see everyone's", async () => {
    const mine = await importAndWait(agent, csv('agent-list.csv', ['Name,Email', 'Paula Own,paula.own@example.com']));
    const list = await agent.get('/v1/contacts/import_attempts');
    expect(list.status).toBe(200);
    expect(list.body.data.map((a: any) => a.id)).toEqual([mine]);
    expect((await agent.get(`/v1/contacts/import_attempts/${mine}`)).status).toBe(200);
    const theirs = await q(
      'select a.number as id from import_attempts a join users u on u.id = a.user_id where u.email = $1',
      [DEMO('manager')],
    );
    expect((await agent.get(`/v1/contacts/import_attempts/${theirs[0].id}`)).status).toBe(404);
    expect((await agent.get(`/v1/contacts/import_attempts/${theirs[0].id}/rows`)).status).toBe(404);
    expect((await agent.post(`/v1/contacts/import_attempts/${theirs[0].id}/undo`, {})).status).toBe(404);
    expect((await manager.get(`/v1/contacts/import_attempts/${mine}`)).status).toBe(200);
    expect((await admin.get('/v1/contacts/import_attempts')).body.data.length).toBeGreaterThanOrEqual(2);
    expect((await agent.get(`/v1/contacts/import_attempts/${mine}/rows?kind=nope`)).status).toBe(422);
  });

  it('after the retention period only the created contacts remain, and undo is no longer offered', async () => {
    const number = await importAndWait(
      agent,
      csv('old.csv', ['Name,Email,Phone', 'Quinn Old,quinn@example.com,', 'X,,1']),
    );
    const [{ id }] = await q('select max(id)::int as id from import_attempts where number = $1', [number]);
    expect((await q('select count(*)::int n from import_rows where attempt_id = $1', [id]))[0].n).toBe(2);
    await q("update import_attempts set finished_at = now() - interval '31 days' where id = $1", [id]);
    await compactStaging(t.deps, id);
    const rows = await q('select action, first_name, raw, reasons from import_rows where attempt_id = $1', [id]);
    expect(rows).toEqual([{ action: 'create', first_name: null, raw: null, reasons: null }]);
    const detail = await agent.get(`/v1/contacts/import_attempts/${number}`);
    expect(detail.body).toMatchObject({ rows_available: false, undo: { available: false } });
    expect(detail.body.undo.reason).toContain('30 days');
    expect((await agent.get(`/v1/contacts/import_attempts/${number}/undo`)).status).toBe(409);
  });
});
