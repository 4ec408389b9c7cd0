/**
 * The wallet as one person sees it: their wallet account, auto-refill settings and saved card, and (for admins) the
 * company wallet that allocations draw from. One ledger per process, shared by every area that charges usage.
 */
import { can, type UpdateSettingsBody, WALLET_DEFAULTS, type WalletState } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { invalid } from '../../platform/http/errors.js';
import { reachOf } from '../../platform/reach.js';
import { Ledger } from './poster.js';

export const AUTO_REFILL_JOB = 'wallet.auto_refill';

const ledgers = new WeakMap<Deps, Ledger>();

/**
 * The process's ledger (group-committed posting, poster.ts). Any area that charges a wallet (texts, calls) takes
 * it from here; a threshold crossed by a debit queues the auto-refill job in the same transaction.
 */
export function ledgerOf(deps: Deps): Ledger {
  let ledger = ledgers.get(deps);
  if (!ledger) {
    ledger = new Ledger(deps.database, {
      hooks: {
        async onThresholdCrossed(tx, wallet) {
          await deps.jobs.enqueue(
            AUTO_REFILL_JOB,
            { account_id: wallet.accountId },
            { db: tx, uniqueKey: `auto-refill:${wallet.accountId}`, companyId: wallet.companyId, maxAttempts: 3 },
          );
        },
      },
    });
    ledgers.set(deps, ledger);
  }
  return ledger;
}

/** Admins and sub_admins (company reach) fund allocations from the company wallet; everyone else from their own. */
export const fundsFromCompany = (auth: AuthContext) => reachOf(auth) === 'company';

export interface Settings {
  enabled: boolean;
  threshold: number;
  amount: number;
  customerId: string | null;
  paymentMethodId: string | null;
  card: WalletState['card'];
}

export async function readSettings(db: Db, accountId: number): Promise<Settings> {
  const res = await db.execute<Record<string, unknown>>(
    sql`select * from wallet_settings where account_id = ${accountId}`,
  );
  const r = res.rows[0];
  if (!r) return { ...WALLET_DEFAULTS, customerId: null, paymentMethodId: null, card: null };
  return {
    enabled: Boolean(r.auto_refill_enabled),
    threshold: Number(r.auto_refill_threshold),
    amount: Number(r.auto_refill_amount),
    customerId: (r.processor_customer_id as string | null) ?? null,
    paymentMethodId: (r.payment_method_id as string | null) ?? null,
    card: r.card_last4
      ? {
          brand: String(r.card_brand),
          last4: String(r.card_last4),
          exp_month: Number(r.card_exp_month),
          exp_year: Number(r.card_exp_year),
        }
      : null,
  };
}

export async function balanceOf(db: Db, accountId: number): Promise<number> {
  const res = await db.execute<{ balance: number }>(sql`select balance from ledger_accounts where id = ${accountId}`);
  return Number(res.rows[0]?.balance ?? 0);
}

export async function walletState(deps: Deps, auth: AuthContext): Promise<WalletState> {
  const ledger = ledgerOf(deps);
  const db = deps.database.db;
  const account = (await ledger.accounts.userWallet(auth.company.id, auth.user.id))!;
  const settings = await readSettings(db, account);
  const company = fundsFromCompany(auth)
    ? await balanceOf(db, await ledger.accounts.companyAccount(auth.company.id, 'company_wallet'))
    : null;
  return {
    balance: await balanceOf(db, account),
    auto_refill_settings: { enabled: settings.enabled, threshold: settings.threshold, amount: settings.amount },
    card: settings.card,
    company_balance: company,
    can_allocate: can(auth.subject, 'wallet.allocate'),
    processor: { kind: deps.payments.kind, publishable_key: deps.payments.keys.publishableKey },
  };
}

/**
 * PUT update_settings: auto-refill needs a saved card (kept by a top-up with save_card). Turned on while the
 * balance is already under the threshold, it refills at once (the same job a crossing debit queues).
 */
export async function updateSettings(deps: Deps, auth: AuthContext, accountId: number, body: UpdateSettingsBody) {
  const db = deps.database.db;
  const current = await readSettings(db, accountId);
  const next = {
    enabled: body.enabled ?? current.enabled,
    threshold: body.threshold ?? current.threshold,
    amount: body.amount ?? current.amount,
  };
  if (next.enabled && !current.paymentMethodId) {
    throw invalid('enabled', 'Save a card with a top-up first: auto-refill charges that card.');
  }
  await db.execute(
    sql`insert into wallet_settings (account_id, company_id, auto_refill_enabled, auto_refill_threshold, auto_refill_amount)
        values (${accountId}, ${auth.company.id}, ${next.enabled}, ${next.threshold}, ${next.amount})
        on conflict (account_id) do update set auto_refill_enabled = excluded.auto_refill_enabled,
          auto_refill_threshold = excluded.auto_refill_threshold, auto_refill_amount = excluded.auto_refill_amount,
          updated_at = now()`,
  );
  if (next.enabled && (await balanceOf(db, accountId)) < next.threshold) {
    await deps.jobs.enqueue(
      AUTO_REFILL_JOB,
      { account_id: accountId },
      { uniqueKey: `auto-refill:${accountId}`, companyId: auth.company.id, maxAttempts: 3 },
    );
  }
}
