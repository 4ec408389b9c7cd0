/**
 * Texting and dialer plans (issues 12 and 13, the commercial side): one machinery for both products, registered
 * once per product: the user routes (`/v1/<product>/<product>_...`), the admin routes (`/v1/admin/<product>/...`),
 * the tenant resolvers of their records, the processor's events of plan orders and the renewal job.
 *
 * Other areas call enforcement.ts (dialerEnablement, checkDialerQuota, checkSmsAllocation, recordUsage).
 */
import { PLAN_PRODUCTS } from '@harbor/shared';
import { and, eq, isNull } from 'drizzle-orm';
import { companyRowResolver } from '../../platform/tenancy.js';
import type { Module } from '../types.js';
import { registerAdminRoutes } from './admin-routes.js';
import { handleProcessorEvent, PLAN_PURPOSE } from './payment.js';
import { RENEW_JOB, renewDue } from './renewal.js';
import { registerProductRoutes } from './routes.js';
import { planLicences, planOrders, planSubscriptions } from './schema.js';

export const usagePlansModule: Module = {
  name: 'usage-plans',
  register(scope, { tenants }) {
    const deps = scope.deps;
    for (const product of PLAN_PRODUCTS) {
      tenants.register(
        `${product}_subscription`,
        companyRowResolver(planSubscriptions, { live: eq(planSubscriptions.product, product) }),
      );
      tenants.register(
        `${product}_licence`,
        companyRowResolver(planLicences, {
          live: and(eq(planLicences.product, product), isNull(planLicences.removedAt)),
        }),
      );
      tenants.register(`${product}_order`, companyRowResolver(planOrders, { live: eq(planOrders.product, product) }));
      registerProductRoutes(scope, product);
      registerAdminRoutes(scope, tenants, product);
    }
    deps.payments.onEvent(PLAN_PURPOSE, (type, object, tx) => handleProcessorEvent(deps, type, object, tx));
    deps.jobs.register(RENEW_JOB, async () => void (await renewDue(deps)), { concurrency: 1 });
    deps.schedules.add({ name: RENEW_JOB, cron: '*/5 * * * *' });
  },
};
