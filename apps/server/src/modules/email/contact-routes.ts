/**
 * Email on one contact (routes.md contacts): `send_email` (subject, email_body; consent asked now and again when the
 * job sends it), `email_history` (the messages, POST as the spec has it) and `email_logs` (what the provider said:
 * delivered, opened, clicked, bounced, complained; 5 by default, more on demand; the email log feature gates it).
 */
import {
  EMAIL_EVENT_LABELS,
  EmailHistory,
  EmailHistoryBody,
  EmailLog,
  EmailLogQuery,
  EmailMessage,
  removalReasonLabel,
  SendEmailBody,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db/client.js';
import { conflict, HttpError } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { checkConsent } from '../consent/index.js';
import { findVisibleContact } from '../contacts/access.js';
import { ContactParams, contactTenant } from '../contacts/detail-routes.js';
import { recordContactEvent } from '../contacts/events.js';
import { rowsOf } from '../contacts/list-scope.js';
import { checkTemplate } from './render.js';

const tags = ['contacts'];
export const EMAIL_SEND_JOB = 'email.send';
const config = { access: 'contacts.use', tenant: contactTenant } as const;
/** The same message to the same contact again within this window is a second click. */
const SECOND_CLICK_SECONDS = 120;

const messageSelect = sql`select m.*, nullif(trim(u.first_name || ' ' || u.last_name), '') as sender_name,
    coalesce(m.body_html, b.content->>'html') as html
  from email_messages m join users u on u.id = m.sender_id left join broadcasts b on b.id = m.broadcast_id`;

function presentMessage(r: Record<string, unknown>): EmailMessage {
  const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);
  return {
    id: Number(r.id),
    subject: String(r.subject),
    to: String(r.to_address),
    status: r.status as EmailMessage['status'],
    from: { id: Number(r.sender_id), name: String(r.sender_name ?? 'A user') },
    broadcast_id: r.broadcast_id ? Number(r.broadcast_id) : null,
    consent_basis: (r.consent_basis as string) ?? null,
    created_at: iso(r.created_at)!,
    sent_at: iso(r.sent_at),
    html: (r.html as string) ?? null,
  };
}

export async function loadMessage(db: Db, id: number) {
  const [r] = await rowsOf<Record<string, unknown>>(db, sql`${messageSelect} where m.id = ${id}`);
  return r ? presentMessage(r) : null;
}

export function contactEmailRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  app.post(
    '/v1/contacts/:id/send_email',
    {
      config: { ...config, idempotent: true },
      schema: {
        tags,
        summary: 'Email one contact (consent checked now and at send time)',
        params: ContactParams,
        body: SendEmailBody,
        response: { 201: EmailMessage },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const contact = await findVisibleContact(db, auth, req.params.id, true);
      const html = checkTemplate(req.body.subject, req.body.email_body);
      const [v] = await checkConsent(db, {
        companyId: auth.company.id,
        channel: 'email',
        purpose: 'conversation',
        senderId: auth.user.id,
        contactIds: [contact.id],
      });
      if (!v.allowed || !v.address) {
        throw new HttpError(422, {
          email: [`Not sent: ${removalReasonLabel(v.reason ?? 'no_address', 'email').toLowerCase()}.`],
        });
      }
      let jobId = 0;
      const id = await db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`send_email:${contact.id}`}))`);
        const [dup] = await rowsOf<{ id: number }>(
          tx,
          sql`select id from email_messages where contact_id = ${contact.id} and sender_id = ${auth.user.id} and broadcast_id is null
            and subject = ${req.body.subject} and body_html = ${html} and created_at > now() - make_interval(secs => ${SECOND_CLICK_SECONDS})`,
        );
        if (dup) throw conflict('email', 'This email was just sent to this contact; it goes out once.');
        const [m] = await rowsOf<{ id: number }>(
          tx,
          sql`insert into email_messages (company_id, contact_id, sender_id, to_address, subject, body_html, consent_basis)
            values (${auth.company.id}, ${contact.id}, ${auth.user.id}, ${v.address}, ${req.body.subject}, ${html}, ${v.basis})
            returning id`,
        );
        await recordContactEvent(tx, {
          companyId: auth.company.id,
          contactId: contact.id,
          kind: 'email_sent',
          actorId: auth.user.id,
          data: { message_id: Number(m.id), subject: req.body.subject },
        });
        jobId = await deps.jobs.enqueue(
          EMAIL_SEND_JOB,
          { id: Number(m.id) },
          { db: tx, companyId: auth.company.id, maxAttempts: 8 },
        );
        return Number(m.id);
      });
      deps.jobs.poke(jobId);
      return reply.code(201).send((await loadMessage(db, id))!);
    },
  );

  app.post(
    '/v1/contacts/:id/email_history',
    {
      config,
      schema: {
        tags,
        summary: 'Emails sent to the contact, newest first',
        params: ContactParams,
        body: EmailHistoryBody,
        response: { 200: EmailHistory },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const contact = await findVisibleContact(db, auth, req.params.id);
      const { page, limit } = req.body;
      const [{ n }] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from email_messages where contact_id = ${contact.id}`,
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`${messageSelect} where m.contact_id = ${contact.id} order by m.id desc limit ${limit} offset ${pageOffset(page, limit)}`,
      );
      return { data: rows.map(presentMessage), meta: pageMeta(page, limit, n) };
    },
  );

  app.get(
    '/v1/contacts/:id/email_logs',
    {
      config: { ...config, feature: 'email_log' },
      schema: {
        tags,
        summary: 'What became of the emails: delivered, opened, clicked, bounced, complained (5 by default)',
        params: ContactParams,
        querystring: EmailLogQuery,
        response: { 200: EmailLog },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const contact = await findVisibleContact(db, auth, req.params.id);
      const { limit, before } = req.query;
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`select e.*, m.subject from email_events e join email_messages m on m.id = e.message_id
          where e.contact_id = ${contact.id} ${before ? sql`and e.id < ${before}` : sql``}
          order by e.id desc limit ${limit + 1}`,
      );
      return {
        data: rows.slice(0, limit).map((r) => ({
          id: Number(r.id),
          message_id: Number(r.message_id),
          subject: String(r.subject),
          event: r.event as 'delivered',
          label: EMAIL_EVENT_LABELS[r.event as 'delivered'] ?? String(r.event),
          count: Number(r.count),
          detail: (r.detail as string) ?? null,
          at: new Date(r.last_at as string).toISOString(),
        })),
        has_more: rows.length > limit,
      };
    },
  );
}
