/**
 * "Be the phone" (development and the embedded demo, with the loopback carrier, from the machine itself): what the
 * carrier delivered to a number, and a reply from it, which arrives as a signed inbound webhook like a real one.
 */
import { normalizePhone } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { devInboxEnabled, isLocal } from '../dev/routes.js';

const Entry = z.object({
  sid: z.string(),
  direction: z.enum(['to_phone', 'from_phone']),
  business: z.string(),
  body: z.string(),
  media: z.array(z.string()),
  at: z.string(),
  status: z.string(),
});
const Phone = z.string().transform((v, ctx) => {
  const p = normalizePhone(v);
  if (!p) ctx.addIssue({ code: 'custom', message: 'is not a valid phone number' });
  return p ?? '';
});

export function devPhoneRoutes(scope: FastifyInstance) {
  const carrier = scope.deps.messaging.carrier;
  if (!carrier || !devInboxEnabled(scope.deps.config)) return;
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const config = { access: 'contacts.use' } as const;
  const local = (req: Parameters<typeof isLocal>[0]) => {
    if (!isLocal(req)) throw new HttpError(404, { path: [`No route for ${req.method} ${req.url.split('?')[0]}`] });
  };

  app.get(
    '/v1/dev/phones',
    {
      config,
      schema: {
        tags: ['dev'],
        summary: 'Phones the loopback carrier has delivered to (development)',
        response: { 200: z.object({ data: z.array(z.object({ number: z.string(), last: Entry })) }) },
      },
    },
    async (req) => {
      local(req);
      return {
        data: carrier.phoneList().map((p) => ({
          number: p.number.replace(/^\+/, ''),
          last: { ...p.last, business: p.last.business.replace(/^\+/, '') },
        })),
      };
    },
  );

  app.get(
    '/v1/dev/phone',
    {
      config,
      schema: {
        tags: ['dev'],
        summary: 'What one phone received and sent (development)',
        querystring: z.object({ number: Phone }),
        response: { 200: z.object({ number: z.string(), entries: z.array(Entry) }) },
      },
    },
    async (req) => {
      local(req);
      const entries = carrier
        .phone(`+${req.query.number}`)
        .map((e) => ({ ...e, business: e.business.replace(/^\+/, '') }));
      return { number: req.query.number, entries };
    },
  );

  app.post(
    '/v1/dev/phone/reply',
    {
      config,
      schema: {
        tags: ['dev'],
        summary: 'Reply from a phone to a business number (development)',
        body: z.strictObject({ from: Phone, to: Phone, body: z.string().trim().min(1).max(1600) }),
        response: { 201: z.object({ sid: z.string() }) },
      },
    },
    async (req, reply) => {
      local(req);
      try {
        const sid = await carrier.reply(`+${req.body.from}`, `+${req.body.to}`, req.body.body);
        return reply.code(201).send({ sid });
      } catch (err) {
        throw invalid('to', (err as Error).message);
      }
    },
  );
}
