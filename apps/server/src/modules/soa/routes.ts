/**
 * SOA requests for agents (routes.md `medicare`): send one to a contact (by email or text through Harbor, or a link to copy),
 * list, open, complete and reject them; and the agent's Medicare registration. A caller sees their own requests and
 * those of users they reach. The public half (the beneficiary's page) is public-routes.ts.
 */
import {
  MedicareRegisteredBody,
  MedicareRegistration,
  normalizePhone,
  SOA_LINK_DAYS,
  SOA_PRODUCT_LABELS,
  SoaListQuery,
  type SoaProduct,
  SoaRejectBody,
  SoaRequest,
  SoaRequestBody,
  SoaRequestList,
} from '@harbor/shared';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { hashToken, newToken } from '../../platform/auth/tokens.js';
import { conflict, invalid } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { findVisibleContactById } from '../contacts/access.js';
import { recordContactEvent } from '../contacts/events.js';
import { rowsOf } from '../contacts/list-scope.js';
import { sendText } from '../sms/send.js';
import type { Module } from '../types.js';
import { registerSoaPublicRoutes } from './public-routes.js';
import { loadSoa, presentSoa, type Raw, soaLink, soaSelect, statusSql, visibleSql } from './queries.js';
import { medicareRegistrations, soaRequests } from './schema.js';

const tags = ['soa_requests'];
const Id = z.object({ id: z.coerce.number().int().positive() });
export const SOA_MAIL_JOB = 'soa.send_email';

export const soaModule: Module = {
  name: 'soa',
  register(scope: FastifyInstance, { tenants }) {
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const { database, config: appConfig, secrets, jobs, mail } = scope.deps;
    const db = database.db;
    tenants.register('soa_request', companyRowResolver(soaRequests));
    const config = { access: 'soa.use' as const };
    const byId = { ...config, tenant: { param: 'id', resource: 'soa_request' } };
    const present = (r: Raw, withSignature = false) =>
      presentSoa(r, { appUrl: appConfig.appUrl, secrets, withSignature });
    registerSoaPublicRoutes(scope);

    // The link goes out from a durable job: a mail server that is down delays it, it does not lose it.
    jobs.register(SOA_MAIL_JOB, async ({ job }) => {
      const id = Number(job.payload.id);
      const [r] = await rowsOf<Raw>(db, sql`${soaSelect} where s.id = ${id} and s.status = 'sent'`);
      if (!r?.sent_to) return;
      const link = soaLink(appConfig.appUrl, String(r.domain_name), secrets.open(String(r.token_sealed)));
      const offered = ((r.products_offered as SoaProduct[]) ?? []).map((p) => `- ${SOA_PRODUCT_LABELS[p]}`);
      await mail.send({
        to: String(r.sent_to),
        subject: `${r.user_name} asks what you would like to discuss`,
        text: `${r.user_name}, a licensed insurance agent, asks you to confirm the products you would like to discuss at your appointment (a Scope of Appointment, required by Medicare).\n\n${offered.length ? `${offered.join('\n')}\n\n` : ''}Open this link to choose and sign (it stays open ${SOA_LINK_DAYS} days):\n${link}\n\nSigning does not enroll you in any plan and does not oblige you to buy anything.`,
      });
    });

    app.post(
      '/v1/users/soa_requests',
      {
        config,
        schema: {
          tags,
          summary: 'Send a scope-of-appointment request to a contact (by email, by text, or a link to copy)',
          body: SoaRequestBody,
          response: { 201: SoaRequest },
        },
      },
      async (req, reply) => {
        const auth = authOf(req);
        const contact = await findVisibleContactById(db, auth, req.body.contact_id);
        if (!contact || contact.deletedAt) throw invalid('contact_id', 'is not a contact you can see');
        if (req.body.channel === 'email' && !contact.email)
          throw invalid('channel', 'the contact has no email address');
        const phone = contact.phone ? normalizePhone(contact.phone) : null;
        if (req.body.channel === 'sms' && !phone) throw invalid('channel', 'the contact has no mobile number');
        const token = newToken();
        // By text the message goes first, through every check a text has (consent, line type, plan, sender number,
        // wallet): a refused text answers its 4xx and no request is recorded as sent.
        if (req.body.channel === 'sms' && phone) {
          const link = soaLink(appConfig.appUrl, auth.company.domainName, token);
          await sendText(scope.deps, {
            companyId: auth.company.id,
            userId: auth.user.id,
            contactId: contact.id,
            phone,
            body: `${`${auth.user.firstName} ${auth.user.lastName}`.trim()} asks you to choose what to discuss at your Medicare appointment (Scope of Appointment). Sign here, valid ${SOA_LINK_DAYS} days: ${link}`,
          });
        }
        const id = await db.transaction(async (tx) => {
          const [row] = await tx
            .insert(soaRequests)
            .values({
              companyId: auth.company.id,
              userId: auth.user.id,
              contactId: contact.id,
              tokenHash: hashToken(token),
              tokenSealed: secrets.seal(token),
              channel: req.body.channel,
              sentTo: req.body.channel === 'email' ? contact.email : req.body.channel === 'sms' ? phone : null,
              productsOffered: req.body.products_offered ?? [],
              expiresAt: new Date(Date.now() + SOA_LINK_DAYS * 86_400_000),
            })
            .returning({ id: soaRequests.id });
          await recordContactEvent(tx, {
            companyId: auth.company.id,
            contactId: contact.id,
            kind: 'soa_sent',
            actorId: auth.user.id,
            data: { soa_request_id: row.id, channel: req.body.channel },
          });
          if (req.body.channel === 'email') {
            await jobs.enqueue(SOA_MAIL_JOB, { id: row.id }, { db: tx, companyId: auth.company.id });
          }
          return row.id;
        });
        if (req.body.channel === 'email') jobs.poke();
        return reply.code(201).send(present(await loadSoa(db, auth, id)));
      },
    );

    app.get(
      '/v1/users/soa_requests',
      {
        config,
        schema: {
          tags,
          summary: 'SOA requests, newest first',
          querystring: SoaListQuery,
          response: { 200: SoaRequestList },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const { page, limit, status, contact_id } = req.query;
        const where = sql`${visibleSql(auth)} ${status ? sql`and ${statusSql} = ${status}` : sql``}
          ${contact_id ? sql`and s.contact_id = ${contact_id}` : sql``}`;
        const [{ n }] = await rowsOf<{ n: number }>(
          db,
          sql`select count(*)::int as n from soa_requests s where ${where}`,
        );
        const rows = await rowsOf<Raw>(
          db,
          sql`${soaSelect} where ${where} order by s.id desc limit ${limit} offset ${pageOffset(page, limit)}`,
        );
        return { data: rows.map((r) => present(r)), meta: pageMeta(page, limit, n) };
      },
    );

    app.get(
      '/v1/users/soa_requests/:id',
      {
        config: byId,
        schema: {
          tags,
          summary: 'One SOA request, with the drawn signature',
          params: Id,
          response: { 200: SoaRequest },
        },
      },
      async (req) => present(await loadSoa(db, authOf(req), req.params.id), true),
    );

    /** Moves a request from one of `from` to `to` in one compare-and-set statement (409 when it is not there). */
    async function transition(req: { params: { id: number } }, auth: ReturnType<typeof authOf>, o: TransitionOptions) {
      const before = await loadSoa(db, auth, req.params.id);
      const [moved] = await rowsOf<{ id: number }>(
        db,
        sql`update soa_requests s set status = ${o.to}, updated_at = now(), ${o.set}
          where s.id = ${req.params.id} and s.company_id = ${auth.company.id} and ${statusSql} = any(${sql.param(o.from)}::text[])
          returning s.id`,
      );
      if (!moved) throw conflict('status', o.refusal);
      await recordContactEvent(db, {
        companyId: auth.company.id,
        contactId: Number(before.contact_id),
        kind: `soa_${o.to}`,
        actorId: auth.user.id,
        data: { soa_request_id: req.params.id },
      });
      return present(await loadSoa(db, auth, req.params.id), true);
    }

    app.patch(
      '/v1/users/soa_requests/:id/complete',
      {
        config: byId,
        schema: {
          tags,
          summary: 'Mark a signed SOA completed (the appointment took place)',
          params: Id,
          response: { 200: SoaRequest },
        },
      },
      async (req) =>
        transition(req, authOf(req), {
          from: ['signed'],
          to: 'completed',
          set: sql`completed_at = now()`,
          refusal: 'only a signed scope of appointment can be completed',
        }),
    );

    app.patch(
      '/v1/users/soa_requests/:id/reject',
      {
        config: byId,
        schema: {
          tags,
          summary: 'Reject an SOA request (withdrawn, or signed in error)',
          params: Id,
          body: SoaRejectBody,
          response: { 200: SoaRequest },
        },
      },
      async (req) =>
        transition(req, authOf(req), {
          from: ['sent', 'signed', 'expired'],
          to: 'rejected',
          set: sql`rejected_at = now(), reject_reason = ${req.body.reason || null}`,
          refusal: 'a completed or rejected scope of appointment cannot be rejected',
        }),
    );

    app.patch(
      '/v1/users/medicare_registered',
      {
        config: { access: 'medicare.use' },
        schema: {
          tags: ['users'],
          summary: 'Record whether the agent is registered (certified) to sell Medicare plans',
          body: MedicareRegisteredBody,
          response: { 200: MedicareRegistration },
        },
      },
      async (req) => {
        const auth = authOf(req);
        const b = req.body;
        const values = {
          registered: b.medicare_registered,
          npn: b.npn ?? null,
          planYear: b.plan_year ?? null,
          updatedAt: new Date(),
        };
        const [row] = await db
          .insert(medicareRegistrations)
          .values({
            userId: auth.user.id,
            companyId: auth.company.id,
            ...values,
            registeredAt: b.medicare_registered ? new Date() : null,
          })
          .onConflictDoUpdate({
            target: medicareRegistrations.userId,
            // Registered since the first time it was recorded; cleared when the agent says they no longer are.
            set: {
              ...values,
              registeredAt: b.medicare_registered ? sql`coalesce(${medicareRegistrations.registeredAt}, now())` : null,
            },
            where: eq(medicareRegistrations.companyId, auth.company.id),
          })
          .returning();
        return {
          medicare_registered: row.registered,
          npn: row.npn,
          plan_year: row.planYear,
          registered_at: row.registeredAt?.toISOString() ?? null,
          updated_at: row.updatedAt.toISOString(),
        };
      },
    );
  },
};

interface TransitionOptions {
  from: string[];
  to: 'completed' | 'rejected';
  set: ReturnType<typeof sql>;
  refusal: string;
}
