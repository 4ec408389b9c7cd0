import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/platform/db/client.js';
import { companies, users } from '../src/platform/db/schema.js';
import { userStream } from '../src/platform/live/channels.js';
import { closeDeps, wireDeps } from '../src/platform/wiring.js';
import { seedDemoIfEmpty } from '../src/seed/demo.js';
import { Client, createTestApp, DEMO, openTestDatabase, signIn, type TestApp } from './harness.js';

let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await createTestApp({
    setup: (app) => {
      // A route that fails the way a bug would: its 500 must not leak the message or the stack.
      app.get('/v1/test/boom', { config: { access: 'public' } }, async () => {
        throw new Error('secret internals: password=hunter2 at /srv/app.ts:42');
      });
    },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const addr = t.app.server.address() as { port: number };
  base = `127.0.0.1:${addr.port}`;
});
afterAll(() => t.close());

describe('errors', () => {
  it('answers unknown /v1 paths with a JSON 404 in the error shape', async () => {
    const res = await new Client(t.app).get('/v1/no/such/route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: { path: ['No route for GET /v1/no/such/route'] } });
  });

  it('hides internals in a 500', async () => {
    const res = await new Client(t.app).get('/v1/test/boom');
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|secret|stack|app\.ts/);
    expect(res.body.errors.server).toHaveLength(1);
  });
});

describe('start-up', () => {
  it('refuses to start when a route declares no access', async () => {
    // A copy of the seeded template, not a fresh embedded database (an initdb: 60 s on a starved core in CI).
    const { database, drop } = await openTestDatabase();
    const deps = await wireDeps(loadConfig({ NODE_ENV: 'test' }), database);
    const app = await buildApp(deps);
    app.get('/v1/forgotten', async () => 'x');
    await expect(app.ready()).rejects.toThrow(/without a declared access.*\/v1\/forgotten/);
    await closeDeps(deps);
    await drop();
  });

  it('serves the OpenAPI document generated from the route schemas, and health', async () => {
    const doc = (await new Client(t.app).get('/v1/openapi.json')).body;
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/v1/sessions'].post.requestBody).toBeDefined();
    expect(doc.paths['/v1/users/me'].get).toBeDefined();
    const health = await new Client(t.app).get('/v1/health');
    expect(health.body).toMatchObject({ status: 'ok' });
    expect(String(health.headers['set-cookie'])).toMatch(/csrf_token=/);
  });

  it('keeps the embedded data across a stop and start, and seeds the demo only into a new database', {
    timeout: 180_000,
  }, async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-persist-'));
    const first = await openDatabase({ dataDir: dir });
    await first.migrate();
    expect(await seedDemoIfEmpty(first.db)).toBe(true);
    await first.db.update(users).set({ firstName: 'Persisted' });
    await first.close();
    const second = await openDatabase({ dataDir: dir });
    await second.migrate();
    expect(await seedDemoIfEmpty(second.db)).toBe(false);
    const [{ n }] = await second.db.select({ n: count() }).from(companies);
    expect(n).toBe(2);
    const [u] = await second.db.select().from(users).limit(1);
    expect(u.firstName).toBe('Persisted');
    await second.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('does not seed demo data when a database server is configured without HARBOR_DEMO', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y' }).demo).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://x/y', HARBOR_DEMO: '1' }).demo).toBe(true);
    expect(loadConfig({}).demo).toBe(true);
  });
});

function openCable(
  cookie: string | null,
  origin: string | null,
): Promise<{ ws: WebSocket; frames: any[]; status?: number }> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = {};
    if (cookie) headers.cookie = cookie;
    if (origin) headers.origin = origin;
    const ws = new WebSocket(`ws://${base}/cable`, { headers });
    const frames: any[] = [];
    ws.on('message', (m) => frames.push(JSON.parse(String(m))));
    ws.on('open', () => resolve({ ws, frames }));
    ws.on('unexpected-response', (_req, res) => resolve({ ws, frames, status: res.statusCode }));
  });
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(cond()).toBe(true);
};

describe('live connection /cable', () => {
  it('refuses a connection without a session (401) and from a foreign origin (403)', async () => {
    expect((await openCable(null, `http://${base}`)).status).toBe(401);
    const c = await signIn(t.app, DEMO('agent'));
    const cookie = `harbor_session=${c.cookies.get('harbor_session')}`;
    expect((await openCable(cookie, 'http://evil.example')).status).toBe(403);
    expect((await openCable(cookie, null)).status).toBe(403);
  });

  it('welcomes, confirms a subscription, delivers the user stream, validates it, rejects unknown channels', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const me = (await c.get('/v1/users/me')).body;
    const { ws, frames } = await openCable(`harbor_session=${c.cookies.get('harbor_session')}`, `http://${base}`);
    await until(() => frames.some((f) => f.type === 'welcome'));
    const identifier = JSON.stringify({ channel: 'NotificationsChannel' });
    ws.send(JSON.stringify({ command: 'subscribe', identifier }));
    await until(() => frames.some((f) => f.type === 'confirm_subscription' && f.identifier === identifier));
    await t.deps.bus.publish(userStream(me.id), { title: 'New Message', body: 'hello' });
    await t.deps.bus.publish(userStream(me.id + 1000), { title: 'not for you' });
    await until(() => frames.some((f) => f.message?.title === 'New Message'));
    ws.send(JSON.stringify({ command: 'message', identifier, data: JSON.stringify({ action: 'validate_stream' }) }));
    await until(() => frames.some((f) => f.message?.action === 'validate_stream' && f.message.valid === true));
    const unknown = JSON.stringify({ channel: 'NoSuchChannel' });
    ws.send(JSON.stringify({ command: 'subscribe', identifier: unknown }));
    await until(() => frames.some((f) => f.type === 'reject_subscription' && f.identifier === unknown));
    expect(frames.some((f) => f.message?.title === 'not for you')).toBe(false);
    ws.close();
  });

  it("replays to a late subscriber its own running and lately finished imports, not older or other people's", async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const who = (email: string) =>
      t.database.query<{ id: number; company_id: number }>('select id, company_id from users where email = $1', [
        email,
      ]);
    const [me] = await who(DEMO('agent'));
    const [other] = await who(DEMO('admin'));
    const insert = (user: number, file: string, status: string, age: string) =>
      t.database.query(
        `insert into import_attempts (company_id, user_id, status, file_name, total, processed, created, updated_at)
         values ($1, $2, $3, $4, 3, 3, 3, now() - $5::interval)`,
        [me.company_id, user, status, file, age],
      );
    await insert(me.id, 'late-done.csv', 'completed', '5 seconds');
    await insert(me.id, 'long-ago.csv', 'completed', '2 hours');
    await insert(me.id, 'still-running.csv', 'processing', '2 hours');
    await insert(other.id, 'not-mine.csv', 'completed', '5 seconds');
    const { ws, frames } = await openCable(`harbor_session=${c.cookies.get('harbor_session')}`, `http://${base}`);
    await until(() => frames.some((f) => f.type === 'welcome'));
    const identifier = JSON.stringify({ channel: 'ContactsImportChannel' });
    ws.send(JSON.stringify({ command: 'subscribe', identifier }));
    await until(() => frames.some((f) => f.message?.file_name === 'still-running.csv'));
    const files = frames.filter((f) => f.identifier === identifier && f.message).map((f) => f.message.file_name);
    expect(files.sort()).toEqual(['late-done.csv', 'still-running.csv']);
    expect(frames.find((f) => f.message?.file_name === 'late-done.csv').message).toMatchObject({
      status: 'completed',
      created: 3,
      total: 3,
    });
    ws.close();
  });
});

describe('jobs', () => {
  it('runs an enqueued job to done and retries a failing one until it fails for good', async () => {
    const seen: number[] = [];
    t.deps.jobs.register('test.ok', async ({ job }) => {
      seen.push(job.id);
    });
    t.deps.jobs.register('test.fail', async () => {
      throw new Error('always');
    });
    const ok = await t.deps.jobs.enqueue('test.ok', {});
    const bad = await t.deps.jobs.enqueue('test.fail', {}, { maxAttempts: 1 });
    await t.deps.jobs.drain();
    expect(seen).toEqual([ok]);
    const rows = await t.database.query<{ id: string; status: string; error: string | null }>(
      'select id, status, error from jobs where id = any($1::bigint[]) order by id',
      [[ok, bad]],
    );
    expect(rows.map((r) => r.status)).toEqual(['done', 'failed']);
    expect(rows[1].error).toBe('always');
  });

  it('re-queues a job whose process died (stale heartbeat) and resumes it from its checkpoint', async () => {
    const resumedFrom: unknown[] = [];
    t.deps.jobs.register('test.resume', async ({ job, checkpoint }) => {
      resumedFrom.push(job.progress.done ?? 0);
      await checkpoint({ done: 10 });
    });
    const [row] = await t.database.query<{ id: string }>(
      `insert into jobs (name, status, attempts, progress, heartbeat_at, locked_by)
       values ('test.resume', 'running', 1, '{"done": 5}', now() - interval '5 minutes', 'dead-process') returning id`,
    );
    await t.deps.jobs.drain();
    expect(resumedFrom).toEqual([5]);
    const [after] = await t.database.query<{ status: string }>('select status from jobs where id = $1', [row.id]);
    expect(after.status).toBe('done');
  });
});
