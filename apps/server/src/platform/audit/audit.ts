import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { auditEvents } from './schema.js';

export type AuditEvent =
  | 'sign_in'
  | 'sign_in_failed'
  | 'sign_in_locked'
  | 'sign_out'
  | 'otp_failed'
  | 'password_changed'
  | 'password_reset_requested'
  | 'password_reset'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'two_factor_method_changed'
  | 'impersonation_started'
  | 'impersonation_ended'
  | 'user_created'
  | 'user_updated'
  | 'user_roles_changed'
  | 'user_deleted'
  | 'paid_membership_changed'
  | 'feature_flags_changed'
  | 'sso_connection_changed'
  | 'sso_connection_removed'
  | 'api_key_created'
  | 'api_key_refreshed'
  | 'api_key_revoked'
  /** A security setting (password, email, second factor, API keys) refused to an impersonator or an API key. */
  | 'security_change_refused'
  | 'recovery_codes_generated'
  | 'recovery_code_used'
  /** A contact list left the system (who, how many, which selection). */
  | 'contacts_exported';

export interface AuditEntry {
  event: AuditEvent;
  companyId?: number | null;
  userId?: number | null;
  actorId?: number | null;
  data?: Record<string, unknown>;
}

/**
 * Append-only log of security events. Written in the same transaction as the change it records where there is one.
 * The request says who is at the keyboard: in an impersonated session (login stack not empty) the actor is the
 * person who started the chain and on_behalf_of the session's user, whatever the caller passed; the users they
 * passed through on the way are kept in data.via. A request made with an API key names the key.
 */
export class AuditLog {
  constructor(private readonly db: Db) {}
  async record(entry: AuditEntry, req?: FastifyRequest, db: Db = this.db) {
    const auth = req ? (req.auth ?? req.pendingAuth) : null;
    const stack = auth?.session?.loginStack ?? [];
    const data = { ...(entry.data ?? {}) };
    if (stack.length > 1) data.via = stack.slice(1).map((e) => e.user_id);
    if (auth?.apiKey) data.api_key_id = auth.apiKey.id;
    await db.insert(auditEvents).values({
      event: entry.event,
      companyId: entry.companyId ?? null,
      userId: entry.userId ?? null,
      actorId: stack.length ? stack[0].user_id : (entry.actorId ?? entry.userId ?? null),
      onBehalfOf: stack.length ? auth!.session!.userId : null,
      ip: req?.ip ?? null,
      data,
    });
  }
}
