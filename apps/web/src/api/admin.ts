import type { SsoConnectionBody } from '@harbor/shared';
import { call, type QueryOf, type Reply } from './call';

export type AuditEvent = Reply<'GET /v1/admin/audit_events'>['data'][number];

export const listAuditEvents = (q: QueryOf<'GET /v1/admin/audit_events'>, signal?: AbortSignal) =>
  call('GET /v1/admin/audit_events', { query: q, signal });

export const saveSsoConnection = (body: SsoConnectionBody) => call('PUT /v1/admin/sso_connection', { body });
export const removeSsoConnection = () => call('DELETE /v1/admin/sso_connection');
export const checkSsoConnection = () => call('POST /v1/admin/sso_connection/check');
