/**
 * Email, campaign triggers and broadcasts (shapes from @harbor/shared; server: modules/email, campaign-triggers,
 * broadcasts). Sends carry an Idempotency-Key kept per dialog, so a second click never sends twice.
 */
import type {
  AgentEmailList,
  Broadcast,
  BroadcastPreview,
  CampaignTrigger,
  CampaignTriggerList,
  EmailBulkUpdateBody,
  EmailHistory,
  EmailLog,
  EmailMessage,
  EmailPreview,
  EmailTemplate,
  EmailTemplateBody,
  EmailTemplateList,
  UnsubscribeInfo,
  UsableTriggerList,
} from '@harbor/shared';
import { api } from './client';
import type { Selection } from './contacts-list';

type Infer<S> = S extends { _output: infer O } ? O : never;
type In<S> = S extends { _input: infer I } ? I : never;
const idem = (key: string) => ({ headers: { 'Idempotency-Key': key } });

export type Template = EmailTemplate;
export type TemplateInput = In<typeof EmailTemplateBody>;
export type Trigger = CampaignTrigger;
export type UsableTrigger = Infer<typeof UsableTriggerList>['data'][number];

export const emailAdminApi = {
  list: (q: { q?: string; page?: number } = {}, signal?: AbortSignal) =>
    api.get<Infer<typeof EmailTemplateList>>('/v1/admin/emails', {
      signal,
      query: { q: q.q || undefined, page: String(q.page ?? 1), limit: '50' },
    }),
  get: (id: number, signal?: AbortSignal) => api.get<Template>(`/v1/admin/emails/${id}`, { signal }),
  create: (body: TemplateInput) => api.post<Template>('/v1/admin/emails', body),
  update: (id: number, body: Partial<TemplateInput>) => api.patch<Template>(`/v1/admin/emails/${id}`, body),
  remove: (id: number) => api.delete<void>(`/v1/admin/emails/${id}`),
  bulk: (body: In<typeof EmailBulkUpdateBody>) => api.post<{ updated: number }>('/v1/admin/emails/bulk_update', body),
  preview: (body: { subject: string; body_html: string; contact_id?: number }) =>
    api.post<Infer<typeof EmailPreview>>('/v1/contacts/email_preview', body),
};

export const triggersAdminApi = {
  list: (signal?: AbortSignal) =>
    api.get<Infer<typeof CampaignTriggerList>>('/v1/admin/campaign_triggers', { signal, query: { limit: '100' } }),
  create: (form: FormData) => api.post<Trigger>('/v1/admin/campaign_triggers', form),
  update: (id: number, form: FormData) => api.patch<Trigger>(`/v1/admin/campaign_triggers/${id}`, form),
  remove: (id: number) => api.delete<void>(`/v1/admin/campaign_triggers/${id}`),
};

export const sendApi = {
  templates: (signal?: AbortSignal) => api.get<Infer<typeof AgentEmailList>>('/v1/contacts/emails', { signal }),
  triggers: (showOn: 'bulk' | 'event' | 'conversation', signal?: AbortSignal) =>
    api.get<Infer<typeof UsableTriggerList>>('/v1/contacts/email_campaign_triggers', {
      signal,
      query: { show_on: showOn },
    }),
  preview: (sel: Selection) => api.post<BroadcastPreview>('/v1/broadcasts/preview', { ...sel, channel: 'email' }),
  broadcast: (
    sel: Selection,
    body: { email_id?: number; email_campaign_trigger_id?: number; send_at?: string },
    key: string,
  ) =>
    api.post<Broadcast>('/v1/contacts/send_broadcast_email', { ...sel, ...body, send_now: !body.send_at }, idem(key)),
  test: (body: { email_id?: number; ids?: number[] }) =>
    api.post<{ sent_to: string; subject: string }>('/v1/contacts/send_test_email', body),
  broadcastStatus: (id: number, signal?: AbortSignal) => api.get<Broadcast>(`/v1/broadcasts/${id}`, { signal }),
  cancel: (id: number) => api.post<Broadcast>(`/v1/broadcasts/${id}/cancel`),
};

const c = (n: number) => `/v1/contacts/${n}`;
export const contactEmailApi = {
  send: (n: number, body: { subject: string; email_body: string }, key: string) =>
    api.post<EmailMessage>(`${c(n)}/send_email`, body, idem(key)),
  history: (n: number, page = 1) => api.post<Infer<typeof EmailHistory>>(`${c(n)}/email_history`, { page, limit: 10 }),
  logs: (n: number, limit: number, signal?: AbortSignal) =>
    api.get<Infer<typeof EmailLog>>(`${c(n)}/email_logs`, { signal, query: { limit: String(limit) } }),
};

export const unsubscribeApi = {
  info: (token: string, signal?: AbortSignal) =>
    api.get<Infer<typeof UnsubscribeInfo>>(`/v1/unsubscribe/${token}`, { signal }),
  choose: (token: string, scope: 'agent' | 'all') =>
    api.post<{ unsubscribed: true; scope: string }>(`/v1/unsubscribe/${token}`, { scope }),
};
