/**
 * GET /v1/admin/audit_events: the company's security log (sign-ins, failures, password and two-factor changes,
 * impersonation), newest first. Not in routes.md: see docs/decisions/audit-log-route.md.
 */
import { and, desc, eq, lt, type SQL } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { auditEvents } from '../../platform/audit/schema.js';
import { users } from '../../platform/db/schema.js';
import { authOf } from '../../platform/http/pipeline.js';

const Query = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  /** Keyset paging: events older than this id. */
  before_id: z.coerce.number().int().positive().optional(),
  event: z.string().max(50).optional(),
  user_id: z.coerce.number().int().positive().optional(),
});

const Event = z.object({
  id: z.number(),
  event: z.string(),
  user_id: z.number().nullable(),
  user_email: z.string().nullable(),
  actor_id: z.number().nullable(),
  ip: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  created_at: z.string(),
});

export function auditEventsRoute(scope: FastifyInstance) {
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/v1/admin/audit_events',
    {
      config: { access: 'admin.manage' },
      schema: {
        tags: ['admin'],
        summary: 'Security audit log of the company',
        querystring: Query,
        response: {
          200: z.object({ data: z.array(Event), meta: z.object({ next_before_id: z.number().nullable() }) }),
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
