// The one test command (`npm test`, called by .ci/run): lint, typecheck, migration drift, the web build and its
// per-route size budgets, unit and web tests, integration tests against the embedded database and — when reachable —
// the PostgreSQL server with Redis, and the browser flows in Debian's Chromium.
//
// Two phases, to stay within 12 minutes on a 2-core machine (issue 9). First the quick gates (about 20 s), side by
// side; if one fails the slow tiers are not started. Then the lanes at once (the voice lab's calls mostly wait, beside them): Vitest runs one test file at a time on two cores,
// so the two integration passes (embedded PGlite, PostgreSQL server) and the browser lane each keep a core busy
// rather than waiting for one another. Every line is prefixed with its step; the summary gives each step's time.
// The web build runs in the first phase because the integration tests' app serves apps/web/dist as it finds it.
import { spawn } from 'node:child_process';
import net from 'node:net';
import readline from 'node:readline';

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

// CI shows the end of the output: the names of failed tests are repeated in the summary, where it is read.
// Vitest: 'FAIL  project file > suite > test'; Playwright: '✘ N file:line › title'.
const TIMES_LINE = /^(\d+)m([\d.]+)s (\d+)m([\d.]+)s$/;
const FAILURE_LINE = /^\s*(FAIL\s+\S|✘\s)/;
// Why a test failed (Playwright's 'Error: Timed out … waiting for expect(locator)…', Vitest's 'AssertionError: …'), with
// the line after it (the locator or the expected value): without them CI's tail named a failed flow but not its cause.
const REASON_LINE = /^\s*(\w*Error|Error): /;
// biome-ignore lint/suspicious/noControlCharactersInRegex: terminal colour codes are what is stripped
const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');

const step = (tag, name, cmd, env = {}, priority = 0) => ({ tag, name, cmd, env, priority });
/**
 * CPU priority of a step. Each step runs in a session of its own (detached), and Linux's autogroup scheduler shares
 * the cores between sessions, not processes: a process's nice counts only inside its session. So a step sets its
 * session's nice (/proc/self/autogroup; a negative one needs root, as CI has, and is skipped otherwise) and, for
 * kernels without autogroup, its processes' nice too. Measured 2026-11-28: at equal priority the browser flows (two
 * workers with a server and a Chromium each, all in one session) got one session's share of the cores beside four
 * others and took 1,138 s for 254 s of CPU, longer than the whole budget.
 */
// Off (0) for now: with the flows at -5 and the passes at +5, then +2, the flows took 766 s instead of 1,171 s, but
// integration tests that wait on timers ran past their limits on the starved cores (a 60 s import test took 5
// minutes). Turn them back on once those tests no longer depend on getting the CPU in time.
const FLOWS_FIRST = 0;
const YIELD = 0;
function prioritised(cmd, priority) {
  if (!priority) return cmd;
  const session = `{ printf '%s\\n' ${priority} > /proc/self/autogroup; } 2>/dev/null;`;
  return priority > 0 ? `${session} nice -n ${priority} ${cmd}` : `${session} ${cmd}`;
}

const gates = [
  // A lock that `npm ci` refuses breaks every fresh clone; it tells in two seconds without installing anything.
  [step('lock', 'lock file installs with npm ci', 'npm ci --dry-run --no-audit --no-fund')],
  [step('lint', 'lint and format', 'npx biome check .')],
  [step('db', 'migrations match the schema', 'node scripts/check-migrations.mjs')],
  [
    step('build', 'web build', 'npm run build -w @harbor/web'),
    step('bundle', 'JavaScript per route against its budget', 'node scripts/check-bundle.mjs'),
  ],
];

// The browser flows are the long pole and mostly wait (on timers, the server, Chromium's paint): they go first, and
// the CPU-bound integration passes and the typecheck take the cores whenever a flow waits.
const lanes = [
  // Two browser workers (a server each): alone on a quiet machine one worker took 853 s for 151 s of CPU.
  [step('e2e', 'browser flows (Playwright + Chromium)', 'node scripts/e2e.mjs', { E2E_WORKERS: '2' }, FLOWS_FIRST)],
  // Unit and web tests in a lane of their own: ahead of the browser flows they held back the long pole by 90 s.
  // At normal priority: their 30 s time limits (a lazy page's first render) must not meet a starved core.
  [step('web', 'unit and web tests', 'npx vitest run --project unit --project web')],
  // The typecheck (80 s of CPU) in a lane rather than a gate: as a gate it held back every lane while one core idled.
  [step('types', 'typecheck', 'npx tsc -b packages/shared apps/server apps/web', {}, YIELD)],
  // Real calls through the local voice lab: mostly waiting on calls (little CPU), so beside the long lanes rather than
  // after them (after the yielding typecheck it waited 11 minutes). Skips with a message when not root and the lab is
  // not installed.
  [step('voice', 'voice lab calls (Kamailio + rtpengine + SIPp + Chromium)', 'node scripts/e2e-voice.mjs')],
  // Two workers (a PGlite each): with one, the other core idled once the browser flows were done.
  [
    step(
      'pglite',
      'integration tests (embedded PGlite)',
      'npx vitest run --project integration --project integration-mocked --maxWorkers=2',
      {},
      YIELD,
    ),
  ],
];
if (await reachable(PG_URL)) {
  const redis = await reachable(REDIS_URL);
  lanes.push([
    step(
      'pg',
      `integration tests (PostgreSQL server${redis ? ' + Redis' : ''})`,
      // Two workers: a file here mostly waits on the database server, so two overlap their waits.
      'npx vitest run --project integration --project integration-mocked --maxWorkers=2',
      { TEST_DATABASE_URL: PG_URL, ...(redis ? { TEST_REDIS_URL: REDIS_URL } : {}) },
      YIELD,
    ),
  ]);
} else {
  console.log(`PostgreSQL not reachable at ${PG_URL}: the server pass is skipped.`);
}

const children = new Set();
function stopAll(signal) {
  // Each step runs in its own process group: its servers and browsers go with it.
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {}
  }
  process.exit(signal === 'SIGINT' ? 130 : 143);
}
process.on('SIGINT', () => stopAll('SIGINT'));
process.on('SIGTERM', () => stopAll('SIGTERM'));

const width = Math.max(...[...gates, ...lanes].flat().map((s) => s.tag.length));
/** Runs one step with its output prefixed by its tag; resolves with its exit status and time. */
function run(s) {
  const t0 = Date.now();
  const prefix = `[${s.tag.padEnd(width)}]`;
  console.log(`${prefix} === ${s.name}: ${s.cmd}`);
  return new Promise((resolve) => {
    // `times` (a shell builtin) reports the CPU its children used: the summary shows where the two cores went.
    const child = spawn(`${prioritised(s.cmd, s.priority)}; rc=$?; times; exit $rc`, {
      shell: true,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...s.env },
    });
    children.add(child);
    const failures = [];
    let reasonNext = false;
    let continueReason = false; // a blank line between the error and its locator
    let cpuSecs = 0;
    for (const stream of [child.stdout, child.stderr]) {
      readline.createInterface({ input: stream }).on('line', (line) => {
        console.log(`${prefix} ${line}`);
        const plain = stripAnsi(line);
        const cpu = TIMES_LINE.exec(plain);
        if (cpu) cpuSecs = Number(cpu[1]) * 60 + Number(cpu[2]) + Number(cpu[3]) * 60 + Number(cpu[4]);
        if (FAILURE_LINE.test(plain) && failures.length < 40) failures.push(plain.trim());
        else if (reasonNext && !plain.trim()) continueReason = true;
        else if (reasonNext && failures.length < 40) failures.push(`  ${plain.trim().slice(0, 200)}`);
        reasonNext = continueReason;
        continueReason = false;
        // Only once a test has failed: passing tests' logs carry 'Error:' lines of their own.
        if (failures.length && REASON_LINE.test(plain) && failures.length < 40) {
          failures.push(`  ${plain.trim().slice(0, 200)}`);
          reasonNext = true;
        }
      });
    }
    child.on('close', (code, signal) => {
      children.delete(child);
      const secs = (Date.now() - t0) / 1000;
      const ok = code === 0;
      console.log(`${prefix} === ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`} in ${secs.toFixed(1)} s`);
      resolve({ ...s, ok, secs, failures, cpuSecs });
    });
  });
}

/** Steps of a lane one after another; a failed step skips the rest of its lane. */
async function lane(steps) {
  const results = [];
  for (const s of steps) {
    if (results.some((r) => !r.ok)) {
      results.push({ ...s, ok: false, skipped: true, secs: 0 });
      continue;
    }
    results.push(await run(s));
  }
  return results;
}

const started = Date.now();
const results = (await Promise.all(gates.map(lane))).flat();
const phase1 = (Date.now() - started) / 1000;
if (results.every((r) => r.ok)) {
  results.push(...(await Promise.all(lanes.map(lane))).flat());
} else {
  results.push(...lanes.flat().map((s) => ({ ...s, ok: false, skipped: true, secs: 0 })));
}
const total = (Date.now() - started) / 1000;

console.log('\n=== summary');
for (const r of results) {
  const state = r.skipped ? 'skip' : r.ok ? 'ok  ' : 'FAIL';
  const cpu = r.cpuSecs ? `, CPU ${r.cpuSecs.toFixed(0)} s` : '';
  console.log(`${state} ${r.name} (${r.skipped ? 'not run' : `${r.secs.toFixed(1)} s${cpu}`})`);
  if (!r.ok) for (const f of [...new Set(r.failures ?? [])]) console.log(`       ${f}`);
}
const failed = results.filter((r) => !r.ok && !r.skipped).length;
const skipped = results.filter((r) => r.skipped).length;
console.log(`quick gates ${phase1.toFixed(1)} s (side by side); total ${total.toFixed(1)} s`);
// The closing line CI reads: 'N passed, N failed, N skipped' (skipped: not run after an earlier failure).
console.log(`steps: ${results.length - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed || skipped ? 1 : 0);
