/**
 * Reading a wallet: its transactions (newest first, 20 a page, by kind or all), and analytics by period (money in
 * and usage out per day, or per month over a year; usage by type). Analytics of a person cover their own wallet;
 * an admin's cover the company's wallets, counting only money that came in by card and went out as usage (moves
 * between the company's own wallets are neither).
 */
import {
  type AnalyticsQuery,
  cardBrandLabel,
  USAGE_PRICES,
  type UsageType,
  type WalletAnalytics,
  type WalletTransaction,
  type WalletTransactionKind,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { describeUsage } from './usage.js';

type Row = Record<string, unknown>;

function describe(kind: WalletTransactionKind, amount: number, description: string, details: Row): string {
  const count = (v: unknown) => (Array.isArray(v) ? v.length : 0);
  const people = (n: number) => `${n} ${n === 1 ? 'person' : 'people'}`;
  switch (kind) {
    case 'usage':
      return description || describeUsage(details);
    case 'allocation':
      return amount < 0
        ? `Allocated to ${people(count(details.to))}`
        : `Allocation from ${details.by_name ?? 'a manager'}`;
    case 'reclaim':
      return amount > 0
        ? `Reclaimed from ${people(count(details.from))}`
        : `Reclaimed by ${details.by_name ?? 'a manager'}`;
    default: {
      const card = details.card_last4
        ? ` (${cardBrandLabel(details.card_brand as string | null)} ending in ${details.card_last4})`
        : '';
      return `${description || (kind === 'auto_refill' ? 'Auto-refill' : 'Top-up')}${card}`;
    }
  }
}

export async function transactionHistory(
  db: Db,
  accountId: number,
  q: { page: number; per_page: number; filter: 'all' | WalletTransactionKind },
) {
  const kind = q.filter === 'all' ? sql`true` : sql`t.kind = ${q.filter}`;
  const rows = await db.execute<Row>(
    sql`select t.id, t.kind, t.description, t.details, t.created_at, e.amount, e.balance_after
        from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where e.account_id = ${accountId} and ${kind}
        order by e.id desc limit ${q.per_page} offset ${(q.page - 1) * q.per_page}`,
  );
  const total = await db.execute<{ n: number }>(
    sql`select count(*) as n from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where e.account_id = ${accountId} and ${kind}`,
  );
  const totalCount = Number(total.rows[0]?.n ?? 0);
  const transactions: WalletTransaction[] = rows.rows.map((r) => {
    const details = (typeof r.details === 'string' ? JSON.parse(r.details) : (r.details ?? {})) as Row;
    const amount = Number(r.amount);
    const k = r.kind as WalletTransactionKind;
    return {
      id: Number(r.id),
      kind: k,
      amount,
      balance_after: r.balance_after === null ? null : Number(r.balance_after),
      description: describe(k, amount, String(r.description ?? ''), details),
      details,
      created_at: new Date(r.created_at as string).toISOString(),
    };
  });
  return {
    transactions,
    pagination: {
      current_page: q.page,
      per_page: q.per_page,
      total_pages: Math.max(1, Math.ceil(totalCount / q.per_page)),
      total_count: totalCount,
    },
  };
}

const DAYS: Record<Exclude<WalletAnalytics['period'], '12m'>, number> = { '7d': 7, '30d': 30, '90d': 90 };

/** Every bucket of the period, oldest first (UTC days, or months for 12m). */
function buckets(period: WalletAnalytics['period'], now: Date) {
  const out: string[] = [];
  if (period === '12m') {
    for (let i = 11; i >= 0; i--) {
      const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
      out.push(d.toISOString().slice(0, 7));
    }
  } else {
    for (let i = DAYS[period] - 1; i >= 0; i--) {
      out.push(
        new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - i)).toISOString().slice(0, 10),
      );
    }
  }
  return out;
}

export async function analytics(
  db: Db,
  scope: { kind: 'user'; accountId: number } | { kind: 'company'; companyId: number },
  q: z.infer<typeof AnalyticsQuery>,
  now = new Date(),
): Promise<WalletAnalytics> {
  const keys = buckets(q.period, now);
  const monthly = q.period === '12m';
  const from = monthly ? `${keys[0]}-01T00:00:00Z` : `${keys[0]}T00:00:00Z`;
  const accounts =
    scope.kind === 'user'
      ? sql`e.account_id = ${scope.accountId}`
      : sql`e.company_id = ${scope.companyId} and e.account_id in
              (select id from ledger_accounts where company_id = ${scope.companyId} and balance is not null)`;
  // A person's money in includes allocations; the company's does not (a move between its own wallets).
  const inKinds = scope.kind === 'user' ? sql`('top_up', 'auto_refill', 'allocation')` : sql`('top_up', 'auto_refill')`;
  const fmt = monthly ? 'YYYY-MM' : 'YYYY-MM-DD';
  const series = await db.execute<{ bucket: string; credits: number; spend: number }>(
    sql`select to_char(e.created_at at time zone 'UTC', ${fmt}) as bucket,
               coalesce(sum(case when e.amount > 0 and t.kind in ${inKinds} then e.amount end), 0) as credits,
               coalesce(sum(case when t.kind = 'usage' then -e.amount end), 0) as spend
        from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where ${accounts} and e.created_at >= ${from}::timestamptz
        group by 1`,
  );
  const byBucket = new Map(series.rows.map((r) => [r.bucket, r]));
  const points = keys.map((k) => ({
    date: k,
    credits: Number(byBucket.get(k)?.credits ?? 0),
    spend: Number(byBucket.get(k)?.spend ?? 0),
  }));
  const usage = await db.execute<{ usage_type: string; amount: number; quantity: number }>(
    sql`select t.details->>'usage_type' as usage_type, sum(-e.amount) as amount,
               sum(coalesce((t.details->>'quantity')::bigint, 1)) as quantity
        from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
        where ${accounts} and t.kind = 'usage' and e.created_at >= ${from}::timestamptz
        group by 1 order by 2 desc`,
  );
  return {
    period: q.period,
    scope: scope.kind,
    from: keys[0],
    to: keys[keys.length - 1],
    totals: {
      credits: points.reduce((s, p) => s + p.credits, 0),
      spend: points.reduce((s, p) => s + p.spend, 0),
    },
    series: points,
    by_usage_type: usage.rows.map((r) => ({
      usage_type: r.usage_type,
      label: USAGE_PRICES[r.usage_type as UsageType]?.label ?? r.usage_type,
      amount: Number(r.amount),
      quantity: Number(r.quantity),
    })),
  };
}
