/** What every sub-record route shares: the `{id}` contact lookup and who may change another person's record. */
import type { AuthContext } from '../../platform/auth/context.js';
import { forbidden } from '../../platform/http/errors.js';
import { reachOf } from '../../platform/reach.js';

export { ContactParams, contactTenant } from '../contacts/detail-routes.js';

export const fullName = (f: string | null, l: string | null) => `${f ?? ''} ${l ?? ''}`.trim();

/** Agents edit and delete only what they wrote; managers and admins also what others wrote on contacts they see. */
export function assertMayChange(auth: AuthContext, authorId: number | null) {
  if (authorId === auth.user.id) return;
  if (reachOf(auth) === 'own') throw forbidden('Only the author or a manager can change this.');
}
