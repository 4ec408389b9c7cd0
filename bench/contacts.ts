/**
 * The contacts book at a million: seeds one company (1,000,000 contacts, 200 owners in a downline tree) into the
 * PostgreSQL server with COPY, in its own database (harbor_bench, created and dropped here), then prints p50/p95 of
 * list pages through the real route (app.inject) and of the bare SQL of the same page in the same process, the
 * transfer of 250,000 contacts and the export of 999,999 rows (seconds, RSS growth); then the embedded database
 * (PGlite) with 100,000 contacts.
 *
 *   node --import tsx bench/contacts.ts            (DATABASE_URL, default postgres://root@127.0.0.1:5432/test)
 *   BENCH_CONTACTS=200000 BENCH_RUNS=20 ...        (smaller, quicker)
 *   BENCH_PHASES=seed,list,transfer,export,xlsx,embedded (default: all but seed-only and xlsx); BENCH_KEEP=1
 *   BENCH_DB=harbor_bench_me (database name, so engineers sharing the server don't drop each other's);
 *   BENCH_REUSE=1 (with a database kept by BENCH_KEEP=1: skip dropping and seeding, reuse its contacts)
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { countWithBudget, pageRows, presentRows } from '../apps/server/src/modules/contacts/list.js';
import { encodeCursor, resolveScope } from '../apps/server/src/modules/contacts/list-scope.js';
import { buildAuthContext } from '../apps/server/src/platform/auth/context.js';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.js';
import type { Deps } from '../apps/server/src/platform/deps.js';
import { closeDeps, wireDeps } from '../apps/server/src/platform/wiring.js';
import { ContactsScope } from '../packages/shared/src/index.js';
import { BENCH_PASSWORD, copyContacts, insertContacts, type Seeded, seedCompany } from './contacts-seed.js';

const BASE_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const N = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const N_EMBEDDED = Number(process.env.BENCH_EMBEDDED_CONTACTS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const DB_NAME = process.env.BENCH_DB ?? 'harbor_bench';
const PHASES = new Set((process.env.BENCH_PHASES ?? 'list,transfer,export,embedded').split(','));

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
const ms = (n: number) => n.toFixed(1).padStart(7);
const now = () => performance.now();

/** A cookie-keeping client over app.inject, as a browser would call the API. */
async function session(app: FastifyInstance, email: string) {
  const cookies = new Map<string, string>();
  const keep = (res: { cookies: Array<{ name: string; value: string }> }) => {
    for (const c of res.cookies) cookies.set(c.name, c.value);
  };
  keep(await app.inject({ method: 'GET', url: '/v1/health' }));
  const headers = () => ({
    cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; '),
    'x-csrf-token': cookies.get('csrf_token') ?? '',
  });
  const signin = await app.inject({
    method: 'POST',
    url: '/v1/sessions',
    headers: headers(),
    payload: { email, password: BENCH_PASSWORD },
  });
  if (signin.statusCode !== 200) throw new Error(`sign-in ${email}: ${signin.statusCode} ${signin.body}`);
  keep(signin);
  return {
    headers,
    async call(method: 'PATCH' | 'GET', url: string, payload?: object) {
      const res = await app.inject({ method, url, headers: headers(), ...(payload ? { payload } : {}) });
      if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
      return JSON.parse(res.body);
    },
  };
}

async function authFor(database: Database, email: string) {
  const [u] = await database.query<Record<string, unknown>>('select * from users where email = $1', [email]);
  const [c] = await database.query<Record<string, unknown>>('select * from companies where id = $1', [u.company_id]);
  // The AuthContext wants Drizzle-shaped rows; read them through Drizzle.
  const { users, companies } = await import('../apps/server/src/platform/db/schema.js');
  const { eq } = await import('drizzle-orm');
  const [user] = await database.db
    .select()
    .from(users)
    .where(eq(users.id, Number(u.id)));
  const [company] = await database.db
    .select()
    .from(companies)
    .where(eq(companies.id, Number(c.id)));
  return buildAuthContext(user, company, null);
}

interface Case {
  name: string;
  email: string;
  body: Record<string, unknown>;
}

async function measure(deps: Deps, app: FastifyInstance, cases: Case[], runs: number) {
  const database = deps.database;
  console.log(
    `\n${'case'.padEnd(34)} ${'route p50'.padStart(9)} ${'p95'.padStart(7)} | ${'SQL p50'.padStart(7)} ${'p95'.padStart(7)} | ratio p50 p95 | rows`,
  );
  for (const c of cases) {
    const client = await session(app, c.email);
    const auth = await authFor(database, c.email);
    const scope = ContactsScope.parse(c.body);
    const r = await resolveScope(database.db, auth, scope);
    const route: number[] = [];
    const bare: number[] = [];
    let rows = 0;
    let total = 0;
    for (let i = 0; i < runs + 5; i++) {
      const t0 = now();
      const res = await client.call('PATCH', '/v1/contacts', c.body);
      const t1 = now();
      // The bare SQL of the same page: the page and (time-boxed) count statements the route runs, then the rows.
      const [page] = await Promise.all([pageRows<{ id: string }>(database, r), countWithBudget(database, r)]);
      await presentRows(
        database.db,
        page.slice(0, scope.limit).map((p) => Number(p.id)),
        r,
      );
      const t2 = now();
      if (i >= 5) {
        route.push(t1 - t0);
        bare.push(t2 - t1);
      }
      rows = res.data.length;
      total = res.meta.total_count;
    }
    const ratio50 = pct(route, 50) / pct(bare, 50);
    const ratio95 = pct(route, 95) / pct(bare, 95);
    console.log(
      `${c.name.padEnd(34)} ${ms(pct(route, 50))}ms ${ms(pct(route, 95))} | ${ms(pct(bare, 50))} ${ms(pct(bare, 95))} | ${ratio50.toFixed(2).padStart(5)} ${ratio95.toFixed(2).padStart(4)} | ${rows} of ${total}`,
    );
  }
}

async function deepCursor(database: Database, companyId: number, offset: number) {
  const [row] = await database.query<{ id: string; last_name: string; first_name: string }>(
    `select id, last_name, first_name from contacts where company_id = $1 and deleted_at is null
     order by last_name, first_name, id offset $2 limit 1`,
    [companyId, offset],
  );
  return encodeCursor({ f: 'last_name', o: 'asc', k: [row.last_name, row.first_name], id: Number(row.id) });
}

function listCases(s: Seeded, deep: string, n: number): Case[] {
  const admin = 'user1@bench.harbor.test';
  return [
    { name: 'first page (admin, 50)', email: admin, body: { limit: 50 } },
    {
      name: `deep page (keyset, ~${Math.round(n * 0.9).toLocaleString()} in)`,
      email: admin,
      body: { limit: 50, cursor: deep, page: Math.round((n * 0.9) / 50) },
    },
    { name: 'search q="mart"', email: admin, body: { limit: 50, q: 'mart' } },
    { name: 'search q="ohnso"', email: admin, body: { limit: 50, q: 'ohnso' } },
    {
      name: 'filter: FL + client + status',
      email: admin,
      body: {
        limit: 50,
        type: 'client',
        search: [
          { field: 'state', value: ['FL'] },
          { field: 'status_id', value: [s.statusIds[1], s.statusIds[2]] },
        ],
      },
    },
    { name: "manager's all-downline view", email: 'user3@bench.harbor.test', body: { limit: 50, all_downline: true } },
    { name: 'agent (own book) first page', email: 'user150@bench.harbor.test', body: { limit: 50 } },
  ];
}

async function startApp(database: Database) {
  const config = loadConfig({ NODE_ENV: 'test', APP_URL: 'http://localhost:3000', LOG_LEVEL: 'warn' });
  const deps = await wireDeps({ ...config, logLevel: 'warn' }, database, {
    sign_in: 1e9,
    default: 1e9,
    password_reset: 1e9,
    send_otp: 1e9,
  });
  const app = await buildApp(deps);
  await app.ready();
  deps.jobs.start();
  return { deps, app };
}

async function transfer(app: FastifyInstance, database: Database, s: Seeded) {
  const admin = await session(app, 'user1@bench.harbor.test');
  const t0 = now();
  const attempt = await admin.call('PATCH', '/v1/contacts/transfer_group', {
    all: true,
    contacts_scope: { select_n: 250_000 },
    to_user_id: s.userIds[199],
  });
  const accepted = now();
  let status = attempt;
  while (status.status !== 'complete' && status.status !== 'failed') {
    await new Promise((r) => setTimeout(r, 200));
    status = await admin.call('GET', `/v1/contacts/transfer_attempts/${attempt.id}/status`);
  }
  const done = now();
  const [{ n }] = await database.query<{ n: number }>('select count(*)::int as n from contacts where owner_id = $1', [
    s.userIds[199],
  ]);
  console.log(
    `\ntransfer ${status.total.toLocaleString()}: ${status.status} in ${((done - t0) / 1000).toFixed(1)} s (request ${((accepted - t0) / 1000).toFixed(1)} s, job ${((done - accepted) / 1000).toFixed(1)} s); processed ${status.processed}/${status.total}; target now owns ${n}`,
  );
}

async function exportRun(app: FastifyInstance, format: 'csv' | 'xlsx', count: number) {
  const admin = await session(app, 'user1@bench.harbor.test');
  await app.listen({ port: 0, host: '127.0.0.1' }).catch(() => undefined);
  const port = (app.server.address() as AddressInfo).port;
  const body = JSON.stringify({ all: true, contacts_scope: { select_n: count } });
  global.gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = now();
  const { bytes, lines, status } = await new Promise<{ bytes: number; lines: number; status: number }>(
    (resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          path: `/v1/export.${format}`,
          method: 'PATCH',
          headers: { ...admin.headers(), 'content-type': 'application/json' },
        },
        (res) => {
          let bytes = 0;
          let lines = 0;
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
            if (format === 'csv') for (const b of chunk) if (b === 10) lines++;
          });
          res.on('end', () => resolve({ bytes, lines, status: res.statusCode ?? 0 }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    },
  );
  clearInterval(sampler);
  const secs = (now() - t0) / 1000;
  console.log(
    `export ${format} ${count.toLocaleString()}: HTTP ${status}, ${secs.toFixed(1)} s, ${(bytes / 1e6).toFixed(0)} MB${format === 'csv' ? `, ${lines - 1} data rows` : ''}, RSS growth ${((peak - before) / 1e6).toFixed(0)} MB (peak ${(peak / 1e6).toFixed(0)} MB)`,
  );
}

/** The ids seedCompany returned, read back from a kept database. */
async function loadSeeded(database: Database): Promise<Seeded> {
  const ids = async (text: string, params: unknown[]) =>
    (await database.query<{ id: number }>(text, params)).map((r) => Number(r.id));
  const [companyId] = await ids(`select id from companies where domain_name = 'bench.harbor.test'`, []);
  if (companyId === undefined) throw new Error(`${DB_NAME} holds no bench company: run without BENCH_REUSE`);
  const of = (table: string) => ids(`select id from ${table} where company_id = $1 order by id`, [companyId]);
  return { companyId, userIds: await of('users'), statusIds: await of('statuses'), sourceIds: await of('sources') };
}

async function server() {
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  const exists = (await admin.query('select 1 from pg_database where datname = $1', [DB_NAME])).rowCount === 1;
  const reuse = process.env.BENCH_REUSE === '1' && exists;
  if (!reuse) {
    await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.query(`create database ${DB_NAME}`);
  }
  const url = withDb(BASE_URL, DB_NAME);
  const database = await openDatabase({ databaseUrl: url });
  try {
    let s: Seeded;
    if (reuse) {
      s = await loadSeeded(database);
      console.log(`PostgreSQL server: reusing ${DB_NAME}`);
    } else {
      await database.migrate();
      s = await seedCompany(database);
      const t0 = now();
      await copyContacts(url, s, N);
      console.log(
        `PostgreSQL server: seeded ${N.toLocaleString()} contacts with COPY (+ indexes, tags, analyze) in ${((now() - t0) / 1000).toFixed(1)} s`,
      );
    }
    const { deps, app } = await startApp(database);
    try {
      if (PHASES.has('list')) {
        const deep = await deepCursor(database, s.companyId, Math.round(N * 0.9));
        await measure(deps, app, listCases(s, deep, N), RUNS);
      }
      if (PHASES.has('transfer')) await transfer(app, database, s);
      if (PHASES.has('export')) await exportRun(app, 'csv', Math.min(999_999, N));
      if (PHASES.has('xlsx')) await exportRun(app, 'xlsx', Math.min(999_999, N));
    } finally {
      await app.close();
      await closeDeps(deps);
    }
  } finally {
    await database.close().catch(() => undefined); // closeDeps may have closed it already
    // BENCH_KEEP=1 leaves the database for EXPLAIN sessions (drop it by hand afterwards).
    if (process.env.BENCH_KEEP !== '1') await admin.query(`drop database if exists ${DB_NAME} with (force)`);
    await admin.end();
  }
}

async function embedded() {
  const database = await openDatabase({});
  try {
    await database.migrate();
    const s = await seedCompany(database);
    const t0 = now();
    await insertContacts(database, s, N_EMBEDDED);
    console.log(
      `\nEmbedded (PGlite): seeded ${N_EMBEDDED.toLocaleString()} contacts in ${((now() - t0) / 1000).toFixed(1)} s`,
    );
    const { deps, app } = await startApp(database);
    try {
      const deep = await deepCursor(database, s.companyId, Math.round(N_EMBEDDED * 0.9));
      await measure(deps, app, listCases(s, deep, N_EMBEDDED), RUNS);
    } finally {
      await app.close();
      await closeDeps(deps);
    }
  } finally {
    await database.close().catch(() => undefined);
  }
}

if (['seed', 'list', 'transfer', 'export', 'xlsx'].some((p) => PHASES.has(p))) await server();
if (PHASES.has('embedded')) await embedded();
