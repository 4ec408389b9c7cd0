/**
 * `Idempotency-Key` on write routes that move money or send messages (docs/decisions/idempotency-keys.md). A route
 * declares `config.idempotent: true` (a key is optional) or `'required'`. Per user and key:
 * - first request: runs, and its answer (status and body, 4xx included) is stored;
 * - same key, same request (method, path, validated body): the stored answer again, `Idempotent-Replayed: true`;
 * - same key, another request: 409;
 * - same key while the first is still running: 409 with Retry-After (the client retries and then gets the answer);
 * - a 5xx answer is not stored: the key is released so a retry runs again.
 * Keys last 24 hours; a key left "running" by a process that died is taken over after 5 minutes.
 */
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { conflict, HttpError, invalid } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Honour Idempotency-Key (true) or demand it ('required'): routes that move money or send messages. */
    idempotent?: boolean | 'required';
  }
  interface FastifyRequest {
    /** The key this request holds (set once it has been reserved), so its answer is stored on send. */
    idempotency: { userId: number; key: string } | null;
  }
}

export const IDEMPOTENCY_TTL_HOURS = 24;
const ABANDONED_MINUTES = 5;
const KEY = /^[\x21-\x7e]{1,255}$/;

/** JSON with keys sorted at every level: two bodies that mean the same hash the same. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>)
      .filter(([, x]) => x !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`).join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export const requestHash = (req: FastifyRequest) =>
  crypto
    .createHash('sha256')
    .update(`${req.method} ${req.url}\n${canonical(req.body)}`)
    .digest('hex');

export function installIdempotency(app: FastifyInstance) {
  app.decorateRequest('idempotency', null);
  app.addHook('onRoute', (route) => {
    if (route.config?.idempotent && route.config.access === 'public') {
      throw new Error(`${route.url}: an idempotent route needs a signed-in caller (keys are kept per user)`);
    }
  });
  app.addHook('preHandler', async (req, reply) => reserve(app, req, reply));
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.idempotency) await settle(app, req, reply, payload);
    return payload;
  });
}

async function reserve(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const mode = req.routeOptions.config?.idempotent;
  if (!mode || !req.auth) return;
  const raw = req.headers['idempotency-key'];
  if (raw === undefined) {
    if (mode === 'required') throw invalid('idempotency_key', 'is required (an Idempotency-Key header)');
    return;
  }
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!KEY.test(key)) throw invalid('idempotency_key', 'must be 1 to 255 visible characters');
  const db = app.deps.database.db;
  const userId = req.auth.user.id;
  const hash = requestHash(req);
  const taken = await db.execute<{ key: string }>(
    sql`insert into idempotency_keys as k (user_id, key, company_id, request_hash)
        values (${userId}, ${key}, ${req.auth.company.id}, ${hash})
        on conflict (user_id, key) do update
          set request_hash = excluded.request_hash, status = 'running', created_at = now(),
              response_status = null, response_type = null, response_body = null, completed_at = null
          where k.created_at < now() - ${`${IDEMPOTENCY_TTL_HOURS} hours`}::interval
             or (k.status = 'running' and k.request_hash = excluded.request_hash
                 and k.created_at < now() - ${`${ABANDONED_MINUTES} minutes`}::interval)
        returning key`,
  );
  if (taken.rows.length) {
    req.idempotency = { userId, key };
    return;
  }
  const found = await db.execute<{
    request_hash: string;
    status: string;
    response_status: number;
    response_type: string | null;
    response_body: string | null;
  }>(
    sql`select request_hash, status, response_status, response_type, response_body from idempotency_keys
        where user_id = ${userId} and key = ${key}`,
  );
  const row = found.rows[0];
  if (!row)
    throw new HttpError(409, { idempotency_key: ['was just released; retry the request'] }, { 'retry-after': '1' });
  if (row.request_hash !== hash) {
    throw conflict('idempotency_key', 'was already used with a different request');
  }
  if (row.status === 'running') {
    throw new HttpError(
      409,
      { idempotency_key: ['A request with this key is still in progress; retry it in a moment'] },
      { 'retry-after': '1' },
    );
  }
  reply.code(Number(row.response_status)).header('idempotent-replayed', 'true');
  if (row.response_type) reply.type(row.response_type);
  return reply.send(row.response_body ?? undefined);
}

async function settle(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const { userId, key } = req.idempotency!;
  req.idempotency = null;
  const db = app.deps.database.db;
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  // A server failure, or an answer that cannot be kept (a stream): release the key so a retry runs again.
  if (reply.statusCode >= 500 || (payload != null && body === null)) {
    await db.execute(
      sql`delete from idempotency_keys where user_id = ${userId} and key = ${key} and status = 'running'`,
    );
    return;
  }
  const type = reply.getHeader('content-type');
  await db.execute(
    sql`update idempotency_keys set status = 'done', response_status = ${reply.statusCode},
          response_type = ${type === undefined ? null : String(type)}, response_body = ${body}, completed_at = now()
        where user_id = ${userId} and key = ${key}`,
  );
}

/** Removes keys past their 24 hours (the hourly housekeeping job). */
export async function removeExpiredIdempotencyKeys(db: Db) {
  await db.execute(
    sql`delete from idempotency_keys where created_at < now() - ${`${IDEMPOTENCY_TTL_HOURS} hours`}::interval`,
  );
}
