/**
 * The email area (issue 11): templates, sending from the list and from a contact, the history and the event log,
 * unsubscribe, and the provider's signed events. Mail goes through the mail port as durable jobs; broadcasts through
 * the channel-neutral machinery, on which this area registers the `email` channel. docs/decisions/email.md.
 */
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { isMailEventSource } from '../../integrations/mail/port.js';
import { sendgridProvider } from '../../integrations/sendgrid/webhook.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import { broadcastChannels } from '../broadcasts/channels.js';
import { checkConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import type { Module } from '../types.js';
import { emailChannel } from './channel.js';
import { contactEmailRoutes, EMAIL_SEND_JOB } from './contact-routes.js';
import { handleEmailEvent, handleEmailEvents } from './events.js';
import { deliver } from './messages.js';
import { emailTemplates } from './schema.js';
import { EMAIL_TEST_JOB, sendRoutes } from './send-routes.js';
import { templateRoutes } from './templates.js';
import { unsubscribeRoutes } from './unsubscribe.js';

export const emailModule: Module = {
  name: 'email',
  register(scope: FastifyInstance, { tenants }) {
    const deps = scope.deps;
    const db = deps.database.db;
    tenants.register('email_template', companyRowResolver(emailTemplates));
    const channel = emailChannel(deps);
    broadcastChannels(deps).register(channel);

    // The provider's events: SendGrid's key when configured, else the local stand-in's own (it signs what it posts).
    const key = deps.config.mail.webhookKey ?? (isMailEventSource(deps.mail) ? deps.mail.eventPublicKey : null);
    if (key) {
      deps.webhooks.register(
        sendgridProvider({
          publicKey: key,
          handle: handleEmailEvent,
          handleMany: handleEmailEvents,
          toleranceSeconds: 24 * 3600,
        }),
      );
    }
    if (isMailEventSource(deps.mail)) {
      const mail = deps.mail;
      scope.addHook('onReady', async () => {
        mail.setEventSink(async (body, headers) => {
          const res = await scope.inject({ method: 'POST', url: '/v1/webhooks/sendgrid', payload: body, headers });
          return res.statusCode;
        });
      });
    }

    deps.jobs.register(
      EMAIL_SEND_JOB,
      async ({ job, throttle }) => {
        const [m] = await rowsOf<Record<string, unknown>>(
          db,
          sql`select * from email_messages where id = ${Number(job.payload.id)} and status in ('queued', 'sending')`,
        );
        if (!m) return;
        // Asked again when it goes: an opt-out since the click wins.
        const [v] = await checkConsent(db, {
          companyId: Number(m.company_id),
          channel: 'email',
          purpose: 'conversation',
          senderId: Number(m.sender_id),
          contactIds: [Number(m.contact_id)],
        });
        if (!v.allowed) {
          await db.execute(
            sql`update email_messages set status = 'failed', error = ${`consent: ${v.reason}`}, updated_at = now() where id = ${Number(m.id)}`,
          );
          return;
        }
        const { key: tkey, rule } = channel.throttle();
        const out = await deliver(
          deps,
          [
            {
              id: Number(m.id),
              companyId: Number(m.company_id),
              contactId: Number(m.contact_id),
              senderId: Number(m.sender_id),
              to: String(m.to_address),
              subject: String(m.subject),
              html: String(m.body_html),
              unsubscribe: true,
            },
          ],
          (n) => throttle(tkey, rule, n),
        );
        const outcome = out.get(Number(m.id));
        if (outcome === 'retry') throw new Error('the mail server answered with a temporary failure');
        if (outcome === 'wait') throw new Error('waiting for the provider to tell whether it took the message');
      },
      { concurrency: 4 },
    );

    deps.jobs.register(EMAIL_TEST_JOB, async ({ job }) => {
      const p = job.payload as { to: string; subject: string; html: string; text: string };
      await deps.mail.send({ to: p.to, subject: p.subject, html: p.html, text: p.text });
    });

    templateRoutes(scope);
    sendRoutes(scope);
    contactEmailRoutes(scope);
    unsubscribeRoutes(scope);
  },
};
