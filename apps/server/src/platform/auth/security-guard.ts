/**
 * Routes that change how an account signs in (password, email, second factor, recovery codes, API keys) declare
 * `config.securitySetting`; the pipeline then lets only the account's owner, in a browser session of their own,
 * through. An impersonator would otherwise take over the account for good (a second factor only they hold, a key
 * that outlives the impersonation), and an API key could mint its own successors.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden } from '../http/errors.js';

export const API_KEY_REFUSED =
  'Security settings (password, email, two-factor, API keys) cannot be changed with an API key. Sign in to Harbor to change them.';

export function impersonationRefused(name: string) {
  return `You are signed in as ${name}: their password, email, two-factor and API keys cannot be changed while you are signed in as them.`;
}

export async function assertOwnerAtKeyboard(app: FastifyInstance, req: FastifyRequest) {
  const auth = req.auth;
  if (!auth) return;
  let message: string | null = null;
  if (auth.apiKey) message = API_KEY_REFUSED;
  else if (auth.session?.loginStack.length) {
    message = impersonationRefused(`${auth.user.firstName} ${auth.user.lastName}`.trim() || auth.user.email);
  }
  if (!message) return;
  await app.deps.audit.record(
    {
      event: 'security_change_refused',
      companyId: auth.company.id,
      userId: auth.user.id,
      data: { route: `${req.method} ${req.routeOptions.url}` },
    },
    req,
  );
  throw forbidden(message);
}
