/**
 * Signing in as another user (POST /v1/admin/users/{id}/login and POST /v1/sessions/{id}). The caller's session
 * ends and a NEW session for the target starts, carrying the caller's login stack plus one entry naming the caller;
 * DELETE /v1/sessions pops that entry and returns. The new session is fully signed in: two-factor is not demanded of
 * an impersonated session (spec §2), and the browser's guard reads the stack to skip the two-factor redirect.
 */
import type { CurrentUser } from '@harbor/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../platform/auth/context.js';
import { buildAuthContext } from '../../platform/auth/context.js';
import { createSession, endSession } from '../../platform/auth/sessions.js';
import type { UserRow } from '../../platform/db/schema.js';
import { forbidden } from '../../platform/http/errors.js';
import { reachOf } from '../../platform/reach.js';
import { presentCurrentUser } from '../users/presenter.js';

export type LoginType = 'login_as' | 'impersonate';
type Kind = CurrentUser['login_stack'][number]['kind'];

/**
 * The stack kind follows the spec's names: "impersonate" is impersonating (impersonating_as_rm for a relationship
 * manager); "login as" records the level the caller acted from (logged_as_admin, or the BU-admin and manager
 * variants). See docs/decisions/login-as-vs-impersonate.md.
 */
export function stackKind(actor: UserRow, loginType: LoginType): Kind {
  if (loginType === 'impersonate') return actor.relationshipManager ? 'impersonating_as_rm' : 'impersonating';
  const level = reachOf(actor);
  if (level === 'company') return 'logged_as_admin';
  if (level === 'business_unit') return 'logged_as_bu_admin';
  return 'logged_as_manager';
}

export async function startImpersonation(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  auth: AuthContext,
  target: UserRow,
  loginType: LoginType,
): Promise<{ user: CurrentUser }> {
  // An API key is not a browser session: it must not mint one, for the target or anyone.
  if (!auth.session) throw forbidden('Signing in as another user needs a browser session.');
  if (target.id === auth.user.id) throw forbidden('You cannot sign in as yourself.');
  const { db } = app.deps.database;
  const kind = stackKind(auth.user, loginType);
  const entry = {
    kind,
    user_id: auth.user.id,
    name: `${auth.user.firstName} ${auth.user.lastName}`.trim(),
    expires_at: auth.session.expiresAt.toISOString(),
  };
  const stack = [...auth.session.loginStack, entry];
  await endSession(db, auth.session.id);
  // The impersonation ends no later than the session it came from: it cannot be used to stay signed in longer.
  const session = await createSession(db, app.deps.config, req, reply, target, 'active', stack, auth.session.expiresAt);
  await app.deps.audit.record(
    {
      event: 'impersonation_started',
      companyId: auth.company.id,
      userId: target.id,
      actorId: auth.user.id,
      data: { login_type: loginType, kind, depth: stack.length },
    },
    req,
  );
  return { user: await presentCurrentUser(db, buildAuthContext(target, auth.company, session)) };
}
