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
  /** A contact list left the system (who, how many, which selection). */
  | 'contacts_exported';

export interface AuditEntry {
  event: AuditEvent;
  companyId?: number | null;
  userId?: number | null;
  actorId?: number | null;
  data?: Record<string, unknown>;
}

/** Append-only log of security events. Written in the same transaction as the change it records where there is one. */
export class AuditLog {
  constructor(private readonly db: Db) {}
  async record(entry: AuditEntry, req?: FastifyRequest, db: Db = this.db) {
    await db.insert(auditEvents).values({
      event: entry.event,
      companyId: entry.companyId ?? null,
      userId: entry.userId ?? null,
      actorId: entry.actorId ?? entry.userId ?? null,
      ip: req?.ip ?? null,
      data: entry.data ?? {},
    });
  }
}
