import type { SsoCheckReply, SsoConnectionBody, SsoConnectionReply } from '@harbor/shared';
import { api } from './client';

export interface AuditEvent {
  id: number;
  event: string;
  user_id: number | null;
  user_email: string | null;
  actor_id: number | null;
  ip: string | null;
  data: Record<string, unknown>;
  created_at: string;
}

export function listAuditEvents(q: { event?: string; before_id?: number }, signal?: AbortSignal) {
  const params = new URLSearchParams();
  if (q.event) params.set('event', q.event);
  if (q.before_id) params.set('before_id', String(q.before_id));
  const qs = params.toString();
  return api.get<{ data: AuditEvent[]; meta: { next_before_id: number | null } }>(
    `/v1/admin/audit_events${qs ? `?${qs}` : ''}`,
    { signal },
  );
}

export const getSsoConnection = (signal?: AbortSignal) =>
  api.get<SsoConnectionReply>('/v1/admin/sso_connection', { signal });
export const saveSsoConnection = (body: SsoConnectionBody) =>
  api.put<SsoConnectionReply>('/v1/admin/sso_connection', body);
export const removeSsoConnection = () => api.delete<undefined>('/v1/admin/sso_connection');
export const checkSsoConnection = () => api.post<SsoCheckReply>('/v1/admin/sso_connection/check', {});
