/** GET /v1/admin/signups: people proposed to join the company (POST /v1/users/signups), newest first, paged. */
import { Paging, SignupList } from '@harbor/shared';
import { count, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { users } from '../../platform/db/schema.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { signups } from '../users/schema.js';

export function adminSignupsRoute(scope: FastifyInstance) {
  const db = scope.deps.database.db;
  scope.withTypeProvider<ZodTypeProvider>().get(
    '/v1/admin/signups',
    {
      config: { access: 'admin.signups' },
      schema: {
        tags: ['admin'],
        summary: 'Signups of the company',
        querystring: Paging,
        response: { 200: SignupList },
      },
    },
    async (req) => {
      const { page, limit } = req.query;
      const companyId = authOf(req).company.id;
      const where = eq(signups.companyId, companyId);
      const [{ total }] = await db.select({ total: count() }).from(signups).where(where);
      const rows = await db
        .select({ s: signups, sponsor: { id: users.id, first: users.firstName, last: users.lastName } })
        .from(signups)
        .leftJoin(users, eq(users.id, signups.sponsorId))
        .where(where)
        .orderBy(desc(signups.createdAt), desc(signups.id))
        .limit(limit)
        .offset(pageOffset(page, limit));
      return {
        data: rows.map(({ s, sponsor }) => ({
          id: s.id,
          first_name: s.firstName,
          last_name: s.lastName,
          email: s.email,
          phone: s.phone,
          note: s.note,
          status: s.status,
          sponsor: sponsor ? { id: sponsor.id, name: `${sponsor.first} ${sponsor.last}`.trim() } : null,
          created_at: s.createdAt.toISOString(),
        })),
        meta: pageMeta(page, limit, total),
      };
    },
  );
}
