import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { unauthorized } from '../http/errors.js';
import { findApiKey } from './api-keys.js';
import { buildAuthContext } from './context.js';
import { resolveSession } from './session-cache.js';
import { cookieOptions, findEndedSessionId, SESSION_COOKIE } from './sessions.js';

/**
 * Resolves the caller from an API key (`Authorization: Bearer`) or else the session cookie. A request carrying a
 * key is judged by the key alone: a bad key is 401 even if a cookie would have worked, so a script never silently
 * runs as whoever is signed in in the browser. Key requests skip CSRF (pipeline.ts): no cookie is involved.
 * Otherwise resolves the caller from the session cookie. Sets req.auth for a full session, req.pendingAuth for one still
 * waiting for its one-time code, neither for an unknown, ended or expired one. An unknown token's cookie is cleared;
 * an ended or expired session's is left alone and named in req.endedSessionId (csrf.ts, expectForEndedSession):
 * the browser may already hold the next session's cookie, set by a reply this one overtakes.
 */
declare module 'fastify' {
  interface FastifyRequest {
    /** The session a request's cookie names when that session has ended or expired (its cookie is kept). */
    endedSessionId: number | null;
  }
}

export async function authenticate(app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) {
  const { config, database } = app.deps;
  const opts = cookieOptions(config, req);
  const header = req.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    const found = match ? await findApiKey(database.db, match[1]) : null;
    if (!found) throw unauthorized('Invalid API key');
    req.auth = buildAuthContext(found.user, found.company, null, { id: found.key.id });
    return;
  }
  const token = req.cookies[SESSION_COOKIE];
  if (!token) return;
  const found = await resolveSession(app.deps.sessionCache, database.db, config, token);
  if (!found) {
    const ended = await findEndedSessionId(database.db, token);
    if (ended !== null) req.endedSessionId = ended;
    else reply.clearCookie(SESSION_COOKIE, opts);
    return;
  }
  const ctx = buildAuthContext(found.user, found.company, found.session);
  if (found.session.state === 'active') req.auth = ctx;
  else req.pendingAuth = ctx;
}
