/**
 * Imports benchmark (issue 5). On the PostgreSQL server (DATABASE_URL, default postgres://root@127.0.0.1:5432/test;
 * a throwaway database harbor_bench_imports is created next to it), with a company already holding 1,000,000
 * contacts: 100k rows end to end (HTTP upload to last row committed, scrub on), the same file again (duplicates
 * created must be 0), 1M rows end to end, a bare COPY of the same 100k rows for the ratio, and peak RSS of this
 * process (it is the server). Then the embedded database (PGlite): 100k rows end to end.
 * Run: node --import tsx bench/imports.ts            (BENCH_SKIP_1M=1 skips the million-row import; BENCH_KEEP=1
 *   keeps the server database)
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/platform/db/client.js';
import { closeDeps, wireDeps } from '../apps/server/src/platform/wiring.js';
import { DEMO_PASSWORD, seedDemoIfEmpty } from '../apps/server/src/seed/demo.js';

const BASE_URL = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
// Per run unless named: two engineers benching at once must not drop each other's database.
const DB_NAME = process.env.BENCH_DB ?? `harbor_bench_imports_${process.pid}`;
const EXISTING = Number(process.env.BENCH_EXISTING ?? 1_000_000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-bench-imports-'));

let peakRss = 0;
const sampler = setInterval(() => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
}, 50);
const mb = (b: number) => `${Math.round(b / 1024 / 1024)} MB`;
/** Issue 9's goals, printed beside each figure with pass or fail. */
const GOALS = { s100k: 8, s1m: 120, rssMb: 512, duplicates: 0, embedded100k: 60 };
const verdict = (value: number, goal: number) => `(goal <= ${goal}: ${value <= goal ? 'pass' : 'FAIL'})`;
const log = (...a: unknown[]) => console.log(new Date().toISOString().slice(11, 19), ...a);

function withDb(url: string, name: string) {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

const FIRST = ['James', 'Mary', 'Robert', 'Patricia', 'John', 'Jennifer', 'Michael', 'Linda', 'David', 'Susan'];
const LAST = ['Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Lopez', 'Wilson'];
const STATES = ['FL', 'TX', 'CA', 'NY', 'AZ', 'Ohio', 'Georgia', 'PA', 'NC', 'MI'];
const phoneOf = (n: number) => `1${String(2000000000 + n)}`;

/** A lead list as vendors send it: mixed phone formats, US dates, state names; 10% already in the book. */
async function writeList(file: string, rows: number, offset: number) {
  const out = fs.createWriteStream(file);
  out.write('First Name,Last Name,Email,Phone Number,DOB,Address,City,State,Zip Code\n');
  let buf = '';
  for (let i = 0; i < rows; i++) {
    const n = i % 10 === 0 ? i : offset + i; // every tenth row is an existing contact
    const p = phoneOf(n).slice(1);
    const phone = i % 3 === 0 ? `(${p.slice(0, 3)}) ${p.slice(3, 6)}-${p.slice(6)}` : p;
    buf += `${FIRST[n % 10]},${LAST[(n >> 3) % 10]}${n},lead${n}@example.com,${phone},0${1 + (n % 9)}/1${n % 9}/19${40 + (n % 20)},"${n} Main St, Apt ${n % 50}",Springfield,${STATES[n % 10]},${String(10000 + (n % 89999))}\n`;
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await new Promise<void>((r) => out.once('drain', () => r()));
      buf = '';
    }
  }
  out.end(buf);
  await new Promise<void>((r) => out.on('finish', () => r()));
}

async function seedContacts(url: string, companyId: number, ownerId: number, n: number) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const stream = client.query(
    copyFrom(
      'COPY contacts (company_id, owner_id, first_name, last_name, email, phone, state, type) FROM STDIN WITH (FORMAT csv)',
    ),
  );
  async function* rows() {
    let buf = '';
    for (let i = 0; i < n; i++) {
      buf += `${companyId},${ownerId},${FIRST[i % 10]},${LAST[(i >> 3) % 10]}${i},lead${i}@example.com,${phoneOf(i)},FL,lead\n`;
      if (buf.length > 1 << 20) {
        yield buf;
        buf = '';
      }
    }
    if (buf) yield buf;
  }
  await pipeline(Readable.from(rows()), stream);
  await client.query('analyze contacts');
  await client.end();
}

/** Signs in over HTTP and answers the cookie header and CSRF token. */
async function signIn(base: string, email: string) {
  const health = await fetch(`${base}/v1/health`);
  const jar = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [kv] = c.split(';');
      const i = kv.indexOf('=');
      jar.set(kv.slice(0, i), kv.slice(i + 1));
    }
  };
  keep(health);
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const res = await fetch(`${base}/v1/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: cookie(), 'x-csrf-token': jar.get('csrf_token') ?? '' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (res.status !== 200) throw new Error(`sign-in ${res.status} ${await res.text()}`);
  keep(res);
  return { cookie: cookie(), csrf: jar.get('csrf_token') ?? '' };
}

/** Streams the file as multipart from disk (like a browser), answers the attempt id (or, for a preview, the body). */
function uploadFile(
  base: string,
  auth: { cookie: string; csrf: string },
  file: string,
  form: Record<string, unknown>,
  route = '/v1/contacts/import',
) {
  const boundary = '----harborbench';
  let head = '';
  for (const [k, v] of Object.entries(form)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${JSON.stringify(v)}\r\n`;
  }
  head += `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\nContent-Type: text/csv\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const length = Buffer.byteLength(head) + fs.statSync(file).size + Buffer.byteLength(tail);
  return new Promise<number>((resolve, reject) => {
    const req = http.request(`${base}${route}`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': length,
        cookie: auth.cookie,
        'x-csrf-token': auth.csrf,
      },
    });
    req.on('response', (res) => {
      let body = '';
      res.on('data', (c) => {
        body += c;
      });
      res.on('end', () =>
        res.statusCode === 202 || res.statusCode === 200
          ? resolve(JSON.parse(body).id ?? JSON.parse(body).row_count)
          : reject(new Error(`${res.statusCode} ${body}`)),
      );
    });
    req.on('error', reject);
    req.write(head);
    const rs = fs.createReadStream(file);
    rs.on('end', () => req.end(tail));
    rs.pipe(req, { end: false });
  });
}

type Q = <T>(text: string, params?: unknown[]) => Promise<T[]>;

async function waitDone(query: Q, id: number) {
  for (;;) {
    const [a] = await query<{
      status: string;
      created: number;
      updated: number;
      skipped: number;
      failed: number;
      total: number;
      error: string | null;
    }>('select status, created, updated, skipped, failed, total, error from import_attempts where id = $1', [id]);
    if (a.status === 'completed' || a.status === 'failed') return a;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const SCRUB = {
  scrub_against: { by: ['phone', 'email'], on_match: 'update' },
  tags: [{ name: 'Bench', color: 'green' }],
};

async function endToEnd(
  label: string,
  base: string,
  auth: { cookie: string; csrf: string },
  query: Q,
  file: string,
  rows: number,
) {
  const t0 = performance.now();
  const id = await uploadFile(base, auth, file, SCRUB);
  const tUp = performance.now();
  const a = await waitDone(query, id);
  const s = (performance.now() - t0) / 1000;
  log(
    `${label}: ${rows.toLocaleString()} rows in ${s.toFixed(1)} s (upload ${((tUp - t0) / 1000).toFixed(1)} s) = ${Math.round(rows / s).toLocaleString()} rows/s;`,
    `status ${a.status}, created ${a.created}, updated ${a.updated}, skipped ${a.skipped}, failed ${a.failed}${a.error ? `, error ${a.error}` : ''}`,
  );
  // The compaction of the staging rows (compact.ts) runs after the attempt completed: timed apart, and awaited so
  // it does not slow the next phase.
  const tc = performance.now();
  for (;;) {
    const [{ n }] = await query<{ n: number }>(
      "select count(*)::int n from jobs where name = 'imports.compact' and payload->>'attemptId' = $1 and status = 'done'",
      [String(id)],
    );
    if (n > 0) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  log(`  staging rows compacted ${((performance.now() - tc) / 1000).toFixed(1)} s after completion`);
  return { seconds: s, attempt: a };
}

async function server() {
  const admin = new pg.Client({ connectionString: BASE_URL });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${DB_NAME}`);
  await admin.end();
  const url = withDb(BASE_URL, DB_NAME);
  const database = await openDatabase({ databaseUrl: url });
  await database.migrate();
  await seedDemoIfEmpty(database.db);
  const [{ company_id, id: ownerId }] = await database.query<{ company_id: number; id: number }>(
    "select company_id, id from users where email = 'agent@demo.harbor.test'",
  );
  let t = performance.now();
  await seedContacts(url, company_id, ownerId, EXISTING);
  log(
    `seeded ${EXISTING.toLocaleString()} existing contacts with COPY in ${((performance.now() - t) / 1000).toFixed(1)} s`,
  );

  const f100 = path.join(tmp, 'leads-100k.csv');
  const f1m = path.join(tmp, 'leads-1m.csv');
  await writeList(f100, 100_000, 5_000_000);
  if (!process.env.BENCH_SKIP_1M) await writeList(f1m, 1_000_000, 7_000_000);
  log('lists written:', mb(fs.statSync(f100).size), process.env.BENCH_SKIP_1M ? '' : mb(fs.statSync(f1m).size));

  const config = loadConfig({
    ...process.env,
    DATABASE_URL: url,
    DATA_DIR: tmp,
    LOG_LEVEL: 'warn',
    HARBOR_ENV: 'test',
  });
  const deps = await wireDeps(config, database, { default: 1_000_000, sign_in: 1_000 });
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  deps.jobs.start();
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const auth = await signIn(base, 'admin@demo.harbor.test');
  const query: Q = (text, params) => database.query(text, params);
  peakRss = 0;

  const run1 = await endToEnd('server 100k (scrub on)', base, auth, query, f100, 100_000);
  log(`GOAL server 100k end to end: ${run1.seconds.toFixed(1)} s ${verdict(run1.seconds, GOALS.s100k)}`);
  const [{ n: before }] = await query<{ n: number }>('select count(*)::int n from contacts where deleted_at is null');
  const run2 = await endToEnd('server 100k again (re-import)', base, auth, query, f100, 100_000);
  const [{ n: after }] = await query<{ n: number }>('select count(*)::int n from contacts where deleted_at is null');
  log(`re-import: duplicates created ${after - before} (attempt says created ${run2.attempt.created})`);
  log(`GOAL duplicates created by a re-import: ${after - before} ${verdict(after - before, GOALS.duplicates)}`);

  // The bare COPY of the same rows, same file, same run: an unindexed table of text columns.
  await query('create table bare_copy (a text, b text, c text, d text, e text, f text, g text, h text, i text)');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  t = performance.now();
  await pipeline(
    fs.createReadStream(f100),
    client.query(copyFrom('COPY bare_copy FROM STDIN WITH (FORMAT csv, HEADER true)')),
  );
  const copyS = (performance.now() - t) / 1000;
  await client.end();
  log(
    `bare COPY of the same 100k rows: ${copyS.toFixed(2)} s = ${Math.round(100_000 / copyS).toLocaleString()} rows/s; import/COPY ratio ${(100_000 / run1.seconds / (100_000 / copyS)).toFixed(3)}`,
  );
  if (!process.env.BENCH_SKIP_1M) {
    // The preview (validate_import) answers inside the request: how long a person waits for it at a million rows.
    t = performance.now();
    const rows = await uploadFile(base, auth, f1m, SCRUB, '/v1/contacts/validate_import');
    log(
      `preview of 1M rows (validate_import, in the request): ${rows.toLocaleString()} rows in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    const run3 = await endToEnd('server 1M (scrub on)', base, auth, query, f1m, 1_000_000);
    log(`GOAL server 1M end to end: ${run3.seconds.toFixed(1)} s ${verdict(run3.seconds, GOALS.s1m)}`);
  }
  log(`server phase peak RSS ${mb(peakRss)} ${verdict(Math.round(peakRss / 1024 / 1024), GOALS.rssMb)}`);
  await app.close();
  await closeDeps(deps);
  // A few GB of contacts: gone unless BENCH_KEEP=1 asks to look at them afterwards.
  if (process.env.BENCH_KEEP !== '1') {
    const drop = new pg.Client({ connectionString: BASE_URL });
    await drop.connect();
    await drop.query(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
    await drop.end();
  }
}

async function embedded() {
  const dir = path.join(tmp, 'pglite');
  const database = await openDatabase({ dataDir: dir });
  await database.migrate();
  await seedDemoIfEmpty(database.db);
  const f100 = path.join(tmp, 'leads-100k.csv');
  if (!fs.existsSync(f100)) await writeList(f100, 100_000, 5_000_000); // BENCH_EMBEDDED_ONLY
  const config = loadConfig({ DATA_DIR: tmp, LOG_LEVEL: 'warn', HARBOR_ENV: 'test' });
  const deps = await wireDeps(config, database, { default: 1_000_000, sign_in: 1_000 });
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  deps.jobs.start();
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const auth = await signIn(base, 'admin@demo.harbor.test');
  peakRss = 0;
  const run = await endToEnd(
    'embedded PGlite 100k (scrub on)',
    base,
    auth,
    (text, params) => database.query(text, params),
    f100,
    100_000,
  );
  log(`GOAL embedded 100k end to end: ${run.seconds.toFixed(1)} s ${verdict(run.seconds, GOALS.embedded100k)}`);
  log(`embedded phase peak RSS ${mb(peakRss)}`);
  await app.close();
  await closeDeps(deps);
}

try {
  if (!process.env.BENCH_EMBEDDED_ONLY) await server();
  if (!process.env.BENCH_SERVER_ONLY) await embedded();
} finally {
  clearInterval(sampler);
  fs.rmSync(tmp, { recursive: true, force: true });
}
