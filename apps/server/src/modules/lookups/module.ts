import type { FastifyInstance } from 'fastify';
import { companyRowResolver } from '../../platform/tenancy.js';
import type { Module, ModuleContext } from '../types.js';
import { adminLookupsRoutes } from './admin-lookups.js';
import { groupAndPoolRoutes } from './groups-pools.js';
import { lookupRoutes } from './routes.js';
import { groups, pools } from './schema.js';

/** The `lookups` area plus their admin CRUD (/v1/admin/...) and /v1/groups, /v1/pools. */
export const lookupsModule: Module = {
  name: 'lookups',
  register(scope: FastifyInstance, { tenants }: ModuleContext) {
    tenants.register('group', companyRowResolver(groups));
    tenants.register('pool', companyRowResolver(pools));
    lookupRoutes(scope);
    adminLookupsRoutes(scope, tenants);
    groupAndPoolRoutes(scope);
  },
};
