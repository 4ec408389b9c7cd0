/**
 * Sending from the contacts list (routes.md `messaging`): `send_broadcast_email` (a template or a campaign trigger,
 * now or at a time, to `ids` or `all` over the caller's scope), `mailing_group` (a message written now to a
 * selection) and `send_test_email` (to oneself). Broadcasts go through the channel-neutral machinery
 * (modules/broadcasts): the answer is the broadcast, the sending is its durable job.
 */
import {
  Broadcast,
  MailingGroupBody,
  SendBroadcastEmailBody,
  SendTestEmailBody,
  SendTestEmailReply,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalid, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { createBroadcast, fingerprintOf, selectionRecipients } from '../broadcasts/create.js';
import { loadBroadcast, presentBroadcast } from '../broadcasts/presenter.js';
import { usableSql } from '../campaign-triggers/routes.js';
import { findVisibleContactById } from '../contacts/access.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { SelectionBody } from '../contacts/selection.js';
import type { EmailContent } from './channel.js';
import { mergeValuesFor } from './messages.js';
import { checkTemplate, renderEmail, SAMPLE_VALUES } from './render.js';
import { loadTemplate } from './templates.js';

const tags = ['messaging'];
export const EMAIL_TEST_JOB = 'email.send_test';
const BODY_LIMIT = 4 * 1024 * 1024;
const config = { access: 'contacts.use', idempotent: true } as const;

export function sendRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const deps = scope.deps;
  const db = deps.database.db;

  /** The template a broadcast sends: the one chosen, or the chosen trigger's first active one. */
  async function contentOf(
    auth: AuthContext,
    b: { email_id?: number; email_campaign_trigger_id?: number; recurrence_campaign_trigger_id?: number },
  ) {
    const triggerId = b.email_campaign_trigger_id ?? b.recurrence_campaign_trigger_id ?? null;
    let trigger: { id: number; name: string; email_ids: number[] } | null = null;
    if (triggerId) {
      [trigger] = await rowsOf<{ id: number; name: string; email_ids: number[] }>(
        db,
        sql`select t.id, t.name, t.email_ids from campaign_triggers t where t.id = ${triggerId} and ${usableSql(auth)} and t.trigger_type = 'email'`,
      );
      if (!trigger) throw notFound('campaign_trigger');
    }
    const emailId = b.email_id ?? null;
    if (emailId && trigger && !trigger.email_ids.map(Number).includes(emailId)) {
      throw invalid('email_id', 'is not one of the campaign trigger’s emails');
    }
    const ids = emailId ? [emailId] : (trigger?.email_ids ?? []).map(Number);
    if (!ids.length) throw invalid('email_id', 'choose an email or a campaign trigger');
    let template = null;
    for (const id of ids) {
      template = await loadTemplate(db, auth.company.id, id, true);
      if (template) break;
    }
    if (!template) throw emailId ? notFound('email') : invalid('email_campaign_trigger_id', 'has no active email');
    const content: EmailContent = {
      email_id: template.id,
      subject: template.subject,
      html: template.body_html,
      trigger_id: trigger?.id ?? null,
    };
    return {
      content,
      title: trigger ? `${trigger.name}: ${template.name}` : template.name,
      triggerId: trigger ? Number(trigger.id) : null,
    };
  }

  function sendAtOf(b: { send_now?: boolean; send_at?: string }) {
    if (b.send_at) return new Date(b.send_at);
    if (b.send_now === false) throw invalid('send_at', 'choose a time, or send now');
    return null;
  }

  async function start(
    auth: AuthContext,
    body: SelectionBody,
    content: EmailContent,
    title: string,
    triggerId: number | null,
    sendAt: Date | null,
  ) {
    const { recipientsSql, selection } = await selectionRecipients(db, auth, body);
    const ids = body.all ? null : [...new Set(body.ids ?? [])].sort((a, b) => a - b);
    const b = await createBroadcast(deps, {
      companyId: auth.company.id,
      userId: auth.user.id,
      channel: 'email',
      purpose: 'marketing',
      content: { ...content },
      title,
      triggerId,
      sendAt,
      selection,
      recipientsSql,
      fingerprint: fingerprintOf({
        u: auth.user.id,
        ch: 'email',
        c: [content.email_id, content.subject, content.html],
        ids,
        scope: body.all ? (body.contacts_scope ?? {}) : null,
        at: sendAt?.toISOString() ?? null,
      }),
    });
    return presentBroadcast((await loadBroadcast(db, b!.id))!);
  }

  app.post(
    '/v1/contacts/send_broadcast_email',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary:
          'Broadcast a template (email_id) or a campaign trigger to ids or all over the scope, now or at send_at',
        body: SendBroadcastEmailBody,
        response: { 201: Broadcast },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const sendAt = sendAtOf(req.body);
      const { content, title, triggerId } = await contentOf(auth, req.body);
      return reply.code(201).send(await start(auth, req.body, content, title, triggerId, sendAt));
    },
  );

  app.post(
    '/v1/contacts/mailing_group',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: 'Email a selection a message written now (subject, email_body), as a broadcast',
        body: MailingGroupBody,
        response: { 201: Broadcast },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const html = checkTemplate(req.body.subject, req.body.email_body);
      const sendAt = req.body.send_at ? new Date(req.body.send_at) : null;
      const content: EmailContent = { email_id: null, subject: req.body.subject, html };
      return reply.code(201).send(await start(auth, req.body, content, req.body.subject, null, sendAt));
    },
  );

  app.post(
    '/v1/contacts/send_test_email',
    {
      config,
      bodyLimit: BODY_LIMIT,
      schema: {
        tags,
        summary: 'Send a test of a template or message to yourself, merged with a selected contact',
        body: SendTestEmailBody,
        response: { 202: SendTestEmailReply },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      let subject = req.body.subject;
      let html = req.body.email_body;
      if (req.body.email_id) {
        const t = await loadTemplate(db, auth.company.id, req.body.email_id);
        if (!t) throw notFound('email');
        subject = t.subject;
        html = t.body_html;
      }
      if (!subject || !html) throw invalid('email_id', 'choose an email, or write a subject and a message');
      html = checkTemplate(subject, html);
      const contactId = req.body.contact_id ?? req.body.ids?.[0];
      let values = { ...SAMPLE_VALUES };
      if (contactId) {
        const c = await findVisibleContactById(db, auth, contactId);
        if (!c) throw notFound('contact');
        values = {
          ...values,
          ...(await mergeValuesFor(db, auth.company.id, [{ contactId: c.id, senderId: auth.user.id }])).get(
            `${c.id}:${auth.user.id}`,
          ),
        };
      }
      const r = renderEmail(
        { subject, html },
        { ...values, unsubscribe_url: `${deps.config.appUrl}/unsubscribe/test` },
      );
      const to = auth.user.email;
      await deps.jobs.enqueue(
        EMAIL_TEST_JOB,
        { to, subject: `[Test] ${r.subject}`, html: r.html, text: r.text },
        { companyId: auth.company.id },
      );
      return reply.code(202).send({ sent_to: to, subject: `[Test] ${r.subject}` });
    },
  );
}
