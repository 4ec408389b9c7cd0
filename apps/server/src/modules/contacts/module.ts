import type { FastifyInstance } from 'fastify';
import type { Module, ModuleContext } from '../types.js';
import { contactActionRoutes } from './action-routes.js';
import { contactDetailRoutes } from './detail-routes.js';
import { contactTenantResolver } from './tenant.js';

/** The single-contact half of the `contacts` area (detail, create, edit, quick actions); the list registers apart. */
export const contactDetailModule: Module = {
  name: 'contact-detail',
  register(scope: FastifyInstance, { tenants }: ModuleContext) {
    tenants.register('contact', contactTenantResolver);
    contactDetailRoutes(scope);
    contactActionRoutes(scope);
  },
};
