/**
 * "Be the phone" (development and the embedded demo, with the loopback carrier, from the machine itself): what the
 * carrier delivered to a number, and a reply from it, which arrives as a signed inbound webhook like a real one.
 */
import { DevPhone, DevPhoneList, DevPhoneQuery, DevPhoneReplyBody, DevPhoneReplyReply } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { HttpError, invalid } from '../../platform/http/errors.js';
import { devInboxEnabled, isLocal } from '../dev/routes.js';

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
        response: { 200: DevPhoneList },
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
        querystring: DevPhoneQuery,
        response: { 200: DevPhone },
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
        body: DevPhoneReplyBody,
        response: { 201: DevPhoneReplyReply },
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
