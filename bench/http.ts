/**
 * The request path under an office's load, over real HTTP (issue 9): the server runs as its own process on the
 * 1M-contact bench database and autocannon drives it at 10 and 50 connections, each connection a different person.
 *
 *   node --import tsx bench/http.ts                    (DATABASE_URL, default postgres://root@127.0.0.1:5432/test)
 *   BENCH_CONTACTS=100000 BENCH_DURATION=5 ...         (smaller, quicker)
 *   BENCH_REDIS_URL=redis://127.0.0.1:6379             (run the server with Redis: limits and invalidations there)
 *   BENCH_DB, BENCH_KEEP=1, BENCH_REUSE=1              (see http-harness.ts)
 *
 * Goals: GET /v1/users/me >= 3,000 req/s; the contacts list (first page) for a manager and for an agent
 * >= 1,000 req/s at p99 <= 50 ms; no failed responses.
 */
import {
  AGENTS,
  benchDatabase,
  judge,
  load,
  MANAGERS,
  printVerdicts,
  signInMany,
  startServer,
  type Verdict,
} from './http-harness.js';

const CONNECTIONS = (process.env.BENCH_CONNECTIONS ?? '10,50').split(',').map(Number);
const redisUrl = process.env.BENCH_REDIS_URL;

const db = await benchDatabase();
const server = await startServer({ databaseUrl: db.url, env: redisUrl ? { REDIS_URL: redisUrl } : {} });
let failed = 0;
try {
  console.log(`server ${server.url} (${redisUrl ? `Redis ${redisUrl}` : 'no Redis'}), pid ${server.process.pid}`);
  const managers = await signInMany(server.url, MANAGERS);
  const agents = await signInMany(server.url, AGENTS);
  // Boot calls come from everyone: half managers (whose dashboards span a downline), half agents.
  const office = managers.flatMap((m, i) => [m, agents[i]]);
  const verdicts: Verdict[] = [];
  for (const c of CONNECTIONS) {
    const me = await load({ url: server.url, path: '/v1/users/me', sessions: office, connections: c });
    verdicts.push(...judge(`GET /v1/users/me @${c}`, me, { rps: 3000 }));
    for (const [who, sessions] of [
      ['manager', managers],
      ['agent', agents],
    ] as const) {
      const list = await load({
        url: server.url,
        path: '/v1/contacts',
        method: 'PATCH',
        body: { limit: 50 },
        sessions,
        connections: c,
      });
      verdicts.push(...judge(`contacts list (${who}) @${c}`, list, { rps: 1000, p99: 50 }));
    }
  }
  failed = printVerdicts(verdicts);
} finally {
  await server.stop();
  await db.done();
}
process.exitCode = failed ? 1 : 0;
