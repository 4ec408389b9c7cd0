/** Tracking routes (import_attempts, delete, retry, workers_status), import settings and ZIP attachments. */
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { makeZip } from './fixtures/zip.js';
import { fx, testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let otherAttempt: number;

const dataDir = testDataDir();

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  admin = await signIn(t.app, DEMO('admin'));
  manager = await signIn(t.app, DEMO('manager'));
  agent = await signIn(t.app, DEMO('agent'));
  // Attempt numbers count per company, so the other company's demo import is #1 as this company's first will be;
  // renumbered to one this company never reaches, it stands for "another company's attempt" in the 404 checks.
  otherAttempt = (
    await q(`update import_attempts a set number = 9001 from companies c
      where c.id = a.company_id and c.number = 'C-1002' returning a.number`)
  )[0].number;
});
afterAll(() => t.close());

const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const count = async (text: string, params: unknown[] = []) => (await q<{ n: number }>(text, params))[0].n;

async function imported(client: Client, name: string, fields = {}) {
  const res = await upload(client, '/v1/contacts/import', fx(name), fields);
  expect(res.status, JSON.stringify(res.body)).toBe(202);
  await t.deps.jobs.drain();
  return res.body.id as number;
}

describe('GET /v1/contacts/import_attempts', () => {
  it('lists attempts with counts, tabs, filters and paging; only within reach', async () => {
    const byAgent = await imported(agent, 'utf8.csv');
    const byAdmin = await imported(admin, 'invalid.csv');
    const all = await admin.get('/v1/contacts/import_attempts?limit=1&page=1');
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ current_page: 1, limit: 1, total_count: 2, total_pages: 2 });
    expect(all.body.meta.counts).toMatchObject({ all: 2, completed: 2, active: 0, failed: 0 });
    expect(all.body.data[0]).toMatchObject({
      id: byAdmin,
      status: 'completed',
      created: 2,
      failed: 4,
      file_name: 'invalid.csv',
    });
    expect(all.body.data[0].user.name).toBe('Alicia Grant');
    expect(JSON.stringify(all.body)).not.toContain('file_path');
    const filtered = await admin.get('/v1/contacts/import_attempts?filter_by=file_name&filter_value=utf8');
    expect(filtered.body.data.map((a: any) => a.id)).toEqual([byAgent]);
    const byUser = await admin.get('/v1/contacts/import_attempts?filter_by=user&filter_value=angela');
    expect(byUser.body.data.map((a: any) => a.id)).toEqual([byAgent]);
    const failedTab = await admin.get('/v1/contacts/import_attempts?tab=failed');
    expect(failedTab.body.data).toEqual([]);
    // The manager sees the agent below them, not the admin; the other company's attempt is never listed.
    const mine = await manager.get('/v1/contacts/import_attempts');
    expect(mine.body.data.map((a: any) => a.id)).toEqual([byAgent]);
    expect(all.body.data.map((a: any) => a.id)).not.toContain(otherAttempt);
  });

  it('shows agents only their own attempts, and validates its query', async () => {
    const own = await agent.get('/v1/contacts/import_attempts');
    expect(own.status).toBe(200);
    const [me] = await q('select id from users where email = $1', [DEMO('agent')]);
    expect(own.body.data.every((a: any) => a.user?.id === me.id)).toBe(true);
    expect((await new Client(t.app).get('/v1/contacts/import_attempts')).status).toBe(401);
    const bad = await admin.get('/v1/contacts/import_attempts?limit=0&tab=nope');
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['limit', 'tab']);
  });
});

describe('attempt numbers (docs/decisions/per-company-numbers.md)', () => {
  it("counts each company from 1, and a number names the caller's own attempt, never another company's", async () => {
    const mine = await imported(admin, 'semicolon.csv');
    const [row] = await q(
      'select id, company_id, number from import_attempts where id = (select max(id) from import_attempts)',
    );
    expect(Number(row.number)).toBe(mine);
    // Dense within the company, whatever the other company did.
    expect(await count('select count(*)::int n from import_attempts where company_id = $1', [row.company_id])).toBe(
      mine,
    );
    // The other company holds the same number too: each resolves to its own.
    await q(
      `update import_attempts a set number = $1 from companies c
      where c.id = a.company_id and c.number = 'C-1002'`,
      [mine],
    );
    const res = await admin.get(`/v1/contacts/import_attempts/${mine}`);
    expect(res.status).toBe(200);
    expect(res.body.file_name).toBe('semicolon.csv');
    await q(
      `update import_attempts a set number = $1 from companies c
      where c.id = a.company_id and c.number = 'C-1002'`,
      [otherAttempt],
    );
  });
});

describe('DELETE /v1/contacts/delete_import_attempts/{id}', () => {
  it('deletes an attempt, keeping or removing the contacts it created', async () => {
    const keep = await imported(admin, 'semicolon.csv');
    // The path names the company's attempt number; the staging rows hang off the internal id.
    const keepId = await count('select max(id)::int n from import_attempts where number = $1', [keep]);
    const res = await admin.delete(`/v1/contacts/delete_import_attempts/${keep}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ deleted: true, contacts_removed: 0 });
    expect(await count('select count(*)::int n from import_attempts where id = $1', [keepId])).toBe(0);
    expect(await count('select count(*)::int n from import_rows where attempt_id = $1', [keepId])).toBe(0);
    const gone = await imported(admin, 'quoted-newlines.csv');
    const res2 = await admin.delete(`/v1/contacts/delete_import_attempts/${gone}?remove_contacts=true`);
    expect(res2.body).toEqual({ deleted: true, contacts_removed: 2 });
    expect(
      await count("select count(*)::int n from contacts where address like 'Building 7%' and deleted_at is null"),
    ).toBe(0);
  });

  it('refuses agents, attempts out of reach, other companies and running imports', async () => {
    const byAdmin = await imported(admin, 'tab.tsv');
    // Not theirs and not within their reach: as if it did not exist.
    expect((await agent.delete(`/v1/contacts/delete_import_attempts/${byAdmin}`)).status).toBe(404);
    expect((await manager.delete(`/v1/contacts/delete_import_attempts/${byAdmin}`)).status).toBe(404);
    expect((await admin.delete(`/v1/contacts/delete_import_attempts/${otherAttempt}`)).status).toBe(404);
    expect((await admin.delete('/v1/contacts/delete_import_attempts/abc')).status).toBe(404);
    await q(
      "update import_attempts set status = 'processing' where id = (select max(id) from import_attempts where number = $1)",
      [byAdmin],
    );
    const running = await admin.delete(`/v1/contacts/delete_import_attempts/${byAdmin}`);
    expect(running.status).toBe(409);
    expect(running.body.errors.status).toBeDefined();
    await q(
      "update import_attempts set status = 'completed' where id = (select max(id) from import_attempts where number = $1)",
      [byAdmin],
    );
  });
});

describe('POST /v1/contacts/retry_failed_import_attempts/{id}', () => {
  it('retries a failed attempt: it resumes and writes every row once', async () => {
    await t.deps.jobs.stop();
    const up = await upload(admin, '/v1/contacts/import', fx('blank-lines.csv'));
    const id = up.body.id;
    const [{ file_path }] = await q(
      'select file_path from import_attempts where id = (select max(id) from import_attempts where number = $1)',
      [id],
    );
    // The upload disappears before the job runs: both tries fail and the attempt shows as failed.
    const saved = fs.readFileSync(file_path);
    fs.rmSync(file_path);
    t.deps.jobs.start();
    await t.deps.jobs.drain();
    const [failed] = await q(
      'select status, error from import_attempts where id = (select max(id) from import_attempts where number = $1)',
      [id],
    );
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/ENOENT|no such file/);
    const failedTab = await admin.get('/v1/contacts/import_attempts?tab=failed');
    expect(failedTab.body.data.map((a: any) => a.id)).toContain(id);
    fs.writeFileSync(file_path, saved);
    const retry = await admin.post(`/v1/contacts/retry_failed_import_attempts/${id}`);
    expect(retry.status, JSON.stringify(retry.body)).toBe(202);
    expect(retry.body.status).toBe('pending');
    await t.deps.jobs.drain();
    const [done] = await q(
      'select status, created from import_attempts where id = (select max(id) from import_attempts where number = $1)',
      [id],
    );
    expect(done).toEqual({ status: 'completed', created: 3 });
    const again = await admin.post(`/v1/contacts/retry_failed_import_attempts/${id}`);
    expect(again.status).toBe(409);
    expect(again.body.errors.status).toEqual(['Only a failed import can be retried']);
  });

  it('refuses agents and other companies', async () => {
    expect((await agent.post(`/v1/contacts/retry_failed_import_attempts/${otherAttempt}`)).status).toBe(404);
    expect((await admin.post(`/v1/contacts/retry_failed_import_attempts/${otherAttempt}`)).status).toBe(404);
  });
});

describe('GET /v1/contacts/workers_status', () => {
  it('tells whether imports are processed and how many wait', async () => {
    await t.deps.jobs.stop();
    await upload(agent, '/v1/contacts/import', fx('utf8.csv'));
    const waiting = await agent.get('/v1/contacts/workers_status');
    expect(waiting.body).toEqual({ processing: false, running: 0, waiting: 1 });
    t.deps.jobs.start();
    await t.deps.jobs.drain();
    expect((await agent.get('/v1/contacts/workers_status')).body).toEqual({
      processing: false,
      running: 0,
      waiting: 0,
    });
    expect((await new Client(t.app).get('/v1/contacts/workers_status')).status).toBe(401);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await basic.get('/v1/contacts/workers_status')).status).toBe(403);
  });
});

describe('import settings', () => {
  it('saves, lists and deletes my own mappings', async () => {
    const created = await agent.post('/v1/import_settings', { name: 'Vendor A', data: { fields: { Cell: 'phone' } } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Vendor A', data: { fields: { Cell: 'phone' } } });
    const list = await agent.get('/v1/import_settings');
    expect(list.body.data.map((s: any) => s.name)).toEqual(['Vendor A']);
    expect((await manager.get('/v1/import_settings')).body.data).toEqual([]);
    expect((await manager.delete(`/v1/import_settings/${created.body.id}`)).status).toBe(404);
    const del = await agent.delete(`/v1/import_settings/${created.body.id}`);
    expect(del.status).toBe(204);
    expect((await agent.get('/v1/import_settings')).body.data).toEqual([]);
  });

  it('refuses bad input, other companies and the signed-out', async () => {
    const bad = await agent.post('/v1/import_settings', { name: '', data: 'x' });
    expect(bad.status).toBe(422);
    expect(Object.keys(bad.body.errors).sort()).toEqual(['data', 'name']);
    const [other] = await q(
      "select s.id from import_settings s join companies c on c.id = s.company_id where c.number = 'C-1002'",
    );
    expect((await agent.delete(`/v1/import_settings/${other.id}`)).status).toBe(404);
    expect((await new Client(t.app).post('/v1/import_settings', { name: 'x', data: {} })).status).toBe(401);
  });
});

describe('attachments', () => {
  it('import_attachments attaches files to the contacts their names give', async () => {
    await imported(agent, 'utf8.csv');
    const res = await upload(agent, '/v1/contacts/import_attachments', fx('attachments.zip'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.matched.map((m: any) => m.file).sort()).toEqual(['ada@example.com.pdf', 'docs/15552010002.txt']);
    expect(res.body.unmatched).toEqual(['nobody@example.com.pdf']);
    expect(res.body.attempt).toMatchObject({ kind: 'attachments', status: 'completed', updated: 2, skipped: 1 });
    const files = await q(
      'select f.name, f.content_type, f.size, f.storage_key, c.email from contact_files f join contacts c on c.id = f.contact_id order by f.name',
    );
    expect(files.map((f) => [f.name, f.content_type, f.size])).toEqual([
      ['15552010002.txt', 'text/plain', 11],
      ['ada@example.com.pdf', 'application/pdf', 12],
    ]);
    const stored = `${t.deps.config.dataDir}/files/${files[1].storage_key}`;
    expect(fs.readFileSync(stored, 'utf8')).toBe('%PDF-1.4 ada');
  });

  it('attachments_leads_uploader imports the list and attaches the files its column names', async () => {
    const res = await upload(agent, '/v1/contacts/attachments_leads_uploader', fx('attachments-list.zip'), {
      scrub_against: 'phone',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(202);
    await t.deps.jobs.drain();
    const [a] = await q(
      'select status, created, updated, result from import_attempts where id = (select max(id) from import_attempts where number = $1)',
      [res.body.id],
    );
    expect(a.status).toBe('completed');
    expect(a.result.attachments.matched.map((m: any) => m.file)).toEqual(['ada.pdf']);
    expect(a.result.attachments.unmatched).toEqual(['orphan.pdf']);
    expect(await count("select count(*)::int n from contacts where first_name = 'Bob' and last_name = 'Nofile'")).toBe(
      1,
    );
  });

  it('refuse what is not a ZIP, a ZIP without a list, agents of no rights', async () => {
    const notZip = await upload(agent, '/v1/contacts/import_attachments', fx('utf8.csv'));
    expect(notZip.body.errors.file).toEqual(['utf8.csv: attachments come as a ZIP file']);
    const fake = await upload(agent, '/v1/contacts/import_attachments', { name: 'x.zip', data: Buffer.from('hello') });
    expect(fake.body.errors.file).toEqual(['x.zip is not a real ZIP file']);
    const noList = await upload(agent, '/v1/contacts/attachments_leads_uploader', {
      name: 'files.zip',
      data: makeZip([{ name: 'a.pdf', data: 'x' }]),
    });
    expect(noList.status).toBe(422);
    expect(noList.body.errors.file).toEqual(['files.zip holds no CSV or XLSX list of contacts']);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await upload(basic, '/v1/contacts/import_attachments', fx('attachments.zip'))).status).toBe(403);
  });
});
