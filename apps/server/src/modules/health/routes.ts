import { SYSTEM_VERSION } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Module } from '../types.js';

export const healthModule: Module = {
  name: 'health',
  register(scope: FastifyInstance) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/health',
      {
        config: { access: 'public' },
        schema: {
          tags: ['public'],
          summary: 'Health check (also hands the browser its CSRF cookie)',
          response: {
            200: z.object({ status: z.literal('ok'), version: z.string(), database: z.enum(['pglite', 'postgres']) }),
          },
        },
      },
      async () => {
        await scope.deps.database.query('select 1');
        return { status: 'ok' as const, version: SYSTEM_VERSION, database: scope.deps.database.kind };
      },
    );
  },
};
