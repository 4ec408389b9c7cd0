/**
 * The ledger's accounts: a wallet per user, and per company a company wallet and the three system accounts
 * (processor clearing, revenue, refunds). Accounts are created on first use and never change company or kind, so
 * their ids can be remembered for the life of the process.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';

export const ACCOUNT_KINDS = ['agent_wallet', 'company_wallet', 'processor_clearing', 'revenue', 'refunds'] as const;
export type AccountKind = (typeof ACCOUNT_KINDS)[number];
export type CompanyAccountKind = Exclude<AccountKind, 'agent_wallet'>;
/** Accounts that hold someone's money: a cached balance, never below zero. */
export const WALLET_KINDS: readonly AccountKind[] = ['agent_wallet', 'company_wallet'];

/**
 * The wallet of `userId` (created with a zero balance on first use). Null when the user is not a user of the
 * company: a wallet is never created across tenants.
 */
export async function ensureUserWallet(db: Db, companyId: number, userId: number): Promise<number | null> {
  // Twice at most: a concurrent first insert makes ours do nothing while our statement's snapshot cannot see its
  // row yet; the second statement does.
  for (let attempt = 0; attempt < 2; attempt++) {
    const id = await userWalletOnce(db, companyId, userId);
    if (id !== null) return id;
  }
  return null;
}

async function userWalletOnce(db: Db, companyId: number, userId: number): Promise<number | null> {
  const res = await db.execute<{ id: number }>(
    sql`with ins as (
          insert into ledger_accounts (company_id, kind, user_id, balance)
          select company_id, 'agent_wallet', id, 0 from users where id = ${userId} and company_id = ${companyId}
          on conflict (user_id) where kind = 'agent_wallet' do nothing
          returning id)
        select id from ins
        union all
        select id from ledger_accounts where kind = 'agent_wallet' and user_id = ${userId} and company_id = ${companyId}
        limit 1`,
  );
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

/** The company's account of `kind` (created on first use; wallets start at zero, system accounts carry no cache). */
export async function ensureCompanyAccount(db: Db, companyId: number, kind: CompanyAccountKind): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const id = await companyAccountOnce(db, companyId, kind);
    if (id !== null) return id;
    if (attempt >= 2) throw new Error(`ledger account ${kind} of company ${companyId} could not be created`);
  }
}

async function companyAccountOnce(db: Db, companyId: number, kind: CompanyAccountKind): Promise<number | null> {
  const balance = WALLET_KINDS.includes(kind) ? 0 : null;
  const res = await db.execute<{ id: number }>(
    sql`with ins as (
          insert into ledger_accounts (company_id, kind, balance) values (${companyId}, ${kind}, ${balance})
          on conflict (company_id, kind) where kind <> 'agent_wallet' do nothing
          returning id)
        select id from ins
        union all
        select id from ledger_accounts where company_id = ${companyId} and kind = ${kind}
        limit 1`,
  );
  return res.rows[0] ? Number(res.rows[0].id) : null;
}

/** Ids remembered per process: an account never changes company or kind, and is never deleted. */
export class AccountDirectory {
  private users = new Map<string, number>();
  private company = new Map<string, number>();

  constructor(private readonly db: Db) {}

  /** Outside any transaction (the id is remembered only once its row is committed). */
  async userWallet(companyId: number, userId: number): Promise<number | null> {
    const k = `${companyId}:${userId}`;
    const known = this.users.get(k);
    if (known) return known;
    const id = await ensureUserWallet(this.db, companyId, userId);
    if (id) this.users.set(k, id);
    return id;
  }

  async companyAccount(companyId: number, kind: CompanyAccountKind): Promise<number> {
    const k = `${companyId}:${kind}`;
    const known = this.company.get(k);
    if (known) return known;
    const id = await ensureCompanyAccount(this.db, companyId, kind);
    this.company.set(k, id);
    return id;
  }
}
