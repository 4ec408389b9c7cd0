/**
 * Benchmark of "me and everyone below me" (platform/downline.ts) on the PostgreSQL server: 10,000 users in one
 * company, 10 levels deep, in a throwaway database that is dropped afterwards.
 *   node --import tsx bench/downline.ts          (DATABASE_URL, default postgres://root@127.0.0.1:5432/test)
 * Prints p50/p95 per kind of caller: a random user (mostly near the leaves, the common case), a second-level
 * manager (about a third of the tree) and the root (the whole tree), the time to move a second-level manager (the
 * triggers rewrite the stored paths below them), and the plan of the root query.
 */
import crypto from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { openDatabase } from '../apps/server/src/platform/db/client.js';
import { companies, users } from '../apps/server/src/platform/db/schema.js';
import { downlineIdsSql, downlineUserIds } from '../apps/server/src/platform/downline.js';

const USERS = 10_000;
const DEPTH = 10;
const RUNS = 300;

const baseUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const name = `harbor_bench_${crypto.randomBytes(4).toString('hex')}`;
const withDb = (url: string, db: string) => Object.assign(new URL(url), { pathname: `/${db}` }).toString();

async function admin(statement: string) {
  const c = new pg.Client({ connectionString: baseUrl });
  await c.connect();
  await c.query(statement);
  await c.end();
}

/** Level sizes growing by a constant factor so that 10 levels hold exactly USERS people. */
function levelSizes(): number[] {
  let lo = 1;
  let hi = 10;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    const total = Array.from({ length: DEPTH }, (_, l) => Math.max(1, Math.round(mid ** l))).reduce((a, b) => a + b);
    if (total < USERS) lo = mid;
    else hi = mid;
  }
  const sizes = Array.from({ length: DEPTH }, (_, l) => Math.max(1, Math.round(lo ** l)));
  sizes[DEPTH - 1] += USERS - sizes.reduce((a, b) => a + b);
  return sizes;
}

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(label: string, ids: number[], run: (id: number) => Promise<unknown>) {
  for (const id of ids.slice(0, 20)) await run(id); // warm the cache and the plan
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const id = ids[i % ids.length];
    const start = process.hrtime.bigint();
    await run(id);
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} p50 ${percentile(samples, 50).toFixed(2)} ms   p95 ${percentile(samples, 95).toFixed(2)} ms`,
  );
}

async function main() {
  await admin(`CREATE DATABASE ${name}`);
  const database = await openDatabase({ databaseUrl: withDb(baseUrl, name) });
  try {
    await database.migrate();
    const db = database.db;
    const [company] = await db
      .insert(companies)
      .values({ number: 'B-1', name: 'Bench', domainName: 'bench.test' })
      .returning();
    const sizes = levelSizes();
    const levels: number[][] = [];
    let n = 0;
    for (const [level, size] of sizes.entries()) {
      const parents = levels[level - 1] ?? [];
      const rows = Array.from({ length: size }, (_, i) => {
        n++;
        return {
          companyId: company.id,
          managerId: level === 0 ? null : parents[i % parents.length],
          number: `U-${n}`,
          email: `u${n}@bench.test`,
          username: `u${n}`,
          passwordHash: 'x',
          accountType: level === DEPTH - 1 ? 'agent' : 'manager',
          roles: [level === DEPTH - 1 ? 'agent' : 'manager'],
        };
      });
      const ids: number[] = [];
      for (let i = 0; i < rows.length; i += 1000) {
        const inserted = await db
          .insert(users)
          .values(rows.slice(i, i + 1000))
          .returning({ id: users.id });
        ids.push(...inserted.map((r) => r.id));
      }
      levels.push(ids);
    }
    // What autovacuum does on a live server: statistics, and the visibility map that makes index-only scans possible.
    await database.query('VACUUM ANALYZE users');
    console.log(`${n} users, ${sizes.length} levels (sizes ${sizes.join(', ')}), ${RUNS} runs each`);
    const all = levels.flat();
    const random = Array.from({ length: RUNS }, () => all[crypto.randomInt(all.length)]);
    const c = company.id;
    await time('random user (ids, downlineUserIds)', random, (id) => downlineUserIds(db, c, id));
    await time('second-level manager (ids)', levels[1], (id) => downlineUserIds(db, c, id));
    await time('root, whole tree (ids)', levels[0], (id) => downlineUserIds(db, c, id));
    await time('root, whole tree (count only)', levels[0], (id) =>
      db.execute(sql`SELECT count(*) FROM ${downlineIdsSql(c, id)} AS d(id)`),
    );
    // The price of the stored paths: moving a manager rewrites the paths of everyone below them (triggers).
    const [moved, target] = levels[1];
    const below = (await downlineUserIds(db, c, moved)).length - 1;
    const start = process.hrtime.bigint();
    await db.update(users).set({ managerId: target }).where(eq(users.id, moved));
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    console.log(`move a second-level manager with ${below} below under another: ${ms.toFixed(1)} ms`);
    const after = await downlineUserIds(db, c, target);
    if (!after.includes(moved) || after.length < below + 2)
      throw new Error('the moved subtree is not below its new upline');
    const root = levels[0][0];
    const plan = await db.execute(
      sql`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT count(*) FROM ${downlineIdsSql(c, root)} AS d(id)`,
    );
    console.log('\nPlan of the root query:');
    for (const row of (plan as unknown as { rows: Array<Record<string, string>> }).rows) {
      console.log(`  ${row['QUERY PLAN']}`);
    }
  } finally {
    await database.close();
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
