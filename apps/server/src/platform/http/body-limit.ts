/**
 * How large a request body may be. JSON bodies get 1 MB, except where a route's schema takes a long list of ids
 * (a selection of up to 999,999 contacts to export, 250,000 to transfer): there the limit is made from the list's
 * own maximum, so a list over the spec's limit reaches the schema and is answered with that limit's message, never
 * with "body too large". Uploads are multipart and have limits of their own (platform/files/limits.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';

const MB = 1024 * 1024;
export const JSON_BODY_LIMIT = 1 * MB;
/** What one id may take in JSON: 16 digits, two quotes, a comma and a space. */
const BYTES_PER_ID = 20;
/** Lists shorter than this fit the default anyway. */
const LONG_LIST = 10_000;

/** The largest `maxItems` of a top-level array in a body schema (0 when none is long). */
export function longestList(schema: unknown): number {
  if (!(schema instanceof z.ZodType)) return 0;
  let json: { properties?: Record<string, { maxItems?: number }> };
  try {
    json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as typeof json;
  } catch {
    return 0;
  }
  let longest = 0;
  for (const p of Object.values(json.properties ?? {})) {
    if (typeof p.maxItems === 'number' && p.maxItems >= LONG_LIST) longest = Math.max(longest, p.maxItems);
  }
  return longest;
}

export function installBodyLimits(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    const n = longestList(route.schema?.body);
    if (n > 0) route.bodyLimit = JSON_BODY_LIMIT + n * BYTES_PER_ID;
  });
}
