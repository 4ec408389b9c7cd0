/**
 * bench/wallet.ts's victim: charges texts to the seeded wallets (chargeUsageOn) as fast as it can until it is killed (SIGKILL), so
 * the bench can check the ledger's invariants after a crash in the middle of batches.
 */
import { Ledger } from '../apps/server/src/modules/wallet/poster.js';
import { chargeUsageOn } from '../apps/server/src/modules/wallet/usage.js';
import { openDatabase } from '../apps/server/src/platform/db/client.js';

const seeded = JSON.parse(process.env.WORKER_SEED!) as {
  companyId: number;
  userIds: number[];
};
const database = await openDatabase({ databaseUrl: process.env.WORKER_DATABASE_URL! });
const ledger = new Ledger(database);
process.stdout.write('ready\n');
await Promise.all(
  Array.from({ length: 32 }, async (_, c) => {
    for (let i = 0; ; i++) {
      const user = seeded.userIds[1 + ((c * 31 + i) % (seeded.userIds.length - 2))];
      await chargeUsageOn(ledger, {
        companyId: seeded.companyId,
        userId: user,
        usageType: 'sms',
        quantity: 1,
        unitPrice: 1,
        idempotencyKey: `kill-${c}-${i}`,
      });
    }
  }),
);
