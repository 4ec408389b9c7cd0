import type { FastifyInstance } from 'fastify';
import type { Module } from '../types.js';
import { auditEventsRoute } from './audit-events.js';
import { featureFlagsRoutes } from './feature-flags.js';
import { adminSignupsRoute } from './signups.js';
import { ssoConnectionRoutes } from './sso-connection.js';
import { adminUsersRoutes } from './users/routes.js';

/** The `admin` area of routes.md (everything under /v1/admin). Each resource registers from its own file. */
export const adminModule: Module = {
  name: 'admin',
  register(scope: FastifyInstance) {
    auditEventsRoute(scope);
    adminUsersRoutes(scope);
    featureFlagsRoutes(scope);
    adminSignupsRoute(scope);
    ssoConnectionRoutes(scope);
  },
};
