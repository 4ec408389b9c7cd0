/**
 * Does a password-reset request take the same time for an email with an account and one without (issue 15: known
 * 15.2 ms vs unknown 4.9 ms median on PostgreSQL before the work moved into a job)?
 *   node --import tsx bench/password-reset.ts     (DATABASE_URL, default postgres://root@127.0.0.1:5432/test)
 *   BENCH_EMBEDDED=1 node --import tsx bench/password-reset.ts     (PGlite in memory)
 * Real HTTP on loopback, known and unknown requests interleaved, the job runner working as in production. Prints
 * the median and p95 of each and the gap of the medians beside its goal.
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app.js';
import { loadConfig } from '../apps/server/src/config.js';
import { openDatabase } from '../apps/server/src/platform/db/client.js';
import { closeDeps, wireDeps } from '../apps/server/src/platform/wiring.js';
import { seedDemoIfEmpty } from '../apps/server/src/seed/demo.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 400);
/** The gap between the medians that tells nothing: under 1 ms or 10% of the median, whichever is larger. */
const GOAL_GAP_MS = 1;
const embedded = process.env.BENCH_EMBEDDED === '1';
const baseUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const name = `harbor_bench_${crypto.randomBytes(4).toString('hex')}`;
const withDb = (url: string, db: string) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();

async function admin(statement: string) {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  await c.query(statement);
  await c.end();
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  if (!embedded) await admin(`CREATE DATABASE ${name}`);
  const database = await openDatabase(embedded ? {} : { databaseUrl: withDb(baseUrl, name) });
  await database.migrate();
  await seedDemoIfEmpty(database.db);
  const config = loadConfig({ ...process.env, HARBOR_ENV: 'test', LOG_LEVEL: 'silent', PORT: '0' });
  const deps = await wireDeps(config, database, { password_reset: 1e9, default: 1e9 });
  const app = await buildApp(deps);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  try {
    // A pre-login CSRF token, as a browser would hold.
    const first = await fetch(`${base}/v1/health`);
    const cookies = first.headers.getSetCookie().map((c) => c.split(';')[0]);
    const csrf = cookies.find((c) => c.startsWith('csrf_token='))!.split('=')[1];
    const post = async (email: string) => {
      const start = process.hrtime.bigint();
      const res = await fetch(`${base}/v1/users/reset_password_instructions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', cookie: cookies.join('; '), 'x-csrf-token': csrf },
        body: JSON.stringify({ email }),
      });
      await res.text();
      if (res.status !== 200) throw new Error(`status ${res.status}`);
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const known = ['agent', 'manager', 'telemarketer', 'basic'].map((r) => `${r}@demo.harbor.test`);
    for (let i = 0; i < 40; i++) await post(i % 2 ? known[i % 4] : `nobody${i}@demo.harbor.test`); // warm up
    console.log(`password reset on ${embedded ? 'embedded PGlite' : 'PostgreSQL server'}, ${RUNS} requests per run`);
    // The order is shuffled, so whatever the background does (the jobs of earlier requests) falls on both kinds.
    for (const jobsRunning of [false, true]) {
      if (jobsRunning) deps.jobs.start();
      else await deps.jobs.stop();
      const order = Array.from({ length: RUNS }, (_, i) => i % 2 === 1).sort(() => Math.random() - 0.5);
      const k: number[] = [];
      const u: number[] = [];
      for (const [i, isKnown] of order.entries()) {
        if (isKnown) k.push(await post(known[i % known.length]));
        else u.push(await post(`ghost${i}@demo.harbor.test`));
      }
      k.sort((a, b) => a - b);
      u.sort((a, b) => a - b);
      const gap = Math.abs(pct(k, 50) - pct(u, 50));
      const goal = Math.max(GOAL_GAP_MS, 0.1 * Math.min(pct(k, 50), pct(u, 50)));
      console.log(
        jobsRunning
          ? ' job runner working meanwhile (what an attacker sees):'
          : ' request path alone (job runner paused):',
      );
      console.log(`  known email    p50 ${pct(k, 50).toFixed(2)} ms   p95 ${pct(k, 95).toFixed(2)} ms`);
      console.log(`  unknown email  p50 ${pct(u, 50).toFixed(2)} ms   p95 ${pct(u, 95).toFixed(2)} ms`);
      console.log(
        `  gap of medians ${gap.toFixed(2)} ms   goal < ${goal.toFixed(2)} ms   ${gap < goal ? 'PASS' : 'FAIL'}`,
      );
    }
    await deps.jobs.drain(120_000);
  } finally {
    await app.close();
    await closeDeps(deps);
    if (!embedded) await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

await main();
