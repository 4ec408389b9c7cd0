/**
 * ZIP attachments as contact files: keys the storage port accepts (download and delete work, the old keys too), the
 * same rules as a direct upload, caps on the whole upload, the company's quota, and nothing orphaned (the sweeper).
 */
import fs, { utimesSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { releaseBlobs, storeBlob } from '../../platform/files/blobs.js';
import { enqueueSweep } from '../../platform/files/sweeper.js';
import { zipBuffer } from '../../platform/files/test-zip.js';
import { fx, testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let agent: Client;
const dataDir = testDataDir();
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const one = async <T = Record<string, any>>(text: string, params: unknown[] = []) => (await q<T>(text, params))[0];
let company: number;
let ada: { id: number; number: number };

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  agent = await signIn(t.app, DEMO('agent'));
  const res = await upload(agent, '/v1/contacts/import', fx('utf8.csv'));
  expect(res.status).toBe(202);
  await t.deps.jobs.drain();
  ada = await one("select id, number from contacts where email = 'ada@example.com' and deleted_at is null");
  company = (await one('select company_id from users where email = $1', [DEMO('agent')])).company_id;
});
afterAll(() => t.close());

const usage = async () =>
  Number((await one('select used_bytes from storage_usage where company_id = $1', [company]))?.used_bytes ?? 0);
const blobFile = (key: string) => path.join(dataDir.DATA_DIR, 'files', key);
const attach = (name: string, parts: Parameters<typeof zipBuffer>[0]) =>
  upload(agent, '/v1/contacts/import_attachments', { name, data: zipBuffer(parts) });
const filesOf = async (number: number) => (await agent.get(`/v1/contacts/${number}/files`)).body.data as any[];

describe('import_attachments', () => {
  it('stores files under keys the storage takes: they download, delete, count and release', async () => {
    const before = await usage();
    const res = await upload(agent, '/v1/contacts/import_attachments', fx('attachments.zip'));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.refused).toEqual([]);
    const [file] = (await filesOf(ada.number)).filter((f) => f.name === 'ada@example.com.pdf');
    const row = await one('select storage_key, size from contact_files where id = $1', [file.id]);
    expect(row.storage_key).toMatch(new RegExp(`^contacts/${company}/${ada.id}/[0-9a-f-]{36}$`));
    expect(await usage()).toBe(before + 12 + 11);
    expect(
      await one("select count(*)::int n from contact_events where contact_id = $1 and kind = 'file_uploaded'", [
        ada.id,
      ]),
    ).toEqual({ n: 1 });
    const dl = await agent.get(file.download_url);
    expect(dl.status).toBe(200);
    expect(dl.body).toBe('%PDF-1.4 ada');
    expect((await agent.delete(`/v1/contacts/${ada.number}/files/${file.id}`)).status).toBe(204);
    expect(fs.existsSync(blobFile(row.storage_key))).toBe(false);
    expect(await one('select count(*)::int n from stored_blobs where key = $1', [row.storage_key])).toEqual({ n: 0 });
    expect(await usage()).toBe(before + 11);
  });

  it('files attached by the first version (keys like 1/<uuid>-name.pdf) download and delete', async () => {
    const key = `${company}/0b5d2c7e-8a44-4a51-9a7e-3f1c2d9e8b10-Old_Scan.v2.pdf`;
    fs.mkdirSync(path.dirname(blobFile(key)), { recursive: true });
    fs.writeFileSync(blobFile(key), '%PDF-1.4 old');
    const { id } = await one(
      `insert into contact_files (company_id, contact_id, name, content_type, size, storage_key, uploaded_by)
       select $1, $2, 'Old Scan.v2.pdf', 'application/pdf', 12, $3, id from users where email = $4 returning id`,
      [company, ada.id, key, DEMO('agent')],
    );
    const dl = await agent.get(`/v1/contacts/${ada.number}/files/${id}/download`);
    expect([dl.status, dl.body]).toEqual([200, '%PDF-1.4 old']);
    expect((await agent.delete(`/v1/contacts/${ada.number}/files/${id}`)).status).toBe(204);
    expect(fs.existsSync(blobFile(key))).toBe(false);
  });

  it('applies the rules of a direct upload: kinds, content, repeated names; a taken name gets a number', async () => {
    const pdf = '%PDF-1.4 again';
    const res = await attach('mixed.zip', [
      { name: 'ada@example.com.pdf', data: pdf },
      { name: 'docs/ada@example.com.pdf', data: pdf },
      { name: 'ada@example.com.pdf', data: '%PDF-1.4 a second copy under the same name' },
      { name: 'grace@example.com.pdf', data: 'not a pdf at all' },
      { name: 'ada@example.com.zip', data: zipBuffer([{ name: 'inner.pdf', data: pdf }]) },
      { name: 'alan@example.com.exe', data: 'MZ' },
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.matched.map((m: any) => m.file).sort()).toEqual([
      'ada@example.com.pdf',
      'docs/ada@example.com.pdf',
    ]);
    expect(res.body.refused).toEqual([
      { file: 'ada@example.com.pdf', reason: 'appears more than once in the ZIP; the first copy was used' },
      { file: 'ada@example.com.zip', reason: expect.stringMatching(/^is not a kind of file a contact can hold/) },
      { file: 'alan@example.com.exe', reason: expect.stringMatching(/^is not a kind of file a contact can hold/) },
      { file: 'grace@example.com.pdf', reason: 'content is not a valid .pdf file' },
    ]);
    const names = (await filesOf(ada.number)).map((f) => f.name).sort();
    expect(names).toEqual(['ada@example.com (2).pdf', 'ada@example.com.pdf']);
  });

  it('a ZIP of nothing attachable (nested archives, oversized bombs) is a 422, before anything is unpacked', async () => {
    const nested = await attach('nested.zip', [
      {
        name: 'ada@example.com.zip',
        data: zipBuffer([{ name: 'x.zip', data: zipBuffer([{ name: 'y.pdf', data: '%PDF' }]) }]),
      },
    ]);
    expect(nested.status).toBe(422);
    expect(nested.body.errors.file[0]).toMatch(
      /^nested.zip holds no file that can be attached: ada@example.com.zip is not a kind/,
    );
    // The case: 20 zero-filled entries of 49 MB each, 1 MB of ZIP.
    const blobs = fs.readdirSync(path.join(dataDir.DATA_DIR, 'files'), { recursive: true }).length;
    // Its time is measured in bench/hostile-files.ts, not here: a test that times itself fails on a busy machine.
    const bomb = await attach(
      'zeros.zip',
      Array.from({ length: 20 }, (_, i) => ({
        name: `ada@example.com-${i}.pdf`,
        repeat: { unit: Buffer.alloc(1 << 20), times: 49 },
      })),
    );
    expect(bomb.status).toBe(422);
    expect(bomb.body.errors.file[0]).toMatch(/is 49 MB unpacked; a contact file can be at most 25 MB \(and 19 more\)$/);
    expect(fs.readdirSync(path.join(dataDir.DATA_DIR, 'files'), { recursive: true }).length).toBe(blobs);
  });

  it('over the total per upload, or the company quota: 413 and nothing stored', async () => {
    const blobs = Number((await one('select count(*)::int n from stored_blobs')).n);
    const txt = (n: number) => 'x'.repeat(n);
    process.env.ATTACHMENTS_MAX_MB = '1';
    try {
      const res = await attach('two.zip', [
        { name: 'ada@example.com.txt', data: txt(600_000) },
        { name: 'grace@example.com.txt', data: txt(600_000) },
      ]);
      expect(res.status).toBe(413);
      expect(res.body.errors.file).toEqual([
        'The files to attach unpack to 1.1 MB; one upload can attach at most 1 MB',
      ]);
    } finally {
      delete process.env.ATTACHMENTS_MAX_MB;
    }
    const used = await usage();
    await q('update storage_usage set quota_bytes = $2 where company_id = $1', [company, used + 100]);
    try {
      const res = await attach('quota.zip', [{ name: 'ada@example.com.txt', data: txt(1000) }]);
      expect(res.status).toBe(413);
      expect(res.body.errors.file[0]).toMatch(/^would take your company's files past its storage quota/);
      const direct = await agent.request(
        'POST',
        `/v1/contacts/${ada.number}/files`,
        ...multipartFile('a.txt', txt(1000)),
      );
      expect(direct.status).toBe(413);
      // What fits still goes in.
      expect(
        (await agent.request('POST', `/v1/contacts/${ada.number}/files`, ...multipartFile('b.txt', txt(90)))).status,
      ).toBe(201);
    } finally {
      await q('update storage_usage set quota_bytes = null where company_id = $1', [company]);
    }
    expect(Number((await one('select count(*)::int n from stored_blobs')).n)).toBe(blobs + 1);
    expect(await usage()).toBe(used + 90);
  });

  it('attachments_leads_uploader refuses a list over the list size limit with a 413 (was a 500)', async () => {
    process.env.IMPORT_MAX_MB = '1';
    try {
      const list = `First Name,Last Name,Phone\n${'Ada,Lovelace,5552010001\n'.repeat(60_000)}`;
      const res = await upload(agent, '/v1/contacts/attachments_leads_uploader', {
        name: 'leads.zip',
        data: zipBuffer([{ name: 'leads.csv', data: list }]),
      });
      expect(res.status).toBe(413);
      expect(res.body.errors.file).toEqual(['leads.csv in leads.zip unpacks to more than 1 MB, the most that is read']);
    } finally {
      delete process.env.IMPORT_MAX_MB;
    }
    expect(fs.readdirSync(path.join(dataDir.DATA_DIR, 'imports'))).toEqual([]);
  });
});

function multipartFile(name: string, content: string): [unknown, Record<string, string>] {
  const b = 'harborQuota';
  const body = Buffer.from(
    `--${b}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${content}\r\n--${b}--\r\n`,
  );
  return [body, { 'content-type': `multipart/form-data; boundary=${b}` }];
}

describe('the orphan sweeper', () => {
  it('removes blobs a crash left without a record, or with a deleted one, and uploads no attempt needs', async () => {
    const used = await usage();
    // A crash after the blob was written, before its record: reserved, then nothing.
    const key = `contacts/${company}/${ada.id}/00000000-0000-4000-8000-000000000001`;
    await storeBlob(t.deps, {
      companyId: company,
      key,
      data: Buffer.from('%PDF-1.4 orphan'),
      contentType: 'application/pdf',
    });
    expect(await usage()).toBe(used + 15);
    // A crash after the record was deleted (its bytes released in that transaction), before the blob.
    const res = await agent.request(
      'POST',
      `/v1/contacts/${ada.number}/files`,
      ...multipartFile('c.txt', 'deleted soon'),
    );
    const gone = await one('select storage_key from contact_files where id = $1', [res.body.id]);
    await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`delete from contact_files where id = ${res.body.id}`);
      await releaseBlobs(tx, [gone.storage_key]);
    });
    // An upload of a process that died before it made an attempt, and one a failed attempt keeps for its retry.
    const uploads = path.join(dataDir.DATA_DIR, 'imports');
    fs.mkdirSync(uploads, { recursive: true });
    const old = (name: string) => {
      fs.writeFileSync(path.join(uploads, name), 'a,b\n1,2\n');
      const twoDays = new Date(Date.now() - 2 * 86_400_000);
      utimesSync(path.join(uploads, name), twoDays, twoDays);
    };
    old('dead.csv');
    old('retry.csv');
    await q(
      `insert into import_attempts (company_id, user_id, status, file_name, file_path)
       select company_id, id, 'failed', 'retry.csv', $1 from users where email = $2`,
      [path.join(uploads, 'retry.csv'), DEMO('agent')],
    );

    // Young rows may belong to a request still at work: the first sweep leaves them.
    await enqueueSweep(t.deps);
    await t.deps.jobs.drain();
    expect(fs.existsSync(blobFile(key))).toBe(true);
    expect(fs.existsSync(blobFile(gone.storage_key))).toBe(true);
    expect(fs.readdirSync(uploads).sort()).toEqual(['retry.csv']);

    await q("update stored_blobs set updated_at = now() - interval '2 hours' where key in ($1, $2)", [
      key,
      gone.storage_key,
    ]);
    expect(await enqueueSweep(t.deps)).not.toBeNull();
    await t.deps.jobs.drain();
    expect(fs.existsSync(blobFile(key))).toBe(false);
    expect(fs.existsSync(blobFile(gone.storage_key))).toBe(false);
    expect(await one("select count(*)::int n from stored_blobs where state <> 'live'")).toEqual({ n: 0 });
    expect(await usage()).toBe(used);
    const [job] = await q("select progress from jobs where name = 'files.sweep' order by id desc limit 1");
    expect(job.progress).toMatchObject({ blobs: { pending: 1, deleting: 1, failed: 0 }, import_uploads: 0 });
  });
});
