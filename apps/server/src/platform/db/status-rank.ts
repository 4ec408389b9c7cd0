/**
 * "Never move a status backwards": a rank per kind of status (queued < sent < delivered ...), and a compare-and-set
 * in SQL that moves a row's status only to a strictly higher rank. Provider callbacks arrive late, twice and out of
 * order; with this, "sent" arriving after "delivered" changes nothing, whatever order two processes commit in.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from './client.js';

export interface StatusRank {
  kind: string;
  /** The rank of a status; -1 for one the kind does not know (any known status may replace it). */
  rank(status: string | null | undefined): number;
  /** The same rank as a SQL CASE over `column`. */
  rankSql(column: SQL): SQL;
}

/**
 * Levels from first to last; a level may hold several statuses of equal rank (terminal ones: delivered,
 * undelivered, failed), which then never replace one another.
 */
export function statusRank(kind: string, levels: ReadonlyArray<string | readonly string[]>): StatusRank {
  const ranks = new Map<string, number>();
  levels.forEach((level, i) => {
    for (const s of typeof level === 'string' ? [level] : level) {
      if (ranks.has(s)) throw new Error(`status ${s} twice in ${kind}`);
      ranks.set(s, i);
    }
  });
  const whens = sql.join(
    [...ranks].map(([s, r]) => sql`when ${s} then ${r}::int`),
    sql` `,
  );
  return {
    kind,
    rank: (status) => (status == null ? -1 : (ranks.get(status) ?? -1)),
    rankSql: (column) => sql`(case ${column} ${whens} else -1 end)`,
  };
}

export interface AdvanceStatus {
  /** The table, by name (the caller's own constant, never input). */
  table: string;
  id: number | string;
  /** When set, the row must also be this company's. */
  companyId?: number;
  column?: string;
  rank: StatusRank;
  to: string;
  /** Other columns to set together with the status (e.g. error_code, delivered_at). */
  set?: Record<string, unknown>;
}

/** Moves the status forward and answers true, or leaves the row as it is and answers false. */
export async function advanceStatus(db: Db, a: AdvanceStatus): Promise<boolean> {
  const to = a.rank.rank(a.to);
  if (to < 0) throw new Error(`unknown ${a.rank.kind} status ${a.to}`);
  const column = sql.identifier(a.column ?? 'status');
  const extra = Object.entries(a.set ?? {}).map(([k, v]) => sql`, ${sql.identifier(k)} = ${v}`);
  const res = await db.execute(
    sql`update ${sql.identifier(a.table)} set ${column} = ${a.to}${sql.join(extra, sql``)}
        where id = ${a.id} ${a.companyId === undefined ? sql`` : sql`and company_id = ${a.companyId}`}
          and ${a.rank.rankSql(sql`${column}`)} < ${to}::int
        returning id`,
  );
  return res.rows.length > 0;
}
