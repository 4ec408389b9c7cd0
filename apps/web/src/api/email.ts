/**
 * Email, campaign triggers and broadcasts (shapes from @harbor/shared; server: modules/email, campaign-triggers,
 * broadcasts). Sends carry an Idempotency-Key kept per dialog, so a second click never sends twice.
 */
import type {
  CampaignTrigger,
  EmailBulkUpdateBody,
  EmailTemplate,
  EmailTemplateBody,
  UsableTriggerList,
} from '@harbor/shared';
import { call } from './call';
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
    call('GET /v1/admin/emails', { signal, query: { q: q.q || undefined, page: q.page ?? 1, limit: 50 } }),
  get: (id: number, signal?: AbortSignal) => call('GET /v1/admin/emails/{id}', { params: { id }, signal }),
  create: (body: TemplateInput) => call('POST /v1/admin/emails', { body }),
  update: (id: number, body: Partial<TemplateInput>) => call('PATCH /v1/admin/emails/{id}', { params: { id }, body }),
  remove: (id: number) => call('DELETE /v1/admin/emails/{id}', { params: { id } }),
  bulk: (body: In<typeof EmailBulkUpdateBody>) => call('POST /v1/admin/emails/bulk_update', { body }),
  preview: (body: { subject: string; body_html: string; contact_id?: number }) =>
    call('POST /v1/contacts/email_preview', { body }),
};

export const triggersAdminApi = {
  list: (signal?: AbortSignal) => call('GET /v1/admin/campaign_triggers', { signal, query: { limit: 100 } }),
  create: (form: FormData) => call('POST /v1/admin/campaign_triggers', { body: form }),
  update: (id: number, form: FormData) =>
    call('PATCH /v1/admin/campaign_triggers/{id}', { params: { id }, body: form }),
  remove: (id: number) => call('DELETE /v1/admin/campaign_triggers/{id}', { params: { id } }),
};

export const sendApi = {
  templates: (signal?: AbortSignal) => call('GET /v1/contacts/emails', { signal }),
  triggers: (showOn: 'bulk' | 'event' | 'conversation', signal?: AbortSignal) =>
    call('GET /v1/contacts/email_campaign_triggers', { signal, query: { show_on: showOn } }),
  preview: (sel: Selection) => call('POST /v1/broadcasts/preview', { body: { ...sel, channel: 'email' } }),
  broadcast: (
    sel: Selection,
    body: { email_id?: number; email_campaign_trigger_id?: number; send_at?: string },
    key: string,
  ) =>
    call('POST /v1/contacts/send_broadcast_email', {
      body: { ...sel, ...body, send_now: !body.send_at },
      ...idem(key),
    }),
  test: (body: { email_id?: number; ids?: number[] }) => call('POST /v1/contacts/send_test_email', { body }),
  broadcastStatus: (id: number, signal?: AbortSignal) => call('GET /v1/broadcasts/{id}', { params: { id }, signal }),
  cancel: (id: number) => call('POST /v1/broadcasts/{id}/cancel', { params: { id } }),
};

export const contactEmailApi = {
  send: (n: number, body: { subject: string; email_body: string }, key: string) =>
    call('POST /v1/contacts/{id}/send_email', { params: { id: n }, body, ...idem(key) }),
  history: (n: number, page = 1) =>
    call('POST /v1/contacts/{id}/email_history', { params: { id: n }, body: { page, limit: 10 } }),
  logs: (n: number, limit: number, signal?: AbortSignal) =>
    call('GET /v1/contacts/{id}/email_logs', { params: { id: n }, signal, query: { limit } }),
};

export const unsubscribeApi = {
  info: (token: string, signal?: AbortSignal) => call('GET /v1/unsubscribe/{token}', { params: { token }, signal }),
  choose: (token: string, scope: 'agent' | 'all') =>
    // The route reads its body itself (RFC 8058 one-click posts a form), so the contract names no body.
    (
      call as (
        key: 'POST /v1/unsubscribe/{token}',
        input: object,
      ) => ReturnType<typeof call<'POST /v1/unsubscribe/{token}'>>
    )('POST /v1/unsubscribe/{token}', { params: { token }, body: { scope } }),
};
