/**
 * Texting (shapes from @harbor/shared; server: modules/sms). A send carries an Idempotency-Key kept per composed
 * message, so a second click never sends twice.
 */
import type { ShowConversation, SmsConversation } from '@harbor/shared';
import type { QueryClient } from '@tanstack/react-query';
import { call, type Reply } from './call';
import type { Selection } from './contacts-list';
import { callQuery, qk, qkUnder } from './queries';

type Infer<S> = S extends { _output: infer O } ? O : never;
export type Conversation = SmsConversation;
export type Thread = Infer<typeof ShowConversation>;
export type DevPhoneEntry = Reply<'GET /v1/dev/phone'>['entries'][number];

/** The texting queries a page shows: conversations, threads, templates and the caller's numbers. */
export const textingQueries = {
  conversations: (q: { q?: string; unread?: boolean; page?: number }) =>
    callQuery('POST /v1/sms/fetch_conversations', {
      body: { q: q.q || undefined, unread: q.unread || undefined, page: q.page ?? 1, limit: 30 },
    }),
  thread: (contactId: number) => callQuery('GET /v1/sms/show_conversation', { query: { contact_id: contactId } }),
  templates: () => callQuery('GET /v1/contacts/sms_campaign_triggers', { query: { show_on: 'conversation' } }),
  myNumbers: () => callQuery('GET /v1/users/phone_numbers'),
};
/** After a text is sent or a permission changes: every texting query (the inbox, threads, numbers). */
export const invalidateTexting = (qc: QueryClient) =>
  Promise.all([
    qc.invalidateQueries(qkUnder('/v1/sms')),
    qc.invalidateQueries({ queryKey: qk('GET /v1/contacts/sms_campaign_triggers') }),
    qc.invalidateQueries({ queryKey: qk('GET /v1/users/phone_numbers') }),
  ]);

export const smsApi = {
  conversations: (q: { q?: string; unread?: boolean; page?: number }, signal?: AbortSignal) =>
    call('POST /v1/sms/fetch_conversations', {
      body: { q: q.q || undefined, unread: q.unread || undefined, page: q.page ?? 1, limit: 30 },
      signal,
    }),
  show: (contactId: number, signal?: AbortSignal) =>
    call('GET /v1/sms/show_conversation', { signal, query: { contact_id: contactId } }),
  older: (contactId: number, beforeId: number) =>
    call('POST /v1/sms/fetch_messages', { body: { contact_id: contactId, before_id: beforeId } }),
  read: (contactId: number, read = true) =>
    call('POST /v1/sms/read_conversation', { body: { contact_id: contactId, read } }),
  send: (form: FormData, key: string) =>
    call('POST /v1/sms/send_message', { body: form, headers: { 'Idempotency-Key': key } }),
  permission: (body: { contact_id: number; status: 'allowed' | 'opted_out'; clear_flag?: boolean; detail?: string }) =>
    call('POST /v1/sms/update_permission', { body }),
  templates: (signal?: AbortSignal) =>
    call('GET /v1/contacts/sms_campaign_triggers', { signal, query: { show_on: 'conversation' } }),
  myNumbers: (signal?: AbortSignal) => call('GET /v1/users/phone_numbers', { signal }),
  searchNumbers: (areaCode: string, signal?: AbortSignal) =>
    call('GET /v1/users/phone_numbers/search', { signal, query: { area_code: areaCode || undefined } }),
  buyNumber: (phone: string, key: string) =>
    call('POST /v1/users/phone_numbers/purchase', {
      body: { phone_number: phone, pay_from_wallet: true },
      headers: { 'Idempotency-Key': key },
    }),
  verifications: (q: { q?: string; page?: number }, signal?: AbortSignal) =>
    call('GET /v1/sms/phone_verifications', { signal, query: { q: q.q || undefined, page: q.page ?? 1, limit: 20 } }),
};

export const smsBulkApi = {
  preview: (sel: Selection, message: string) =>
    call('POST /v1/contacts/sms_broadcast_preview', { body: { ...sel, message } }),
  broadcast: (sel: Selection, body: { message: string; send_at?: string }, key: string) =>
    call('POST /v1/contacts/send_broadcast_sms', {
      body: { ...sel, ...body, send_now: !body.send_at },
      headers: { 'Idempotency-Key': key },
    }),
};

export const devPhoneApi = {
  phones: (signal?: AbortSignal) => call('GET /v1/dev/phones', { signal }),
  phone: (number: string, signal?: AbortSignal) => call('GET /v1/dev/phone', { signal, query: { number } }),
  reply: (body: { from: string; to: string; body: string }) => call('POST /v1/dev/phone/reply', { body }),
};
