/**
 * Unsubscribe (DECIDED routes, docs/decisions/email.md): every campaign email links to /unsubscribe/{token} (a page
 * where the person chooses this agent's emails or all) and carries `List-Unsubscribe: <.../v1/unsubscribe/{token}>`
 * with `List-Unsubscribe-Post: List-Unsubscribe=One-Click` (RFC 8058). The POST needs no session and no CSRF token
 * (a mail client makes it), is idempotent, and records the opt-out in the consent record at once.
 */
import { UnsubscribeBody, UnsubscribeInfo, UnsubscribeParams, UnsubscribeReply } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../platform/http/errors.js';
import { recordConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { readUnsubscribeToken } from './messages.js';

const tags = ['unsubscribe'];
const config = {
  access: 'public' as const,
  csrf: false,
  rateLimit: { name: 'unsubscribe', max: 60, windowMs: 60_000 },
};

const mask = (email: string) =>
  email.replace(
    /^(.)(.*)(@.*)$/,
    (_, a: string, b: string, c: string) => `${a}${'•'.repeat(Math.min(6, b.length))}${c}`,
  );

export function unsubscribeRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;
  // RFC 8058's POST is a form (or multipart); the page's is JSON.
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  scope.addContentTypeParser('multipart/form-data', (_req, payload, done) => {
    payload.resume();
    payload.on('end', () => done(null, {}));
  });

  async function who(token: string) {
    const p = readUnsubscribeToken(deps.config.secretKey, token);
    if (!p) throw notFound('link');
    const [row] = await rowsOf<Record<string, unknown>>(
      db,
      sql`select c.email, co.name as company_name, nullif(trim(u.first_name || ' ' || u.last_name), '') as agent_name,
          exists (select 1 from contact_consents k where k.contact_id = c.id and k.channel = 'email' and k.sender_id = 0 and k.status = 'opted_out') as all_out,
          exists (select 1 from contact_consents k where k.contact_id = c.id and k.channel = 'email' and k.sender_id = ${p.s} and k.status = 'opted_out') as agent_out
        from contacts c join companies co on co.id = c.company_id join users u on u.id = ${p.s} and u.company_id = c.company_id
        where c.id = ${p.k} and c.company_id = ${p.c}`,
    );
    if (!row) throw notFound('link');
    return { p, row };
  }

  app.get(
    '/v1/unsubscribe/:token',
    {
      config,
      schema: {
        tags,
        summary: 'Whose emails an unsubscribe link stops (for its page)',
        params: UnsubscribeParams,
        response: { 200: UnsubscribeInfo },
      },
    },
    async (req) => {
      const { row } = await who(req.params.token);
      return {
        agent_name: String(row.agent_name ?? 'Your agent'),
        company_name: String(row.company_name),
        email: row.email ? mask(String(row.email)) : '',
        opted_out_all: Boolean(row.all_out),
        opted_out_agent: Boolean(row.agent_out),
      };
    },
  );

  app.post(
    '/v1/unsubscribe/:token',
    {
      config,
      schema: {
        tags,
        summary:
          'Unsubscribe: RFC 8058 one-click (List-Unsubscribe=One-Click: all email) or the page’s choice (scope agent or all)',
        params: UnsubscribeParams,
        response: { 200: UnsubscribeReply },
      },
    },
    async (req) => {
      const { p, row } = await who(req.params.token);
      const body = (req.body ?? {}) as Record<string, unknown>;
      const scopeOf =
        body['List-Unsubscribe'] === 'One-Click' ? 'all' : (UnsubscribeBody.safeParse(body).data?.scope ?? 'all');
      await recordConsent(db, {
        companyId: p.c,
        channel: 'email',
        status: 'opted_out',
        source: 'unsubscribe',
        detail:
          scopeOf === 'all'
            ? 'Unsubscribed from all email'
            : `Unsubscribed from ${String(row.agent_name ?? 'the agent')}'s email`,
        senderId: scopeOf === 'agent' ? p.s : null,
        contactIds: [p.k],
      });
      await db.execute(
        sql`insert into email_events (company_id, message_id, contact_id, event, detail, first_at, last_at)
          select ${p.c}, m.id, m.contact_id, 'unsubscribe', ${scopeOf}, now(), now() from email_messages m
          where m.id = ${p.m} and m.contact_id = ${p.k}
          on conflict (message_id, event) do update set count = email_events.count + 1, last_at = now()`,
      );
      return { unsubscribed: true as const, scope: scopeOf };
    },
  );
}
