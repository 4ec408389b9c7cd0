// The one test command (`npm test`, called by .ci/run): lint, typecheck, migration drift, unit and web tests,
// integration tests against the embedded database and — when reachable — the PostgreSQL server with Redis, the web
// build and its per-route size budgets, and the browser flows in Debian's Chromium. Stops at the first failing step.
import { spawnSync } from 'node:child_process';
import net from 'node:net';

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

function reachable(url) {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect({ host: u.hostname, port: Number(u.port), timeout: 1000 }, () => {
      s.end();
      resolve(true);
    });
    s.on('error', () => resolve(false));
    s.on('timeout', () => {
      s.destroy();
      resolve(false);
    });
  });
}

const steps = [
  // A lock that `npm ci` refuses breaks every fresh clone; it tells in two seconds without installing anything.
  ['lock file installs with npm ci', 'npm ci --dry-run --no-audit --no-fund'],
  ['lint and format', 'npx biome check .'],
  ['typecheck', 'npx tsc -b packages/shared apps/server apps/web'],
  ['migrations match the schema', 'node scripts/check-migrations.mjs'],
  ['unit and web tests', 'npx vitest run --project unit --project web'],
  ['integration tests (embedded PGlite)', 'npx vitest run --project integration'],
];
const pg = await reachable(PG_URL);
const redis = await reachable(REDIS_URL);
if (pg) {
  const env = `TEST_DATABASE_URL=${PG_URL}${redis ? ` TEST_REDIS_URL=${REDIS_URL}` : ''}`;
  steps.push([
    `integration tests (PostgreSQL server${redis ? ' + Redis' : ''})`,
    `${env} npx vitest run --project integration`,
  ]);
} else {
  console.log(`PostgreSQL not reachable at ${PG_URL}: the server pass is skipped.`);
}
steps.push(
  ['web build', 'npm run build -w @harbor/web'],
  ['JavaScript per route against its budget', 'node scripts/check-bundle.mjs'],
  ['browser flows (Playwright + Chromium)', 'node scripts/e2e.mjs'],
);

const started = Date.now();
const results = [];
for (const [name, cmd] of steps) {
  const t0 = Date.now();
  console.log(`\n=== ${name}: ${cmd}`);
  const r = spawnSync(cmd, { shell: true, stdio: 'inherit', env: process.env });
  const secs = ((Date.now() - t0) / 1000).toFixed(1);
  results.push([name, r.status === 0, secs]);
  if (r.status !== 0) break;
}
console.log('\n=== summary');
for (const [name, ok, secs] of results) console.log(`${ok ? 'ok  ' : 'FAIL'} ${name} (${secs} s)`);
const failed = results.filter((r) => !r[1]).length;
console.log(`total ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`steps: ${results.length - failed} passed, ${failed + (steps.length - results.length)} failed`);
process.exit(failed ? 1 : 0);
