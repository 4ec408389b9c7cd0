/**
 * The ledger's self-check: recomputes every wallet's balance from its entries and compares it with the cached one,
 * finds transactions that do not sum to zero and wallets below zero. Run by the hourly `wallet.check` job (a
 * disagreement is logged as an error), by the tests after every concurrent scenario, and by bench/wallet.ts.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';

export interface LedgerCheck {
  /** Wallets whose cached balance differs from the sum of their entries. */
  mismatches: Array<{ accountId: number; cached: number; derived: number }>;
  /** Transactions whose entries do not sum to zero (the database refuses them; this proves it). */
  unbalanced: number[];
  negativeWallets: number[];
  /** The sum of every entry considered: zero in a sound ledger. */
  entriesSum: number;
  entries: number;
  ok: boolean;
}

export async function checkLedger(db: Db, companyId?: number): Promise<LedgerCheck> {
  const company = companyId === undefined ? sql`true` : sql`a.company_id = ${companyId}`;
  const mism = await db.execute<{ id: number; balance: number; derived: number }>(
    sql`select a.id, a.balance, coalesce(s.total, 0) as derived
        from ledger_accounts a
        left join (select account_id, sum(amount) as total from ledger_entries group by account_id) s
          on s.account_id = a.id
        where a.balance is not null and ${company} and a.balance <> coalesce(s.total, 0)`,
  );
  const entryCompany = companyId === undefined ? sql`true` : sql`company_id = ${companyId}`;
  const unbalanced = await db.execute<{ transaction_id: number }>(
    sql`select transaction_id from ledger_entries where ${entryCompany}
        group by transaction_id having sum(amount) <> 0 limit 100`,
  );
  const negative = await db.execute<{ id: number }>(
    sql`select a.id from ledger_accounts a where ${company} and a.balance < 0`,
  );
  const totals = await db.execute<{ total: number | null; n: number }>(
    sql`select sum(amount) as total, count(*) as n from ledger_entries where ${entryCompany}`,
  );
  const check: LedgerCheck = {
    mismatches: mism.rows.map((r) => ({
      accountId: Number(r.id),
      cached: Number(r.balance),
      derived: Number(r.derived),
    })),
    unbalanced: unbalanced.rows.map((r) => Number(r.transaction_id)),
    negativeWallets: negative.rows.map((r) => Number(r.id)),
    entriesSum: Number(totals.rows[0]?.total ?? 0),
    entries: Number(totals.rows[0]?.n ?? 0),
    ok: false,
  };
  check.ok =
    !check.mismatches.length && !check.unbalanced.length && !check.negativeWallets.length && check.entriesSum === 0;
  return check;
}
