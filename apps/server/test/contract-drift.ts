/**
 * Compares the shared /v1 contract with the routes the app registered: every entry must name a route, and each of
 * its schemas must be the very zod object of that route, or one whose JSON Schema is the same (a path parameter
 * schema written out again, a `z.null()` 204). Used by contract.test.ts, on the real contract and on altered copies.
 */
import type { Endpoint } from '@harbor/shared/contract';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';

interface RouteSchema {
  params?: unknown;
  querystring?: unknown;
  body?: unknown;
  response?: Record<string, unknown>;
  /** Documentation of a multipart body (platform/http/multipart-docs.ts). */
  multipart?: unknown;
}

/** "GET /v1/contacts/{id}" for Fastify's "GET" + "/v1/contacts/:id". */
export function routeKey(method: string, url: string): string {
  return `${method} ${url.replace(/:(\w+)/g, '{$1}')}`;
}

export function routeTable(routes: RouteOptions[]): Map<string, RouteSchema> {
  const table = new Map<string, RouteSchema>();
  for (const r of routes) {
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      table.set(routeKey(method, r.url), (r.schema ?? {}) as RouteSchema);
    }
  }
  return table;
}

function jsonOf(schema: unknown, io: 'input' | 'output'): string {
  try {
    return JSON.stringify(z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any' }));
  } catch (error) {
    return `unrepresentable: ${(error as Error).message}`;
  }
}

/** The route's success reply: the lowest 2xx code it declares. */
function successReply(response: RouteSchema['response']): unknown {
  const code = Object.keys(response ?? {})
    .filter((c) => /^2\d\d$/.test(c))
    .sort()[0];
  return code ? response?.[code] : undefined;
}

export function contractDrift(entries: [string, Endpoint][], routes: Map<string, RouteSchema>): string[] {
  const problems: string[] = [];
  for (const [key, entry] of entries) {
    const route = routes.get(key);
    if (!route) {
      problems.push(`${key}: no such route on the server`);
      continue;
    }
    const pairs: [string, unknown, unknown, 'input' | 'output'][] = [
      ['params', entry.params, route.params, 'input'],
      ['query', entry.query, route.querystring, 'input'],
      ['body', entry.body, route.body, 'input'],
      ['reply', entry.reply, successReply(route.response), 'output'],
    ];
    const also204 = !!route.response?.['204'] && successReply(route.response) !== route.response['204'];
    if (also204 !== !!entry.noContent)
      problems.push(`${key}: ${also204 ? 'the route' : 'only the contract'} may answer 204`);
    if (entry.form || route.multipart) pairs.push(['form', entry.form, route.multipart, 'input']);
    for (const [part, mine, theirs, io] of pairs) {
      if (mine === theirs) continue;
      if (!mine || !theirs) {
        problems.push(`${key}: ${part} is ${mine ? 'in the contract only' : 'on the server only'}`);
      } else if (jsonOf(mine, io) !== jsonOf(theirs, io)) {
        problems.push(`${key}: ${part} differs from the server's`);
      }
    }
  }
  return problems;
}
