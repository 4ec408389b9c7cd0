/**
 * The beneficiary's side of an SOA request (routes.md `public`): view and submit, keyed by the link's token and the
 * company's domain_name. Public and rate limited per address; they reveal the agent's name and nothing else about
 * the agency (no company name, no contact details). A link of another company, an unknown or malformed one, and a
 * company with SOA requests off are all the same 404.
 */
import {
  NOTIFICATIONS_CHANNEL,
  resolveFeatures,
  SoaPublicView,
  SoaSubmitBody,
  SoaSubmitReply,
  SoaViewQuery,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { hashToken } from '../../platform/auth/tokens.js';
import type { Db } from '../../platform/db/client.js';
import { HttpError } from '../../platform/http/errors.js';
import type { RateLimitRule } from '../../platform/http/rate-limit.js';
import { userStream } from '../../platform/live/channels.js';
import { publishLive } from '../../platform/live/publish.js';
import { recordContactEvent } from '../contacts/events.js';
import { rowsOf } from '../contacts/list-scope.js';
import { effectiveStatus, type Raw } from './queries.js';

/** Per address: enough for a beneficiary who reloads and retries, far too few to guess tokens. */
export const SOA_PUBLIC_RULE: RateLimitRule = { name: 'soa_public', max: 30, windowMs: 60_000, key: 'address' };

const tags = ['public'];
const NOT_FOUND = () => new HttpError(404, { soa_request: ['This link is not valid. Ask your agent for a new one.'] });
const EXPIRED = () => new HttpError(410, { soa_request: ['This link has expired. Ask your agent for a new one.'] });
const WITHDRAWN = () => new HttpError(410, { soa_request: ['This request was withdrawn by your agent.'] });
const SIGNED = () => new HttpError(409, { soa_request: ['This scope of appointment is already signed.'] });

async function findByLink(db: Db, domainName: string, token: string): Promise<Raw> {
  const [row] = await rowsOf<Raw>(
    db,
    sql`select s.*, trim(u.first_name || ' ' || u.last_name) as user_name, co.domain_name, co.features,
        trim(c.first_name || ' ' || c.last_name) as contact_name
      from soa_requests s join users u on u.id = s.user_id join companies co on co.id = s.company_id
      join contacts c on c.id = s.contact_id
      where s.token_hash = ${hashToken(token)}`,
  );
  if (!row || String(row.domain_name).toLowerCase() !== domainName) throw NOT_FOUND();
  if (!resolveFeatures((row.features ?? {}) as Record<string, boolean>).soa_requests) throw NOT_FOUND();
  return row;
}

export function registerSoaPublicRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { database, bus } = scope.deps;
  const db = database.db;
  const config = { access: 'public' as const, rateLimit: SOA_PUBLIC_RULE };

  app.get(
    '/v1/soa_requests/view',
    {
      config,
      schema: {
        tags,
        summary: 'The public SOA page: the agent’s name, the products offered, and whether it can still be signed',
        querystring: SoaViewQuery,
        response: { 200: SoaPublicView },
      },
    },
    async (req) => {
      const r = await findByLink(db, req.query.domain_name, req.query.token);
      const status = effectiveStatus(r);
      if (status === 'expired') throw EXPIRED();
      if (status === 'rejected') throw WITHDRAWN();
      return {
        agent_name: String(r.user_name),
        status: status === 'sent' ? ('open' as const) : ('signed' as const),
        products_offered: (r.products_offered as string[]) ?? [],
        expires_at: new Date(r.expires_at as string).toISOString(),
      };
    },
  );

  app.post(
    '/v1/soa_requests/submit',
    {
      config,
      schema: {
        tags,
        summary: 'Sign an SOA: the products to discuss, a typed name and a drawn signature',
        body: SoaSubmitBody,
        response: { 200: SoaSubmitReply },
      },
    },
    async (req) => {
      const b = req.body;
      const r = await findByLink(db, b.domain_name, b.token);
      const status = effectiveStatus(r);
      if (status === 'expired') throw EXPIRED();
      if (status === 'rejected') throw WITHDRAWN();
      if (status !== 'sent') throw SIGNED();
      const offered = (r.products_offered as string[]) ?? [];
      if (offered.length && b.products.some((p) => !offered.includes(p))) {
        throw new HttpError(422, { products: ['pick from the products your agent offered'] });
      }
      const agent = (req.headers['user-agent'] ?? '').slice(0, 500);
      const signed = await db.transaction(async (tx) => {
        // Compare and set: two submits racing, or one racing the expiry, cannot both sign.
        const [row] = await rowsOf<{ signed_at: string | Date }>(
          tx,
          sql`update soa_requests set status = 'signed', products = ${sql.param(b.products)}::text[],
              signature_name = ${b.signature_name}, signature_image = ${b.signature_image},
              beneficiary_address = ${b.address || null}, beneficiary_phone = ${b.phone || null},
              signed_at = now(), signed_ip = ${req.ip}, signed_user_agent = ${agent}, updated_at = now()
            where id = ${Number(r.id)} and status = 'sent' and expires_at > now() returning signed_at`,
        );
        if (!row) return null;
        await recordContactEvent(tx, {
          companyId: Number(r.company_id),
          contactId: Number(r.contact_id),
          kind: 'soa_signed',
          actorId: null,
          data: { soa_request_id: Number(r.id), products: b.products, signature_name: b.signature_name },
        });
        return new Date(row.signed_at);
      });
      if (!signed) throw SIGNED();
      // The agent hears of it at once wherever they are signed in; a lost message only delays what the list shows.
      await publishLive(bus, NOTIFICATIONS_CHANNEL, userStream(Number(r.user_id)), {
        type: 'notification',
        title: 'Scope of appointment signed',
        body: `${r.contact_name} signed the scope of appointment.`,
        link: '/soa-requests',
      }).catch(() => {});
      return { status: 'signed' as const, signed_at: signed.toISOString() };
    },
  );
}
