/**
 * Real-HTTP bench harness, shared by the HTTP benches (bench/http.ts, the contacts list bench): a seeded PostgreSQL
 * server database (1M contacts by default, VACUUM ANALYZE after seeding: autovacuum is off on the CI server), the
 * real server started as its own process (`apps/server/src/main.ts`, so the load generator never shares its event
 * loop), sessions signed in over HTTP, autocannon load at a number of connections, and figures printed beside their
 * goals with pass/fail.
 *
 *   const db = await benchDatabase();                      // BENCH_CONTACTS, BENCH_DB, BENCH_REUSE, BENCH_KEEP
 *   const server = await startServer({ databaseUrl: db.url });
 *   const sessions = await signInMany(server.url, ['user3@bench.harbor.test', ...]);
 *   const r = await load({ url: server.url, path: '/v1/users/me', sessions, connections: 10 });
 *   verdicts.push(atLeast('GET /v1/users/me req/s @10', r.rps, 3000, 'req/s'));
 *   printVerdicts(verdicts); await server.stop(); await db.done();
 */
import fs from 'node:fs';
import autocannon from 'autocannon';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/platform/db/client.js';
import { type ServerProcess, startServerProcess } from '../apps/server/test/server-process.js';
import { BENCH_PASSWORD, copyContacts, type Seeded, seedCompany } from './contacts-seed.js';

export const BASE_DATABASE_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';

/** Bench users (contacts-seed.ts): user1 is the admin, user2..user41 managers in a tree, user42..user200 agents. */
export const benchEmail = (n: number) => `user${n}@bench.harbor.test`;
export const MANAGERS = Array.from({ length: 20 }, (_, i) => benchEmail(3 + i));
export const AGENTS = Array.from({ length: 20 }, (_, i) => benchEmail(42 + i));

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

export interface BenchDatabase {
  url: string;
  name: string;
  seeded: Seeded;
  /** Drops the database unless BENCH_KEEP=1. */
  done(): Promise<void>;
}

/**
 * A database of its own on the server holding the bench company and `contacts` contacts. BENCH_REUSE=1 with a
 * database kept by BENCH_KEEP=1 skips the seeding (minutes at 1M).
 */
export async function benchDatabase(
  opts: { contacts?: number; name?: string; reuse?: boolean; keep?: boolean } = {},
): Promise<BenchDatabase> {
  const contacts = opts.contacts ?? Number(process.env.BENCH_CONTACTS ?? 1_000_000);
  const name = opts.name ?? process.env.BENCH_DB ?? 'harbor_bench_http';
  const keep = opts.keep ?? process.env.BENCH_KEEP === '1';
  const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  const reuse = (opts.reuse ?? process.env.BENCH_REUSE === '1') && exists;
  const url = withDb(BASE_DATABASE_URL, name);
  if (!reuse) {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
  }
  const database = await openDatabase({ databaseUrl: url });
  let seeded: Seeded;
  try {
    await database.migrate();
    if (reuse) {
      seeded = await readSeeded(database.query.bind(database));
      console.log(`database ${name}: reused (BENCH_REUSE=1)`);
    } else {
      const t0 = performance.now();
      seeded = await seedCompany(database);
      await copyContacts(url, seeded, contacts);
      console.log(
        `database ${name}: seeded ${contacts.toLocaleString()} contacts in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    // Autovacuum is off on the CI server: statistics and the visibility map are ours to keep fresh.
    await database.query('vacuum analyze');
  } finally {
    await database.close();
  }
  return {
    url,
    name,
    seeded,
    async done() {
      if (!keep) await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

async function readSeeded(q: <T>(text: string, params?: unknown[]) => Promise<T[]>): Promise<Seeded> {
  const ids = async (text: string, params: unknown[]) =>
    (await q<{ id: number }>(text, params)).map((r) => Number(r.id));
  const [companyId] = await ids(`select id from companies where domain_name = 'bench.harbor.test'`, []);
  if (companyId === undefined) throw new Error('the kept database holds no bench company: run without BENCH_REUSE');
  const of = (table: string) => ids(`select id from ${table} where company_id = $1 order by id`, [companyId]);
  return { companyId, userIds: await of('users'), statusIds: await of('statuses'), sourceIds: await of('sources') };
}

export type RunningServer = ServerProcess;

/** CPU seconds a process has used (user + system), from /proc: what it spent, whatever else the machine ran. */
export function cpuOf(pid: number | undefined): number {
  try {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/**
 * The per-user ceiling is raised for benches: one simulated person per connection sends hundreds of requests a
 * second, which the ceiling exists to stop. The limiter still runs (and costs what it costs) on every request.
 */
export const BENCH_RATE_LIMITS = 'user=1000000000,sign_in=1000000';

/**
 * Starts `apps/server/src/main.ts` as a process of its own on a free port, in production mode (no demo seed, no
 * development inbox), and waits until /v1/health answers. `env` adds or overrides variables (REDIS_URL, ...).
 */
export function startServer(opts: { databaseUrl: string; env?: Record<string, string> }): Promise<RunningServer> {
  return startServerProcess({
    NODE_ENV: 'production',
    HARBOR_ENV: 'production',
    SECRET_KEY: 'bench-secret-key-0123456789abcdef0123456789',
    DATABASE_URL: opts.databaseUrl,
    HARBOR_DEMO: '0',
    RATE_LIMITS: BENCH_RATE_LIMITS,
    ...opts.env,
  });
}

/** The headers a signed-in browser sends: session and CSRF cookies, and the CSRF token echoed. */
export interface BenchSession {
  email: string;
  headers: Record<string, string>;
}

function cookiesOf(res: Response, jar: Map<string, string>) {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i).trim(), pair.slice(i + 1).trim());
  }
}

export async function signInHttp(baseUrl: string, email: string, password = BENCH_PASSWORD): Promise<BenchSession> {
  const jar = new Map<string, string>();
  cookiesOf(await fetch(`${baseUrl}/v1/health`), jar);
  const headers = () => ({
    cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': jar.get('csrf_token') ?? '',
  });
  const res = await fetch(`${baseUrl}/v1/sessions`, {
    method: 'POST',
    headers: { ...headers(), 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (res.status !== 200) throw new Error(`sign-in ${email}: ${res.status} ${await res.text()}`);
  cookiesOf(res, jar);
  return { email, headers: headers() };
}

export async function signInMany(baseUrl: string, emails: string[]): Promise<BenchSession[]> {
  const out: BenchSession[] = [];
  // Two at a time: each sign-in is an argon2 verification (~75 ms of a core).
  for (let i = 0; i < emails.length; i += 2) {
    out.push(...(await Promise.all(emails.slice(i, i + 2).map((e) => signInHttp(baseUrl, e)))));
  }
  return out;
}

/**
 * BENCH_ACCEPT_ENCODING=br (or 'gzip, deflate, br' as a browser sends) measures with response compression; by
 * default replies go out uncompressed, so the figures are those of the request path itself.
 */
const ACCEPT_ENCODING = process.env.BENCH_ACCEPT_ENCODING ?? '';

export interface LoadResult {
  /** Mean requests per second over the measured run. */
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  /** Responses that were not 2xx, plus connection errors and timeouts. */
  failures: number;
  statuses: Record<string, number>;
}

/**
 * Drives `path` with autocannon at `connections`; connection i sends as sessions[i % n], so a run is many people
 * of an office rather than one browser. A short warm-up is run first and not counted.
 */
export async function load(opts: {
  url: string;
  path: string;
  method?: 'GET' | 'PATCH' | 'POST';
  body?: unknown;
  sessions: BenchSession[];
  connections: number;
  durationSec?: number;
  warmupSec?: number;
}): Promise<LoadResult> {
  const duration = opts.durationSec ?? Number(process.env.BENCH_DURATION ?? 10);
  const warmup = opts.warmupSec ?? Number(process.env.BENCH_WARMUP ?? 2);
  const body = opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const run = (seconds: number) => {
    let n = 0;
    const statuses: Record<string, number> = {};
    return new Promise<{ result: autocannon.Result; statuses: Record<string, number> }>((resolve, reject) => {
      const instance = autocannon(
        {
          url: `${opts.url}${opts.path}`,
          method: opts.method ?? 'GET',
          connections: opts.connections,
          duration: seconds,
          body,
          setupClient: (client) => {
            const s = opts.sessions[n++ % opts.sessions.length];
            client.setHeaders({
              ...s.headers,
              ...(body ? { 'content-type': 'application/json' } : {}),
              ...(ACCEPT_ENCODING ? { 'accept-encoding': ACCEPT_ENCODING } : {}),
            });
          },
        },
        (err, result) => (err ? reject(err) : resolve({ result, statuses })),
      );
      instance.on('response', (_client, statusCode) => {
        statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
      });
    });
  };
  if (warmup > 0) await run(warmup);
  const { result, statuses } = await run(duration);
  const failures = result.non2xx + result.errors + result.timeouts;
  return {
    rps: result.requests.total / duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures,
    statuses,
  };
}

export interface Verdict {
  figure: string;
  value: number;
  unit: string;
  goal: string;
  pass: boolean;
  note?: string;
}

export const atLeast = (figure: string, value: number, goal: number, unit: string, note?: string): Verdict => ({
  figure,
  value,
  unit,
  goal: `>= ${goal.toLocaleString()} ${unit}`,
  pass: value >= goal,
  note,
});

export const atMost = (figure: string, value: number, goal: number, unit: string, note?: string): Verdict => ({
  figure,
  value,
  unit,
  goal: `<= ${goal.toLocaleString()} ${unit}`,
  pass: value <= goal,
  note,
});

/** Verdicts for one load run: throughput, p99 when a goal is given, and no failed responses. */
export function judge(name: string, r: LoadResult, goals: { rps: number; p99?: number }): Verdict[] {
  const out = [
    atLeast(`${name} throughput`, Math.round(r.rps), goals.rps, 'req/s', `p50 ${r.p50} ms, p99 ${r.p99} ms`),
  ];
  if (goals.p99 !== undefined) out.push(atMost(`${name} p99`, r.p99, goals.p99, 'ms'));
  const bad = Object.entries(r.statuses).filter(([s]) => !s.startsWith('2'));
  out.push({
    figure: `${name} failed responses`,
    value: r.failures,
    unit: '',
    goal: '0',
    pass: r.failures === 0,
    note: bad.length ? bad.map(([s, n]) => `${n} x ${s}`).join(', ') : undefined,
  });
  return out;
}

export function printVerdicts(verdicts: Verdict[]) {
  const w = Math.max(...verdicts.map((v) => v.figure.length));
  console.log(`\n${'figure'.padEnd(w)}  ${'measured'.padStart(12)}  ${'goal'.padEnd(16)}  result`);
  for (const v of verdicts) {
    const value = `${v.value.toLocaleString()}${v.unit ? ` ${v.unit}` : ''}`;
    console.log(
      `${v.figure.padEnd(w)}  ${value.padStart(12)}  ${v.goal.padEnd(16)}  ${v.pass ? 'pass' : 'FAIL'}${v.note ? `  (${v.note})` : ''}`,
    );
  }
  const failed = verdicts.filter((v) => !v.pass).length;
  console.log(`\n${verdicts.length - failed} of ${verdicts.length} goals met`);
  return failed;
}
