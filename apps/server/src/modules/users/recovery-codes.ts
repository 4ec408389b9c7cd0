/**
 * /v1/users/two_factor/recovery_codes: how many of your recovery codes are left (GET), and a new set (PATCH, with
 * the password; the old codes stop working). Codes are shown only in the reply that creates them.
 */
import { RecoveryCodesReply, RecoveryCodesStatus, RegenerateRecoveryCodesBody } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { verifyPassword } from '../../platform/auth/passwords.js';
import { RECOVERY_CODE_COUNT, recoveryCodesLeft } from '../../platform/auth/recovery-codes.js';
import { invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { issueRecoveryCodes } from './security.js';

export function recoveryCodeRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  app.get(
    '/v1/users/two_factor/recovery_codes',
    {
      config: { access: 'account.self' },
      schema: {
        tags: ['users'],
        summary: 'How many of your two-factor recovery codes are still unused (never the codes)',
        response: { 200: RecoveryCodesStatus },
      },
    },
    async (req) => ({ left: await recoveryCodesLeft(db, authOf(req).user.id), total: RECOVERY_CODE_COUNT }),
  );

  app.patch(
    '/v1/users/two_factor/recovery_codes',
    {
      config: { access: 'account.self', securitySetting: true },
      schema: {
        tags: ['users'],
        summary: 'A new set of recovery codes, shown this once; the previous codes stop working',
        body: RegenerateRecoveryCodesBody,
        response: { 200: RecoveryCodesReply },
      },
    },
    async (req) => {
      const { user } = authOf(req);
      if (!user.otpEnabled) throw invalid('user', 'Turn on two-factor authentication first');
      if (!(await verifyPassword(user.passwordHash, req.body.password))) throw invalid('password', 'is incorrect');
      return { recovery_codes: await issueRecoveryCodes(scope, req, user) };
    },
  );
}
