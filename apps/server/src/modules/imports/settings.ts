/** Saved import mappings (import settings): each person's own, by name. */
import { ErrorBody, ImportSetting, ImportSettingBody, ImportSettingList } from '@harbor/shared';
import { and, desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { presentSetting } from './presenter.js';
import { importSettings } from './schema.js';

const tags = ['imports'];

export function registerSettingRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  app.get(
    '/v1/import_settings',
    {
      config: { access: 'imports.use' },
      schema: {
        tags,
        summary: 'My saved import settings',
        response: { 200: ImportSettingList, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const rows = await db
        .select()
        .from(importSettings)
        .where(and(eq(importSettings.companyId, auth.company.id), eq(importSettings.userId, auth.user.id)))
        .orderBy(desc(importSettings.id))
        .limit(200);
      return { data: rows.map(presentSetting) };
    },
  );

  app.post(
    '/v1/import_settings',
    {
      config: { access: 'imports.use' },
      schema: {
        tags,
        summary: 'Save an import setting (name + mapping data)',
        body: ImportSettingBody,
        response: { 201: ImportSetting, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const [row] = await db
        .insert(importSettings)
        .values({ companyId: auth.company.id, userId: auth.user.id, name: req.body.name, data: req.body.data })
        .returning();
      reply.code(201);
      return presentSetting(row);
    },
  );

  app.delete(
    '/v1/import_settings/:id',
    {
      config: { access: 'imports.use', tenant: { param: 'id', resource: 'import_setting' } },
      schema: {
        tags,
        summary: 'Delete one of my import settings',
        params: z.object({ id: z.coerce.number().int().positive() }),
        response: { 204: z.null(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const gone = await db
        .delete(importSettings)
        .where(
          and(
            eq(importSettings.id, req.params.id),
            eq(importSettings.companyId, auth.company.id),
            eq(importSettings.userId, auth.user.id),
          ),
        )
        .returning({ id: importSettings.id });
      if (gone.length === 0) throw notFound('import_setting');
      return reply.code(204).send(null);
    },
  );
}
