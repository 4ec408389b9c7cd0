/**
 * How many contacts a scope matches (PATCH /v1/contacts/count, docs/decisions/contacts-count-route.md). Exact when
 * the count finishes within its budget, which is nearly always; past the budget, an estimate from a simple random
 * sample of contact ids, answered only when its 99% margin is within MAX_MARGIN, and otherwise the exact count after
 * all. Never the planner's estimate: it was off by up to 200x for downline and search filters.
 */
import type { ContactCountReply } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Database, Db } from '../../platform/db/client.js';
import { type ResolvedScope, rowsOf } from './list-scope.js';

/** Time the exact count may take before a sample is tried (PostgreSQL server only; PGlite always counts). */
export const COUNT_BUDGET_MS = 400;
/** Widest margin (99% confidence, as a fraction of the count) an estimate may have and still be answered. */
export const MAX_MARGIN = 0.03;
/** Ids drawn for an estimate: 20,000 primary-key lookups, a few tens of milliseconds. */
export const SAMPLE_DRAWS = 20_000;
/** Counts running at once in this process; more wait, so counting never takes every pooled connection. */
const MAX_CONCURRENT = 3;

const sqlState = (err: unknown) =>
  (err as { cause?: { code?: string } }).cause?.code ?? (err as { code?: string }).code;

export const exactCountSql = (where: SQL) => sql`select count(*)::int as n from contacts where ${where}`;

/**
 * Draws `draws` ids uniformly (with replacement, from a seeded hash so a test can repeat it) between the smallest and
 * largest contact id and counts the draws that land on a contact the scope matches. Ids that are gaps, other
 * companies' or not matching are misses: the share of hits is a plain binomial proportion of the id span, with no
 * assumption about how matches cluster on disk.
 */
export function sampleSql(condition: SQL, draws: number, seed: number): SQL {
  return sql`with b as (select min(id) as lo, max(id) as hi from contacts),
      s as (select b.lo + abs(hashint8(g * 7919 + ${seed}::bigint)::bigint) % (b.hi - b.lo + 1) as id
            from b, generate_series(1, ${draws}::int) g)
    select coalesce((select hi - lo + 1 from b), 0)::float8 as span,
      (select count(*) from s join contacts on contacts.id = s.id where ${condition})::int as hits`;
}

/** The estimate and its 99% margin (a fraction of the estimate) from `hits` of `draws` over an id span. */
export function estimateFromSample(hits: number, draws: number, span: number) {
  const p = hits / draws;
  const count = Math.round(p * span);
  const margin = hits > 0 ? (2.576 * Math.sqrt((p * (1 - p)) / draws)) / p : Number.POSITIVE_INFINITY;
  return { count, margin };
}

/** The sampled estimate of a scope (row-by-row form of the search, so no match set is built first). */
export async function estimateScope(db: Db, r: ResolvedScope, draws = SAMPLE_DRAWS, seed = randomSeed()) {
  const condition = r.search ? sql`${r.base} and ${r.search.row}` : r.base;
  const [s] = await rowsOf<{ span: number; hits: number }>(db, sampleSql(condition, draws, seed));
  return estimateFromSample(Number(s.hits), draws, Number(s.span));
}

const randomSeed = () => Math.floor(Math.random() * 2 ** 31);

let running = 0;
const waiting: Array<() => void> = [];
async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_CONCURRENT) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

async function exact(db: Db, where: SQL): Promise<number> {
  return (await rowsOf<{ n: number }>(db, exactCountSql(where)))[0].n;
}

export async function countScope(database: Database, r: ResolvedScope): Promise<ContactCountReply> {
  const db = database.db;
  if (database.kind !== 'postgres') return { count: await exact(db, r.where), exact: true, margin: null };
  return slot(async () => {
    try {
      const n = await db.transaction(async (t) => {
        const tx = t;
        await tx.execute(sql.raw(`set local statement_timeout = ${COUNT_BUDGET_MS}`));
        return exact(tx, r.where);
      });
      return { count: n, exact: true, margin: null };
    } catch (err) {
      if (sqlState(err) !== '57014') throw err;
    }
    const est = await estimateScope(db, r);
    if (est.margin <= MAX_MARGIN) return { count: est.count, exact: false, margin: Number(est.margin.toFixed(4)) };
    // Too few matches for a sample to be close: the true count, however long it takes.
    return { count: await exact(db, r.where), exact: true, margin: null };
  });
}
