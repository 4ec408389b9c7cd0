import { DevMail, DevMailList, IdParams } from '@harbor/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config.js';
import { devMails } from '../../integrations/mail/schema.js';
import { browserTag } from '../../platform/http/csrf.js';
import { HttpError, notFound } from '../../platform/http/errors.js';
import type { Module } from '../types.js';

/**
 * Whether the development inbox exists at all: only with the local mail stand-in (no SMTP_URL), and only in
 * development (and tests) or the embedded demo (HARBOR_ENV=demo on the embedded database). Stage, a demo on a
 * database server and production never have it. See docs/decisions/dev-inbox.md.
 */
export function devInboxEnabled(config: Config) {
  if (config.smtpUrl) return false;
  if (config.environment === 'development' || config.environment === 'test') return true;
  return config.environment === 'demo' && !config.databaseUrl;
}

const LOOPBACK_IP = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/**
 * Only from the machine itself, asked for by a loopback name: another machine on the network, or a web page that
 * rebinds its own DNS name to 127.0.0.1 (its Host header stays its own name), get a 404 as if there were no inbox.
 */
export function isLocal(req: FastifyRequest) {
  const host = String(req.headers.host ?? '');
  return LOOPBACK_IP.test(req.socket.remoteAddress ?? '') && LOOPBACK_IP.test(req.ip) && LOOPBACK_HOST.test(host);
}

/** The answer of a path with no route at all: the inbox does not exist for this caller. */
const noRoute = (req: FastifyRequest) =>
  new HttpError(404, { path: [`No route for ${req.method} ${req.url.split('?')[0]}`] });

/**
 * What this reader may see: a System Admin all of it (in development the operator of the machine), another
 * signed-in user only mail to their own address, a signed-out browser only the mail it caused itself (the reset link
 * it asked for, the sign-in code of its own sign-in). Never mail of another company to anyone but a System Admin.
 */
function visibleTo(req: FastifyRequest): SQL | null {
  const auth = req.auth;
  if (auth) {
    if ((auth.user.roles as string[]).includes('admin')) return sql`true`;
    return sql`lower(${devMails.to}) = ${auth.user.email.toLowerCase()}`;
  }
  const tag = browserTag(req);
  return tag ? eq(devMails.viewer, tag) : null;
}

/**
 * The development inbox: what the local SMTP stand-in received, so a person trying Harbor can follow a reset link
 * or read a sign-in code without a mail server. Public routes (the reader of a reset link is signed out), limited
 * by devInboxEnabled, isLocal and visibleTo.
 */
export const devModule: Module = {
  name: 'dev',
  register(scope: FastifyInstance) {
    if (!devInboxEnabled(scope.deps.config)) return;
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;
    app.get(
      '/v1/dev/mails',
      {
        config: { access: 'public' },
        schema: {
          tags: ['dev'],
          summary: 'Development inbox (local machine only): the mail you may read',
          response: { 200: DevMailList },
        },
      },
      async (req) => {
        if (!isLocal(req)) throw noRoute(req);
        const where = visibleTo(req);
        if (!where) return { data: [] };
        const rows = await db.select().from(devMails).where(where).orderBy(desc(devMails.id)).limit(100);
        return { data: rows.map((m) => ({ ...m, created_at: m.createdAt.toISOString() })) };
      },
    );
    app.get(
      '/v1/dev/mails/:id',
      {
        config: { access: 'public' },
        schema: {
          tags: ['dev'],
          summary: 'One message of the development inbox',
          params: IdParams,
          response: { 200: DevMail },
        },
      },
      async (req) => {
        if (!isLocal(req)) throw noRoute(req);
        const where = visibleTo(req);
        const [m] = where
          ? await db
              .select()
              .from(devMails)
              .where(and(eq(devMails.id, req.params.id), where))
          : [];
        if (!m) throw notFound('mail');
        return { ...m, created_at: m.createdAt.toISOString() };
      },
    );
  },
};
