/**
 * Page meta of every paged list (crm-core §3: current_page, limit, total_count, total_pages), built one way: an empty
 * list is page 1 of 1, so a pager never shows "page 1 of 0".
 */
import type { PageMeta } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.js';

export function pageMeta(page: number, limit: number, total: number): PageMeta {
  return { current_page: page, limit, total_count: total, total_pages: Math.max(1, Math.ceil(total / limit)) };
}

/** The OFFSET of `page` (1-based) at `limit` rows a page. */
export const pageOffset = (page: number, limit: number) => (Math.max(1, page) - 1) * limit;

/**
 * Counts the rows of `rows` (a select) up to `cap`: the count, and whether there were more. A full count of a large
 * list can cost many times its page (a 100,000-conversation inbox: ~45 ms against ~5 ms); past the cap the page meta
 * says total_at_least.
 */
export async function countUpTo(db: Db, rows: SQL, cap: number): Promise<{ count: number; atLeast: boolean }> {
  const res = await db.execute<{ n: number }>(sql`select count(*)::int as n from (${rows} limit ${cap + 1}) capped`);
  const n = Number(res.rows[0]?.n ?? 0);
  return n > cap ? { count: cap, atLeast: true } : { count: n, atLeast: false };
}

/** Page meta from a capped count (`countUpTo`). */
export function cappedPageMeta(page: number, limit: number, counted: { count: number; atLeast: boolean }): PageMeta {
  return { ...pageMeta(page, limit, counted.count), ...(counted.atLeast ? { total_at_least: true } : {}) };
}
