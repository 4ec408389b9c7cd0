import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { devMails } from '../../integrations/mail/schema.js';
import { notFound } from '../../platform/http/errors.js';
import type { Module } from '../types.js';

const MailSummary = z.object({
  id: z.number(),
  to: z.string(),
  from: z.string(),
  subject: z.string(),
  created_at: z.string(),
});

/**
 * The development inbox: what the local SMTP stand-in received. Registered only while that stand-in is the mail
 * transport and never in production, so it cannot expose real mail. Public so a signed-out person can follow a
 * password-reset link (see docs/decisions/dev-inbox.md).
 */
export const devModule: Module = {
  name: 'dev',
  register(scope: FastifyInstance) {
    const { config } = scope.deps;
    if (config.smtpUrl || config.environment === 'production') return;
    const app = scope.withTypeProvider<ZodTypeProvider>();
    app.get(
      '/v1/dev/mails',
      {
        config: { access: 'public' },
        schema: {
          tags: ['dev'],
          summary: 'Development inbox',
          response: { 200: z.object({ data: z.array(MailSummary) }) },
        },
      },
      async () => {
        const rows = await scope.deps.database.db.select().from(devMails).orderBy(desc(devMails.id)).limit(100);
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
          params: z.object({ id: z.coerce.number().int().positive() }),
          response: { 200: MailSummary.extend({ text: z.string().nullable(), html: z.string().nullable() }) },
        },
      },
      async (req) => {
        const [m] = await scope.deps.database.db.select().from(devMails).where(eq(devMails.id, req.params.id));
        if (!m) throw notFound('mail');
        return { ...m, created_at: m.createdAt.toISOString() };
      },
    );
  },
};
