/**
 * GET /v1/admin/audit_events: the company's security log (sign-ins, failures, password and two-factor changes,
 * impersonation), newest first. Not in routes.md: see docs/decisions/audit-log-route.md.
 */

import { AuditEventPage, AuditEventsQuery } from '@harbor/shared';
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { auditEvents } from '../../platform/audit/schema.js';
import { users } from '../../platform/db/schema.js';
import { authOf } from '../../platform/http/pipeline.js';

export function auditEventsRoute(scope: FastifyInstance) {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/v1/admin/audit_events',
    {
      config: { access: 'admin.manage' },
      schema: {
        tags: ['admin'],
        summary: 'Security audit log of the company',
        querystring: AuditEventsQuery,
        response: {
          200: AuditEventPage,
        },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const q = req.query;
      const where: SQL[] = [eq(auditEvents.companyId, auth.company.id)];
      if (q.before_id) where.push(lt(auditEvents.id, q.before_id));
      if (q.event) where.push(eq(auditEvents.event, q.event));
      if (q.user_id) where.push(eq(auditEvents.userId, q.user_id));
      const rows = await scope.deps.database.db
        .select({ e: auditEvents, email: users.email })
        .from(auditEvents)
        .leftJoin(users, eq(users.id, auditEvents.userId))
        .where(and(...where))
        .orderBy(desc(auditEvents.id))
        .limit(q.limit + 1);
      const page = rows.slice(0, q.limit);
      return {
        data: page.map(({ e, email }) => ({
          id: e.id,
          event: e.event,
          user_id: e.userId,
          user_email: email,
          actor_id: e.actorId,
          ip: e.ip,
          data: e.data,
          created_at: e.createdAt.toISOString(),
        })),
        meta: { next_before_id: rows.length > q.limit ? page[page.length - 1].e.id : null },
      };
    },
  );
}
