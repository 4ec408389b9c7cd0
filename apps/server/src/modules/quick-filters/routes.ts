/**
 * Saved quick filters of the contacts list, per user (`/v1/users/quick_filters`). A filter is a name plus the list
 * state (scope, columns); only its owner sees it. Another company's id is 404 through the tenant guard, another
 * user's of the same company is 404 here.
 */
import {
  IdParams as Id,
  NoContent,
  QuickFilter,
  QuickFilterBody,
  QuickFilterChange,
  QuickFilterList,
} from '@harbor/shared';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { quickFilters } from '../contacts/schema.js';
import type { Module } from '../types.js';

const MAX_PER_USER = 100;

type Row = typeof quickFilters.$inferSelect;
const present = (r: Row): QuickFilter => ({
  id: r.id,
  name: r.name,
  data: r.data,
  created_at: r.createdAt.toISOString(),
});
const tags = ['users'];

export const quickFiltersModule: Module = {
  name: 'quick-filters',
  register(scope: FastifyInstance, { tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;
    tenants.register('quick_filter', companyRowResolver(quickFilters));
    const config = { access: 'contacts.use' as const };
    const byId = { ...config, tenant: { param: 'id', resource: 'quick_filter' } };
    const mine = (auth: AuthContext, id: number) =>
      and(eq(quickFilters.id, id), eq(quickFilters.userId, auth.user.id), eq(quickFilters.companyId, auth.company.id));

    app.get(
      '/v1/users/quick_filters',
      { config, schema: { tags, summary: 'My saved quick filters', response: { 200: QuickFilterList } } },
      async (req) => {
        const auth = authOf(req);
        const rows = await db
          .select()
          .from(quickFilters)
          .where(and(eq(quickFilters.userId, auth.user.id), eq(quickFilters.companyId, auth.company.id)))
          .orderBy(asc(quickFilters.name), asc(quickFilters.id));
        return rows.map(present);
      },
    );

    app.post(
      '/v1/users/quick_filters',
      {
        config,
        schema: { tags, summary: 'Save a quick filter', body: QuickFilterBody, response: { 201: QuickFilter } },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const existing = await db
          .select({ id: quickFilters.id })
          .from(quickFilters)
          .where(eq(quickFilters.userId, auth.user.id));
        if (existing.length >= MAX_PER_USER) {
          throw invalid('base', `at most ${MAX_PER_USER} quick filters`);
        }
        const [row] = await db
          .insert(quickFilters)
          .values({ companyId: auth.company.id, userId: auth.user.id, name: req.body.name, data: req.body.data })
          .returning();
        return reply.code(201).send(present(row));
      },
    );

    app.get(
      '/v1/users/quick_filters/:id',
      { config: byId, schema: { tags, summary: 'One quick filter', params: Id, response: { 200: QuickFilter } } },
      async (req) => {
        const [row] = await db
          .select()
          .from(quickFilters)
          .where(mine(authOf(req), req.params.id));
        if (!row) throw notFound('quick_filter');
        return present(row);
      },
    );

    app.patch(
      '/v1/users/quick_filters/:id',
      {
        config: byId,
        schema: {
          tags,
          summary: 'Rename or change a quick filter',
          params: Id,
          body: QuickFilterChange,
          response: { 200: QuickFilter },
        },
      },
      async (req) => {
        const { name, data } = req.body;
        const [row] = await db
          .update(quickFilters)
          .set({ ...(name !== undefined && { name }), ...(data !== undefined && { data }) })
          .where(mine(authOf(req), req.params.id))
          .returning();
        if (!row) throw notFound('quick_filter');
        return present(row);
      },
    );

    app.delete(
      '/v1/users/quick_filters/:id',
      { config: byId, schema: { tags, summary: 'Delete a quick filter', params: Id, response: { 204: NoContent } } },
      async (req, reply) => {
        const [row] = await db
          .delete(quickFilters)
          .where(mine(authOf(req), req.params.id))
          .returning();
        if (!row) throw notFound('quick_filter');
        return reply.code(204).send(null);
      },
    );
  },
};
