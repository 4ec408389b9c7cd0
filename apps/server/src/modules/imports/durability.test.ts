/**
 * Durability (issue 5): a server killed in the middle of an import resumes after restart, and after it every row
 * is there exactly once; importing the same file again creates no duplicates.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { processImport } from './job.js';
import { testDataDir, upload } from './test-helpers.js';

let t: TestApp;
let admin: Client;

const dataDir = testDataDir();

beforeAll(async () => {
  t = await createTestApp({ env: dataDir });
  admin = await signIn(t.app, DEMO('admin'));
});
afterAll(() => t.close());

const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
/** The path and replies name the company's attempt number; jobs and staging rows use the internal id. */
const internal = async (number: number) =>
  (await q<{ id: number }>('select max(id)::int as id from import_attempts where number = $1', [number]))[0].id;
const count = async (text: string, params: unknown[] = []) => (await q<{ n: number }>(text, params))[0].n;

const ROWS = 50;
const list = () => {
  const lines = ['First Name,Last Name,Phone,Email'];
  for (let i = 0; i < ROWS; i++) lines.push(`Dura${i},Ble,555-400-${String(i).padStart(4, '0')},dura${i}@example.com`);
  // Two rows repeat earlier ones: still written once.
  lines.push('Dura1,Ble,555-400-0001,dura1@example.com', 'Dura2,Ble,(555) 400-0002,');
  return { name: 'durable.csv', data: Buffer.from(`${lines.join('\n')}\n`) };
};
const written = () => count("select count(*)::int n from contacts where phone like '1555400%' and deleted_at is null");

it('a process killed mid-import resumes from its last whole chunk: every row exactly once', async () => {
  await t.deps.jobs.stop();
  const res = await upload(admin, '/v1/contacts/import', list(), {
    scrub_against: 'phone,email',
    tags: [{ name: 'Durable', color: 'teal' }],
  });
  expect(res.status).toBe(202);
  const attemptId = await internal(res.body.id);

  // A worker takes the job and dies right after its third chunk committed, before the job row heard of it.
  const job = await t.deps.jobs.claim();
  expect(job?.payload.attemptId).toBe(attemptId);
  let checkpoints = 0;
  const crash = processImport(
    t.deps,
    attemptId,
    {
      signal: new AbortController().signal,
      checkpoint: async () => {
        checkpoints++;
        if (checkpoints === 5) throw new Error('killed');
      },
    },
    { chunkRows: 7 },
  );
  await expect(crash).rejects.toThrow('killed');
  const partial = await written();
  expect(partial).toBe(21);
  const [mid] = await q('select status, processed, checkpoint from import_attempts where id = $1', [attemptId]);
  expect(mid.status).toBe('processing');
  expect(mid.checkpoint).toMatchObject({ phase: 'classified', lastRow: 22 });

  // The dead process left its job 'running' with a heartbeat that no longer moves; a new start requeues it.
  const [stuck] = await q('select status from jobs where id = $1', [job!.id]);
  expect(stuck.status).toBe('running');
  await q("update jobs set heartbeat_at = now() - interval '10 minutes' where id = $1", [job!.id]);
  t.deps.jobs.start();
  await t.deps.jobs.drain();

  const [done] = await q('select status, total, created, skipped, failed from import_attempts where id = $1', [
    attemptId,
  ]);
  expect(done).toEqual({ status: 'completed', total: ROWS + 2, created: ROWS, skipped: 2, failed: 0 });
  expect(await written()).toBe(ROWS);
  expect(await count("select count(distinct phone)::int n from contacts where phone like '1555400%'")).toBe(ROWS);
  expect(
    await count(
      `select count(*)::int n from contact_events e join contacts c on c.id = e.contact_id
       where c.phone like '1555400%' and e.kind = 'imported'`,
    ),
  ).toBe(ROWS);
  expect(
    await count(
      `select count(*)::int n from contact_tags ct join tags t on t.id = ct.tag_id
       join contacts c on c.id = ct.contact_id where t.name = 'Durable' and c.phone like '1555400%'`,
    ),
  ).toBe(ROWS);

  // The same file again: every row matches, nothing is created.
  const again = await upload(admin, '/v1/contacts/import', list(), { scrub_against: 'phone,email' });
  await t.deps.jobs.drain();
  const [second] = await q('select status, created, updated, unchanged from import_attempts where id = $1', [
    await internal(again.body.id),
  ]);
  // Nothing in the file is new for them: matched, left as they are, and said so.
  expect(second).toEqual({ status: 'completed', created: 0, updated: 0, unchanged: ROWS });
  expect(await written()).toBe(ROWS);
});

it('a stop (deploy, restart) is not a failure: the job goes back to the queue and finishes later', async () => {
  const before = await written();
  await t.deps.jobs.stop();
  const lines = ['Name,Phone'];
  for (let i = 0; i < 30; i++) lines.push(`Stop Me${i},555-401-${String(i).padStart(4, '0')}`);
  const res = await upload(admin, '/v1/contacts/import', { name: 'stop.csv', data: Buffer.from(lines.join('\n')) });
  const job = await t.deps.jobs.claim();
  const abort = new AbortController();
  let n = 0;
  const run = processImport(
    t.deps,
    await internal(res.body.id),
    {
      signal: abort.signal,
      checkpoint: async () => {
        if (++n === 3) abort.abort();
      },
    },
    { chunkRows: 5 },
  );
  await expect(run).rejects.toThrow('stopped');
  await q("update jobs set status = 'queued' where id = $1", [job!.id]);
  t.deps.jobs.start();
  await t.deps.jobs.drain();
  const [a] = await q('select status, created from import_attempts where id = $1', [await internal(res.body.id)]);
  expect(a).toEqual({ status: 'completed', created: 30 });
  expect(await count("select count(*)::int n from contacts where phone like '1555401%'")).toBe(30);
  expect(await written()).toBe(before);
});

it('the same list imported twice at once (a double click) creates each contact once', async () => {
  await t.deps.jobs.stop();
  const lines = ['First Name,Last Name,Phone,Email'];
  for (let i = 0; i < 40; i++)
    lines.push(`Twice${i},Clicked,555-402-${String(i).padStart(4, '0')},twice${i}@example.com`);
  const file = { name: 'twice.csv', data: Buffer.from(lines.join('\n')) };
  const a = await upload(admin, '/v1/contacts/import', file, { scrub_against: 'phone,email' });
  const b = await upload(admin, '/v1/contacts/import', file, { scrub_against: 'phone,email' });
  // Both classify before either writes (neither sees the other's contacts yet), then both write.
  let classified = 0;
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const ctx = () => {
    let n = 0;
    return {
      signal: new AbortController().signal,
      checkpoint: async () => {
        if (++n !== 2) return;
        if (++classified === 2) release();
        await gate;
      },
    };
  };
  await Promise.all([
    processImport(t.deps, await internal(a.body.id), ctx(), { chunkRows: 15 }),
    processImport(t.deps, await internal(b.body.id), ctx(), { chunkRows: 15 }),
  ]);
  const rows = await q('select created, updated, skipped from import_attempts where id in ($1, $2)', [
    await internal(a.body.id),
    await internal(b.body.id),
  ]);
  expect(rows.reduce((n, r) => n + Number(r.created), 0)).toBe(40);
  expect(rows.reduce((n, r) => n + Number(r.skipped), 0)).toBe(40);
  expect(await count("select count(*)::int n from contacts where phone like '1555402%'")).toBe(40);
  t.deps.jobs.start();
  await t.deps.jobs.drain();
});
