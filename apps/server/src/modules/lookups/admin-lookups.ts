/** /v1/admin/statuses, agentflow_statuses, sources, carriers (CRUD) and PATCH /v1/admin/agentflow_status_groups. */
import {
  AgentflowStatus,
  AgentflowStatusBody,
  AgentflowStatusCrud,
  AgentflowStatusesReply,
  AgentflowStatusGroupsBody,
  Carrier,
  CarrierBody,
  CarrierCrud,
  Source,
  SourceBody,
  SourceCrud,
  Status,
  StatusBody,
  StatusCrud,
} from '@harbor/shared';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { crudRoutes, given, usage } from '../../platform/http/crud.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import type { TenantRegistry } from '../../platform/tenancy.js';
import { agentflowTree } from './presenters.js';
import { agentflowStatuses, agentflowStatusGroups, carriers, sources, statuses } from './schema.js';

type StatusRow = typeof statuses.$inferSelect;
type AgentflowRow = typeof agentflowStatuses.$inferSelect;
type SourceRow = typeof sources.$inferSelect;
type CarrierRow = typeof carriers.$inferSelect;

export const presentStatus = (s: StatusRow) => ({
  id: s.id,
  name: s.name,
  color: s.color,
  position: s.position,
  active: s.active,
});
export const presentAgentflow = (s: AgentflowRow) => ({
  id: s.id,
  name: s.name,
  group_id: s.groupId,
  position: s.position,
  active: s.active,
});
export const presentSource = (s: SourceRow) => ({ id: s.id, name: s.name, active: s.active });
export const presentCarrier = (c: CarrierRow) => ({ id: c.id, name: c.name, naic: c.naic, active: c.active });

export function adminLookupsRoutes(scope: FastifyInstance, tenants: TenantRegistry) {
  const lookup = { access: 'lookups.manage', tags: ['admin'], uniqueName: true } as const;
  const summaries = (what: string) => ({ list: `All ${what} (active and not)` });
  crudRoutes<StatusRow>(scope, tenants, {
    ...lookup,
    base: '/v1/admin/statuses',
    resource: 'status',
    summaries: summaries('statuses'),
    table: statuses,
    body: StatusBody,
    reply: Status,
    schemas: StatusCrud,
    present: presentStatus,
    order: [asc(statuses.position), asc(statuses.name)],
    columns: (b) => given({ name: b.name, color: b.color, position: b.position, active: b.active }),
    inUse: (db, id) => usage(db, 'contacts', sql`select count(*) as n from contacts where status_id = ${id}`),
  });
  crudRoutes<AgentflowRow>(scope, tenants, {
    ...lookup,
    base: '/v1/admin/agentflow_statuses',
    resource: 'agentflow_status',
    summaries: summaries('agentflow_statuses'),
    table: agentflowStatuses,
    body: AgentflowStatusBody,
    reply: AgentflowStatus,
    schemas: AgentflowStatusCrud,
    present: presentAgentflow,
    order: [asc(agentflowStatuses.position), asc(agentflowStatuses.name)],
    columns: (b) => given({ name: b.name, groupId: b.group_id, position: b.position, active: b.active }),
    check: async (db, companyId, b) => {
      if (typeof b.group_id !== 'number') return;
      const [g] = await db
        .select({ id: agentflowStatusGroups.id })
        .from(agentflowStatusGroups)
        .where(and(eq(agentflowStatusGroups.id, b.group_id), eq(agentflowStatusGroups.companyId, companyId)));
      if (!g) throw invalid('group_id', 'does not exist');
    },
    inUse: (db, id) => usage(db, 'contacts', sql`select count(*) as n from contacts where agentflow_status_id = ${id}`),
  });
  crudRoutes<SourceRow>(scope, tenants, {
    ...lookup,
    base: '/v1/admin/sources',
    resource: 'source',
    summaries: summaries('sources'),
    table: sources,
    body: SourceBody,
    reply: Source,
    schemas: SourceCrud,
    present: presentSource,
    columns: (b) => given({ name: b.name, active: b.active }),
    inUse: (db, id) => usage(db, 'contacts', sql`select count(*) as n from contacts where source_id = ${id}`),
  });
  crudRoutes<CarrierRow>(scope, tenants, {
    ...lookup,
    base: '/v1/admin/carriers',
    resource: 'carrier',
    summaries: summaries('carriers'),
    table: carriers,
    body: CarrierBody,
    reply: Carrier,
    schemas: CarrierCrud,
    present: presentCarrier,
    columns: (b) => given({ name: b.name, naic: b.naic === '' ? null : b.naic, active: b.active }),
    inUse: (db, id) => usage(db, 'policies', sql`select count(*) as n from policies where carrier_id = ${id}`),
  });

  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  app.patch(
    '/v1/admin/agentflow_status_groups',
    {
      config: { access: 'lookups.manage' },
      schema: {
        tags: ['admin'],
        summary: 'Replace the agent-flow status groups: rename/reorder by id, create without id, delete the rest',
        body: AgentflowStatusGroupsBody,
        response: { 200: AgentflowStatusesReply },
      },
    },
    async (req) => {
      const companyId = authOf(req).company.id;
      const names = req.body.groups.map((g) => g.name.toLowerCase());
      if (new Set(names).size !== names.length) throw invalid('groups', 'contains the same name twice');
      await db.transaction(async (t) => {
        const existing = await t
          .select({ id: agentflowStatusGroups.id })
          .from(agentflowStatusGroups)
          .where(eq(agentflowStatusGroups.companyId, companyId));
        const mine = new Set(existing.map((g) => g.id));
        const keep = req.body.groups.filter((g) => g.id !== undefined).map((g) => g.id!);
        const foreign = keep.find((id) => !mine.has(id));
        if (foreign) throw invalid('groups', `group ${foreign} does not exist`);
        const gone = [...mine].filter((id) => !keep.includes(id));
        if (gone.length) {
          // Statuses of a removed group stay (contacts point at them); they just become ungrouped.
          await t
            .update(agentflowStatuses)
            .set({ groupId: null })
            .where(and(eq(agentflowStatuses.companyId, companyId), inArray(agentflowStatuses.groupId, gone)));
          await t
            .delete(agentflowStatusGroups)
            .where(and(eq(agentflowStatusGroups.companyId, companyId), inArray(agentflowStatusGroups.id, gone)));
        }
        for (const [i, g] of req.body.groups.entries()) {
          const position = g.position ?? i;
          if (g.id)
            await t
              .update(agentflowStatusGroups)
              .set({ name: g.name, position })
              .where(and(eq(agentflowStatusGroups.id, g.id), eq(agentflowStatusGroups.companyId, companyId)));
          else await t.insert(agentflowStatusGroups).values({ companyId, name: g.name, position });
        }
      });
      return agentflowTree(db, companyId, false);
    },
  );
}
