/**
 * GET /v1/health: whether this process can serve, and what it is running without. 200 `ok`; 200 `degraded` while
 * Redis (REDIS_URL) is unreachable: requests are still served (live frames dropped, jobs by the poller, limits and
 * sessions fail closed), and a load balancer must not take every process out for a shared outage; 503 `down` when
 * the database does not answer. See docs/decisions/health-and-redis-outage.md. Never rate limited.
 */
import { Health, SYSTEM_VERSION } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Module } from '../types.js';

const DATABASE_TIMEOUT_MS = 2_000;

export const healthModule: Module = {
  name: 'health',
  register(scope: FastifyInstance) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/health',
      {
        config: { access: 'public', rateLimit: false },
        schema: {
          tags: ['public'],
          summary: 'Health check (also hands the browser its CSRF cookie)',
          response: { 200: Health, 503: Health },
        },
      },
      async (_req, reply) => {
        const { database, redis } = scope.deps;
        const databaseUp = await databaseAnswers(scope);
        const redisState = redis ? redis.state : 'none';
        const status = !databaseUp ? 'down' : redisState === 'down' ? 'degraded' : 'ok';
        return reply.code(databaseUp ? 200 : 503).send({
          status,
          version: SYSTEM_VERSION,
          database: database.kind,
          database_status: databaseUp ? 'up' : 'down',
          redis: redisState,
        });
      },
    );
  },
};

async function databaseAnswers(scope: FastifyInstance) {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      scope.deps.database.query('select 1').then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), DATABASE_TIMEOUT_MS);
      }),
    ]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}
