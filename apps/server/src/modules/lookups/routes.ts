/** The read-only lookups every signed-in user's pickers need (`lookups` area), active rows only. */
import {
  AgentflowStatusesReply,
  ApiVendorList,
  CarrierList,
  CarriersQuery,
  SourceList,
  StatusList,
} from '@harbor/shared';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../platform/http/pipeline.js';
import { presentCarrier, presentSource, presentStatus } from './admin-lookups.js';
import { agentflowTree } from './presenters.js';
import { apiVendors, carriers, sources, statuses } from './schema.js';

const tags = ['lookups'];

export function lookupRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const config = { access: 'contacts.use' as const };

  app.get(
    '/v1/statuses',
    { config, schema: { tags, summary: 'Contact statuses', response: { 200: StatusList } } },
    async (req) => {
      const rows = await db
        .select()
        .from(statuses)
        .where(and(eq(statuses.companyId, authOf(req).company.id), eq(statuses.active, true)))
        .orderBy(asc(statuses.position), asc(statuses.name));
      return { data: rows.map(presentStatus) };
    },
  );

  app.get(
    '/v1/agentflow_statuses',
    { config, schema: { tags, summary: 'Agent-flow statuses by group', response: { 200: AgentflowStatusesReply } } },
    async (req) => agentflowTree(db, authOf(req).company.id, true),
  );

  app.get(
    '/v1/sources',
    { config, schema: { tags, summary: 'Contact sources', response: { 200: SourceList } } },
    async (req) => {
      const rows = await db
        .select()
        .from(sources)
        .where(and(eq(sources.companyId, authOf(req).company.id), eq(sources.active, true)))
        .orderBy(asc(sources.name));
      return { data: rows.map(presentSource) };
    },
  );

  app.get(
    '/v1/api_vendors',
    {
      config: { access: 'api_vendors.view' },
      schema: { tags, summary: 'Lead (API) vendors', response: { 200: ApiVendorList } },
    },
    async (req) => {
      const rows = await db
        .select()
        .from(apiVendors)
        .where(and(eq(apiVendors.companyId, authOf(req).company.id), eq(apiVendors.active, true)))
        .orderBy(asc(apiVendors.vendorName));
      return {
        data: rows.map((v) => ({ id: v.id, vendor_name: v.vendorName, vendor_type: v.vendorType, active: v.active })),
      };
    },
  );

  app.get(
    '/v1/carriers',
    {
      config,
      schema: {
        tags,
        summary: 'Carriers, optionally matching q',
        querystring: CarriersQuery,
        response: { 200: CarrierList },
      },
    },
    async (req) => {
      const q = req.query.q?.toLowerCase();
      const like = q ? `%${q.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
      const rows = await db
        .select()
        .from(carriers)
        .where(
          and(
            eq(carriers.companyId, authOf(req).company.id),
            eq(carriers.active, true),
            like ? sql`lower(${carriers.name}) like ${like}` : undefined,
          ),
        )
        .orderBy(asc(carriers.name))
        .limit(200);
      return { data: rows.map(presentCarrier) };
    },
  );
}
