/**
 * The wallet area (issue 10): the ledger (ledger.ts, poster.ts), card payments (payments.ts) credited from the
 * processor's verified webhook, auto-refill, allocation, history, analytics and invoices. It registers its routes,
 * its jobs (`wallet.auto_refill`, the hourly `wallet.check`) and its handler of processor events.
 */
import type { Module } from '../types.js';
import { handleProcessorEvent, PURPOSE, runAutoRefill } from './payments.js';
import { registerWalletRoutes } from './routes.js';
import { AUTO_REFILL_JOB, ledgerOf } from './service.js';
import { checkLedger } from './verify.js';

export const WALLET_CHECK_JOB = 'wallet.check';

export const walletModule: Module = {
  name: 'wallet',
  register(scope) {
    const deps = scope.deps;
    const ledger = ledgerOf(deps);
    deps.payments.onEvent(PURPOSE, (type, object, tx) => handleProcessorEvent(deps, type, object, tx));
    deps.jobs.register(AUTO_REFILL_JOB, (ctx) => runAutoRefill(deps, Number(ctx.job.payload.account_id)), {
      concurrency: 2,
    });
    deps.jobs.register(
      WALLET_CHECK_JOB,
      async () => {
        const check = await checkLedger(deps.database.db);
        if (!check.ok) {
          // Money that does not add up is an incident, not a warning: the log says exactly what disagrees.
          scope.log.error(
            { ledgerCheck: { ...check, mismatches: check.mismatches.slice(0, 50) } },
            'ledger check failed',
          );
        }
      },
      { concurrency: 1 },
    );
    deps.schedules.add({ name: WALLET_CHECK_JOB, cron: '41 * * * *' });
    scope.addHook('onClose', async () => ledger.close());
    registerWalletRoutes(scope);
  },
};
