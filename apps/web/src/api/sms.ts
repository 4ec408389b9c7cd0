/**
 * Texting (shapes from @harbor/shared; server: modules/sms). A send carries an Idempotency-Key kept per composed
 * message, so a second click never sends twice.
 */
import type {
  Broadcast,
  NumberSearchResult,
  PhoneVerificationList,
  ShowConversation,
  SmsBroadcastPreview,
  SmsConversation,
  SmsConversationList,
  SmsMessage,
  SmsMessageList,
  SmsNumber,
  UsableTriggerList,
} from '@harbor/shared';
import { api } from './client';
import type { Selection } from './contacts-list';

type Infer<S> = S extends { _output: infer O } ? O : never;
export type Conversation = SmsConversation;
export type Thread = Infer<typeof ShowConversation>;
export type DevPhoneEntry = {
  sid: string;
  direction: 'to_phone' | 'from_phone';
  business: string;
  body: string;
  media: string[];
  at: string;
  status: string;
};

export const smsApi = {
  conversations: (q: { q?: string; unread?: boolean; page?: number }, signal?: AbortSignal) =>
    api.post<Infer<typeof SmsConversationList>>(
      '/v1/sms/fetch_conversations',
      { q: q.q || undefined, unread: q.unread || undefined, page: q.page ?? 1, limit: 30 },
      { signal },
    ),
  show: (contactId: number, signal?: AbortSignal) =>
    api.get<Thread>('/v1/sms/show_conversation', { signal, query: { contact_id: String(contactId) } }),
  older: (contactId: number, beforeId: number) =>
    api.post<Infer<typeof SmsMessageList>>('/v1/sms/fetch_messages', { contact_id: contactId, before_id: beforeId }),
  read: (contactId: number, read = true) =>
    api.post<Conversation>('/v1/sms/read_conversation', { contact_id: contactId, read }),
  send: (form: FormData, key: string) =>
    api.post<SmsMessage>('/v1/sms/send_message', form, { headers: { 'Idempotency-Key': key } }),
  permission: (body: { contact_id: number; status: 'allowed' | 'opted_out'; clear_flag?: boolean; detail?: string }) =>
    api.post<Conversation | null>('/v1/sms/update_permission', body),
  templates: (signal?: AbortSignal) =>
    api.get<Infer<typeof UsableTriggerList>>('/v1/contacts/sms_campaign_triggers', {
      signal,
      query: { show_on: 'conversation' },
    }),
  myNumbers: (signal?: AbortSignal) => api.get<{ data: SmsNumber[] }>('/v1/users/phone_numbers', { signal }),
  searchNumbers: (areaCode: string, signal?: AbortSignal) =>
    api.get<Infer<typeof NumberSearchResult>>('/v1/users/phone_numbers/search', {
      signal,
      query: { area_code: areaCode || undefined },
    }),
  buyNumber: (phone: string, key: string) =>
    api.post<SmsNumber>(
      '/v1/users/phone_numbers/purchase',
      { phone_number: phone, pay_from_wallet: true },
      { headers: { 'Idempotency-Key': key } },
    ),
  verifications: (q: { q?: string; page?: number }, signal?: AbortSignal) =>
    api.get<Infer<typeof PhoneVerificationList>>('/v1/sms/phone_verifications', {
      signal,
      query: { q: q.q || undefined, page: String(q.page ?? 1), limit: '20' },
    }),
};

export const smsBulkApi = {
  preview: (sel: Selection, message: string) =>
    api.post<SmsBroadcastPreview>('/v1/contacts/sms_broadcast_preview', { ...sel, message }),
  broadcast: (sel: Selection, body: { message: string; send_at?: string }, key: string) =>
    api.post<Broadcast>(
      '/v1/contacts/send_broadcast_sms',
      { ...sel, ...body, send_now: !body.send_at },
      { headers: { 'Idempotency-Key': key } },
    ),
};

export const devPhoneApi = {
  phones: (signal?: AbortSignal) =>
    api.get<{ data: Array<{ number: string; last: DevPhoneEntry }> }>('/v1/dev/phones', { signal }),
  phone: (number: string, signal?: AbortSignal) =>
    api.get<{ number: string; entries: DevPhoneEntry[] }>('/v1/dev/phone', { signal, query: { number } }),
  reply: (body: { from: string; to: string; body: string }) => api.post<{ sid: string }>('/v1/dev/phone/reply', body),
};
