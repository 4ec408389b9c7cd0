/**
 * POST /v1/sessions/{id}: session switch (admin impersonation), then the browser goes to /. `{id}` is the user to
 * switch to: docs/decisions/session-switch.md. Same rules as POST /v1/admin/users/{id}/login.
 */
import { IdParams, SignedInReply, SwitchSessionRequest } from '@harbor/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../platform/http/pipeline.js';
import { targetInReach } from '../admin/users/policy.js';
import { startImpersonation } from './impersonate.js';

export function switchSessionRoute(scope: FastifyInstance) {
  scope.withTypeProvider<ZodTypeProvider>().post(
    '/v1/sessions/:id',
    {
      config: { access: 'users.manage', tenant: { param: 'id', resource: 'user' } },
      schema: {
        tags: ['session'],
        summary: 'Switch the session to user {id} (impersonation); DELETE /v1/sessions returns',
        params: IdParams,
        body: SwitchSessionRequest,
        response: { 200: SignedInReply },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const target = await targetInReach(scope.deps.database.db, auth, req.params.id);
      return startImpersonation(scope, req, reply, auth, target, req.body?.login_type ?? 'impersonate');
    },
  );
}
