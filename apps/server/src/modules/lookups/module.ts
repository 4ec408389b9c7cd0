import type { FastifyInstance } from 'fastify';
import type { Module, ModuleContext } from '../types.js';
import { adminLookupsRoutes } from './admin-lookups.js';
import { groupAndPoolRoutes } from './groups-pools.js';
import { lookupRoutes } from './routes.js';
import { agentflowStatuses, carriers, groups, pools, sources, statuses } from './schema.js';
import { companyRowResolver } from './tenant.js';

/** The `lookups` area plus their admin CRUD (/v1/admin/...) and /v1/groups, /v1/pools. */
export const lookupsModule: Module = {
  name: 'lookups',
  register(scope: FastifyInstance, { tenants }: ModuleContext) {
    tenants.register('status', companyRowResolver(statuses));
    tenants.register('agentflow_status', companyRowResolver(agentflowStatuses));
    tenants.register('source', companyRowResolver(sources));
    tenants.register('carrier', companyRowResolver(carriers));
    tenants.register('group', companyRowResolver(groups));
    tenants.register('pool', companyRowResolver(pools));
    lookupRoutes(scope);
    adminLookupsRoutes(scope);
    groupAndPoolRoutes(scope);
  },
};
