import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendEmailOtp } from '../session/sign-in.js';

/**
 * PATCH /v1/users/two_factor/send_otp: email a one-time code. Open to a half-signed-in session too, since that is
 * exactly when a person without their phone needs it.
 */
export function sendOtpRoute(scope: FastifyInstance) {
  scope.withTypeProvider<ZodTypeProvider>().patch(
    '/v1/users/two_factor/send_otp',
    {
      config: { access: 'otp_pending', rateLimit: { name: 'send_otp', max: 5, windowMs: 60_000 } },
      schema: { tags: ['users'], summary: 'Email a one-time sign-in code', response: { 204: z.null() } },
    },
    async (req, reply) => {
      const auth = req.auth ?? req.pendingAuth!;
      await sendEmailOtp(scope, auth.user, req);
      return reply.code(204).send(null);
    },
  );
}
