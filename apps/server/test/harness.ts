/**
 * Integration-test harness: a real database per test file (a copy of the migrated, seeded template), the real app
 * built from real wiring, and a cookie-keeping client that speaks to it through app.inject like a browser would
 * (session cookie, CSRF header).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { offsetMs } from '@harbor/shared';
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { devMails } from '../src/integrations/mail/schema.js';
import { type Database, openDatabase } from '../src/platform/db/client.js';
import type { Deps } from '../src/platform/deps.js';
import { closeDeps, wireDeps } from '../src/platform/wiring.js';
import { DEMO_PASSWORD } from '../src/seed/demo.js';
import { withDatabase } from './global-setup.js';
import { RESET_SQL } from './pglite-reuse.js';

export { DEMO_PASSWORD };

export interface TestApp {
  app: FastifyInstance;
  deps: Deps;
  database: Database;
  close(): Promise<void>;
}

/** Rate limits that would trip on a test's many requests from one address are raised unless a test sets them. */
const RELAXED_LIMITS = {
  sign_in: 100_000,
  password_reset: 100_000,
  send_otp: 100_000,
  public: 1_000_000,
  user: 1_000_000,
  api_key: 1_000_000,
};

export async function createTestApp(
  opts: {
    limits?: Record<string, number>;
    env?: Record<string, string>;
    /** Adjusts the configuration read from env (e.g. another web build directory). */
    configure?: (config: Config) => Config;
    /** Runs before app.ready(): tests add throwaway routes here (e.g. one that fails, to check 5xx bodies). */
    setup?: (app: FastifyInstance) => void;
    /** The clock of time-of-day rules (deps.clock), e.g. one shifted to a chosen local hour. */
    clock?: () => Date;
  } = {},
): Promise<TestApp> {
  const { database, drop } = await openTestDatabase();
  const redis = process.env.TEST_REDIS_URL;
  const loaded = loadConfig({
    NODE_ENV: 'test',
    APP_URL: 'http://localhost:3000',
    // With Redis the bus is pub/sub and jobs go through BullMQ, on a queue of this test database's own.
    ...(redis ? { REDIS_URL: redis, JOBS_QUEUE: `harbor-test-${crypto.randomBytes(6).toString('hex')}` } : {}),
    // The session cache is off under test (tests write behind the app's back); TEST_SESSION_CACHE_MS turns it on
    // for a whole run, to check that every write through the API invalidates what it must.
    ...(process.env.TEST_SESSION_CACHE_MS ? { SESSION_CACHE_MS: process.env.TEST_SESSION_CACHE_MS } : {}),
    ...opts.env,
  });
  const config = opts.configure ? opts.configure(loaded) : loaded;
  const deps = await wireDeps(config, database, { ...RELAXED_LIMITS, ...opts.limits });
  if (opts.clock) deps.clock = opts.clock;
  // Rate limits count in Redis once it is connected and locally before: a test's first requests must not be split.
  await deps.redis?.whenReady();
  const app = await buildApp(deps);
  opts.setup?.(app);
  await app.ready();
  deps.jobs.start();
  return {
    app,
    deps,
    database,
    async close() {
      await app.close();
      await closeDeps(deps);
      await drop();
    },
  };
}

/** The template snapshot, read once per worker (its files share one module graph) rather than once per test app. */
let template: { file: string; blob: Blob } | undefined;
function templateBlob(): Blob {
  const file = inject('templateFile');
  if (template?.file !== file) template = { file, blob: new Blob([fs.readFileSync(file)]) };
  return template.blob;
}

/**
 * Embedded copies reset to the template and free for this worker's next test file (pglite-reuse.ts): at most two,
 * since a few files hold a second app (and database) beside their first.
 */
const idle: Database[] = [];
const MAX_IDLE = 2;

/** A database of the test's own: a copy of the migrated, seeded template. `drop` removes it (server only). */
export async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = process.env.TEST_DATABASE_URL;
  if (url) {
    const name = `harbor_test_${crypto.randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${inject('templateDb')}`);
    // A test's commits need not wait for the WAL to reach the disk: the database is thrown away, and only a crash of
    // the server itself could lose them. The PostgreSQL pass alone: 230/202 s -> 206/188 s, alternated.
    await admin.query(`ALTER DATABASE ${name} SET synchronous_commit = off`);
    await admin.end();
    const database = await openDatabase({ databaseUrl: withDatabase(url, name) });
    return {
      database,
      drop: async () => {
        const a = new pg.Client({ connectionString: url });
        await a.connect();
        await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await a.end();
      },
    };
  }
  const database = idle.pop() ?? (await openDatabase({ loadDataDir: templateBlob() }));
  let dropped = false;
  return {
    // The app's shutdown (closeDeps) closes its database: this copy stays open for the next file instead.
    database: { ...database, close: async () => {} },
    drop: async () => {
      if (dropped) return;
      dropped = true;
      try {
        await database.query(RESET_SQL);
        if (idle.length < MAX_IDLE) idle.push(database);
        else await database.close();
      } catch {
        await database.close().catch(() => {});
      }
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, string | string[] | number | undefined>;
}

/** A browser-like client: keeps cookies, echoes the CSRF cookie as X-CSRF-Token on state-changing requests. */
export class Client {
  readonly cookies = new Map<string, string>();
  csrf = true;
  /** The address requests come from (app.inject's remoteAddress); 127.0.0.1 unless a test sets one. */
  ip: string | undefined;
  constructor(readonly app: FastifyInstance) {}

  async request<T = any>(
    method: string,
    url: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Reply<T>> {
    if (!this.cookies.has('csrf_token') && method !== 'GET') await this.request('GET', '/v1/health');
    const h: Record<string, string> = { ...headers };
    if (this.cookies.size) h.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.csrf && method !== 'GET' && this.cookies.has('csrf_token'))
      h['x-csrf-token'] = this.cookies.get('csrf_token')!;
    const res = await this.app.inject({
      method: method as 'GET',
      url,
      headers: h,
      ...(this.ip ? { remoteAddress: this.ip } : {}),
      ...(body === undefined ? {} : { payload: body as object }),
    });
    for (const c of res.cookies) {
      if (c.value === '' || (c.maxAge !== undefined && c.maxAge <= 0)) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
    const text = res.body;
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* non-JSON bodies (HTML, CSV) stay text */
    }
    return { status: res.statusCode, body: parsed as T, headers: res.headers };
  }
  get<T = any>(url: string) {
    return this.request<T>('GET', url);
  }
  post<T = any>(url: string, body?: unknown) {
    return this.request<T>('POST', url, body ?? {});
  }
  patch<T = any>(url: string, body?: unknown) {
    return this.request<T>('PATCH', url, body ?? {});
  }
  put<T = any>(url: string, body?: unknown) {
    return this.request<T>('PUT', url, body ?? {});
  }
  delete<T = any>(url: string, body?: unknown) {
    return this.request<T>('DELETE', url, body);
  }
}

/** Signs in with the demo password (or the one given) and answers the client, asserting success. */
export async function signIn(app: FastifyInstance, email: string, password = DEMO_PASSWORD): Promise<Client> {
  const client = new Client(app);
  const res = await client.post('/v1/sessions', { email, password });
  if (res.status !== 200 || !res.body.user) {
    throw new Error(`sign-in as ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return client;
}

/**
 * A clock running at real speed but shifted so that it is now `hh:mm` in `zone`: a test of a time-of-day rule picks
 * the hour it is about instead of depending on when it runs.
 */
export function clockAt(zone: string, hh: number, mm = 0): () => Date {
  const wall = new Date(Date.now() + offsetMs(new Date(), zone));
  const local = wall.getUTCHours() * 60 + wall.getUTCMinutes();
  const shift = ((((hh * 60 + mm - local) % 1440) + 1440) % 1440) * 60_000;
  return () => new Date(Date.now() + shift);
}

export const DEMO = (role: string) => `${role}@demo.harbor.test`;
export const RECRUIT = (role: string) => `${role}@recruit.harbor.test`;

/**
 * The newest mail the local stand-in stored for `to` whose subject matches, waiting for it: mail sent by a job or
 * without awaiting arrives a moment after the request that caused it.
 */
export async function waitForMail(t: TestApp, to: string, subject: RegExp) {
  // Mail goes out from a durable job: allow a loaded 2-core runner 20 s before calling it lost.
  for (let i = 0; i < 800; i++) {
    const [m] = await t.database.db
      .select()
      .from(devMails)
      .where(eq(devMails.to, to))
      .orderBy(desc(devMails.id))
      .limit(1);
    if (m && subject.test(m.subject)) return m;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}

/** The first truthy answer of `probe`, asked every 40 ms (work done by jobs and callbacks lands a moment later). */
export async function until<T>(
  probe: () => Promise<T | null | undefined | false>,
  what: string,
  ms = 15_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 40));
  }
}
