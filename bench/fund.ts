/** A person's wallet topped up through the ledger (a top-up from the company's processor clearing account). */
import { ensureCompanyAccount, ensureUserWallet } from '../apps/server/src/modules/wallet/accounts.js';
import { Ledger } from '../apps/server/src/modules/wallet/poster.js';
import type { Database } from '../apps/server/src/platform/db/client.js';

export async function fundWallet(database: Database, who: { companyId: number; userId: number }, cents: number) {
  const wallet = (await ensureUserWallet(database.db, who.companyId, who.userId))!;
  const clearing = await ensureCompanyAccount(database.db, who.companyId, 'processor_clearing');
  await new Ledger(database, {}).post({
    companyId: who.companyId,
    key: `bench-fund-${who.userId}`,
    kind: 'top_up',
    legs: [
      { accountId: clearing, amount: -cents },
      { accountId: wallet, amount: cents },
    ],
  });
}
