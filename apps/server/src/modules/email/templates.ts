/**
 * Email templates: the admin's CRUD and bulk update at /v1/admin/emails (routes.md: "broadcast emails"), the agents'
 * list (GET /v1/contacts/emails), and a preview with a contact's data merged in (DECIDED: POST
 * /v1/contacts/email_preview, for the editor and the send dialogs alike).
 */
import {
  AgentEmailList,
  EmailBulkUpdateBody,
  EmailBulkUpdateReply,
  EmailPreview,
  EmailPreviewBody,
  EmailTemplate,
  EmailTemplateBody,
  EmailTemplateList,
  EmailTemplateListQuery,
  EmailTemplatePatch,
  NoContent,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { pageMeta, pageOffset } from '../../platform/http/paging.js';
import { authOf } from '../../platform/http/pipeline.js';
import { findVisibleContactById } from '../contacts/access.js';
import { rowsOf } from '../contacts/list-scope.js';
import { mergeValuesFor } from './messages.js';
import { checkTemplate, mergeProblems, renderEmail, SAMPLE_VALUES } from './render.js';
import { emailTemplates } from './schema.js';

const tags = ['emails'];
const Id = z.object({ id: z.coerce.number().int().positive() });
const admin = { access: 'admin.manage' } as const;
const adminById = { ...admin, tenant: { param: 'id', resource: 'email_template' } } as const;

const select = sql`select e.*, nullif(trim(u.first_name || ' ' || u.last_name), '') as created_by_name
  from email_templates e left join users u on u.id = e.created_by`;

function present(r: Record<string, unknown>): EmailTemplate {
  return {
    id: Number(r.id),
    name: String(r.name),
    subject: String(r.subject),
    body_html: String(r.body_html),
    category: r.category as EmailTemplate['category'],
    active: Boolean(r.active),
    created_by: r.created_by ? { id: Number(r.created_by), name: String(r.created_by_name ?? 'A user') } : null,
    created_at: new Date(r.created_at as string).toISOString(),
    updated_at: new Date(r.updated_at as string).toISOString(),
  };
}

export async function loadTemplate(db: Db, companyId: number, id: number, activeOnly = false) {
  const [row] = await rowsOf<Record<string, unknown>>(
    db,
    sql`${select} where e.id = ${id} and e.company_id = ${companyId} and e.deleted_at is null ${activeOnly ? sql`and e.active` : sql``}`,
  );
  return row ? present(row) : null;
}

export function templateRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const one = async (companyId: number, id: number) => {
    const t = await loadTemplate(db, companyId, id);
    if (!t) throw notFound('email');
    return t;
  };

  app.get(
    '/v1/admin/emails',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Email templates',
        querystring: EmailTemplateListQuery,
        response: { 200: EmailTemplateList },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { q, active, page, limit } = req.query;
      const where: SQL = sql`e.company_id = ${auth.company.id} and e.deleted_at is null
        ${active ? sql`and e.active = ${active === 'true'}` : sql``}
        ${q ? sql`and (e.name ilike ${`%${q}%`} or e.subject ilike ${`%${q}%`})` : sql``}`;
      const [{ n }] = await rowsOf<{ n: number }>(
        db,
        sql`select count(*)::int as n from email_templates e where ${where}`,
      );
      const rows = await rowsOf<Record<string, unknown>>(
        db,
        sql`${select} where ${where} order by e.updated_at desc, e.id desc limit ${limit} offset ${pageOffset(page, limit)}`,
      );
      return { data: rows.map(present), meta: pageMeta(page, limit, n) };
    },
  );

  app.post(
    '/v1/admin/emails',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Create an email template (HTML sanitised; a script or an unknown merge field is refused)',
        body: EmailTemplateBody,
        response: { 201: EmailTemplate },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const html = checkTemplate(req.body.subject, req.body.body_html);
      const [row] = await db
        .insert(emailTemplates)
        .values({
          companyId: auth.company.id,
          name: req.body.name,
          subject: req.body.subject,
          bodyHtml: html,
          category: req.body.category,
          active: req.body.active,
          createdBy: auth.user.id,
          updatedBy: auth.user.id,
        })
        .returning({ id: emailTemplates.id });
      return reply.code(201).send(await one(auth.company.id, row.id));
    },
  );

  app.post(
    '/v1/admin/emails/bulk_update',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Change many templates at once (active, category) or delete them; answers old and new values',
        body: EmailBulkUpdateBody,
        response: { 200: EmailBulkUpdateReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { ids, active, category } = req.body;
      if (active === undefined && category === undefined && !req.body.delete) {
        throw invalid('base', 'say what to change: active, category or delete');
      }
      const unique = [...new Set(ids)];
      return db.transaction(async (tx) => {
        const before = await rowsOf<{ id: number; active: boolean; category: string }>(
          tx,
          sql`select id, active, category from email_templates where company_id = ${auth.company.id} and deleted_at is null
            and id = any(${sql.param(unique)}::bigint[]) order by id for update`,
        );
        if (before.length !== unique.length) throw notFound('email');
        if (req.body.delete) {
          await tx.execute(sql`update email_templates set deleted_at = now(), updated_by = ${auth.user.id}
            where id = any(${sql.param(unique)}::bigint[])`);
          return {
            updated: before.length,
            changes: before.map((b) => ({ id: Number(b.id), from: { deleted: false }, to: { deleted: true } })),
          };
        }
        await tx.execute(sql`update email_templates set
            active = coalesce(${active ?? null}::boolean, active), category = coalesce(${category ?? null}, category),
            updated_at = now(), updated_by = ${auth.user.id}
          where id = any(${sql.param(unique)}::bigint[])`);
        const changes = before
          .map((b) => {
            const from: Record<string, unknown> = {};
            const to: Record<string, unknown> = {};
            if (active !== undefined && b.active !== active) [from.active, to.active] = [b.active, active];
            if (category !== undefined && b.category !== category)
              [from.category, to.category] = [b.category, category];
            return { id: Number(b.id), from, to };
          })
          .filter((c) => Object.keys(c.to).length);
        return { updated: changes.length, changes };
      });
    },
  );

  app.get(
    '/v1/admin/emails/:id',
    {
      config: adminById,
      schema: { tags, summary: 'One email template', params: Id, response: { 200: EmailTemplate } },
    },
    async (req) => one(authOf(req).company.id, req.params.id),
  );

  app.patch(
    '/v1/admin/emails/:id',
    {
      config: adminById,
      schema: {
        tags,
        summary: 'Update an email template',
        params: Id,
        body: EmailTemplatePatch,
        response: { 200: EmailTemplate },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const current = await one(auth.company.id, req.params.id);
      const subject = req.body.subject ?? current.subject;
      const html =
        req.body.body_html !== undefined || req.body.subject !== undefined
          ? checkTemplate(subject, req.body.body_html ?? current.body_html)
          : current.body_html;
      await db
        .update(emailTemplates)
        .set({
          name: req.body.name ?? current.name,
          subject,
          bodyHtml: html,
          category: req.body.category ?? current.category,
          active: req.body.active ?? current.active,
          updatedBy: auth.user.id,
          updatedAt: new Date(),
        })
        .where(sql`id = ${current.id}`);
      return one(auth.company.id, current.id);
    },
  );

  app.delete(
    '/v1/admin/emails/:id',
    {
      config: adminById,
      schema: {
        tags,
        summary: 'Delete an email template (messages sent with it keep their record)',
        params: Id,
        response: { 204: NoContent },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const current = await one(auth.company.id, req.params.id);
      await db
        .update(emailTemplates)
        .set({ deletedAt: new Date(), updatedBy: auth.user.id })
        .where(sql`id = ${current.id}`);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/contacts/emails',
    {
      config: { access: 'contacts.use' },
      schema: { tags, summary: 'Email templates an agent may send (active ones)', response: { 200: AgentEmailList } },
    },
    async (req) => {
      const rows = await rowsOf<{ id: number; name: string; subject: string; category: string }>(
        db,
        sql`select id, name, subject, category from email_templates
          where company_id = ${authOf(req).company.id} and deleted_at is null and active order by name, id`,
      );
      return { data: rows.map((r) => ({ ...r, id: Number(r.id) })) };
    },
  );

  app.post(
    '/v1/contacts/email_preview',
    {
      config: { access: 'contacts.use' },
      schema: {
        tags,
        summary: "A subject and body with a contact's data (or samples) merged in, sanitised as sent",
        body: EmailPreviewBody,
        response: { 200: EmailPreview },
      },
    },
    async (req) => {
      const auth = authOf(req);
      let values = SAMPLE_VALUES;
      if (req.body.contact_id) {
        const c = await findVisibleContactById(db, auth, req.body.contact_id);
        if (!c) throw notFound('contact');
        values = {
          ...SAMPLE_VALUES,
          ...(await mergeValuesFor(db, auth.company.id, [{ contactId: c.id, senderId: auth.user.id }])).get(
            `${c.id}:${auth.user.id}`,
          ),
        };
      }
      const r = renderEmail(
        { subject: req.body.subject, html: req.body.body_html },
        { ...values, unsubscribe_url: '#unsubscribe' },
      );
      const unknown = [...new Set([...mergeProblems(req.body.subject), ...mergeProblems(req.body.body_html)])];
      return { subject: r.subject, html: r.html, unknown_fields: unknown };
    },
  );
}
