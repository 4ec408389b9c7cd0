/**
 * bench/wallet.ts's victim: posts debits on the seeded wallets as fast as it can until it is killed (SIGKILL), so
 * the bench can check the ledger's invariants after a crash in the middle of batches.
 */
import { Ledger } from '../apps/server/src/modules/wallet/poster.js';
import { openDatabase } from '../apps/server/src/platform/db/client.js';

const seeded = JSON.parse(process.env.WORKER_SEED!) as {
  companyId: number;
  wallets: number[];
  revenue: number;
};
const database = await openDatabase({ databaseUrl: process.env.WORKER_DATABASE_URL! });
const ledger = new Ledger(database);
process.stdout.write('ready\n');
await Promise.all(
  Array.from({ length: 32 }, async (_, c) => {
    for (let i = 0; ; i++) {
      const wallet = seeded.wallets[1 + ((c * 31 + i) % (seeded.wallets.length - 2))];
      await ledger.post({
        companyId: seeded.companyId,
        key: `kill-${c}-${i}`,
        kind: 'usage',
        legs: [
          { accountId: wallet, amount: -1 },
          { accountId: seeded.revenue, amount: 1 },
        ],
      });
    }
  }),
);
