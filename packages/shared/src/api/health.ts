/** GET /v1/health: whether the process can serve, and what it runs without (docs/decisions/health-and-redis-outage.md). */
import { z } from 'zod';

export const Health = z.object({
  status: z.enum(['ok', 'degraded', 'down']),
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  database_status: z.enum(['up', 'down']),
  /** 'none': no REDIS_URL, jobs and live fan-out are in-process. */
  redis: z.enum(['up', 'down', 'none']),
});
