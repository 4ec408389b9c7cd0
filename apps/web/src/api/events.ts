/** Typed helpers for the events area (calendar, today queue, history) and SOA requests. Shapes from @harbor/shared. */
import type { EventBody, EventUpdateBody, SoaRequestBody, SoaSubmitBody } from '@harbor/shared';
import { call, type QueryOf } from './call';

export interface RangeQuery {
  /** MM/DD/YYYY, as the spec puts range dates on the wire. */
  start_date: string;
  end_date: string;
  q?: string;
  types_list?: string;
  downline_user_id?: number | null;
  today_events?: boolean;
}

export const listEvents = (query: RangeQuery, signal?: AbortSignal) =>
  call('GET /v1/events', { query: { ...query }, signal });
export const contactEvents = (contactId: number, signal?: AbortSignal) =>
  call('GET /v1/events/contact_events', { query: { contact_id: contactId }, signal });
export const calendarHistory = (
  query: { downline_user_id?: number | null; page?: number; limit?: number },
  signal?: AbortSignal,
) => call('GET /v1/events/calendar_history', { query, signal });
export const createEvent = (body: EventBody) => call('POST /v1/events', { body });
export const updateEvent = (id: number, body: EventUpdateBody) => call('PUT /v1/events/{id}', { params: { id }, body });
export const deleteEvent = (id: number) => call('DELETE /v1/events/{id}', { params: { id } });

export const listSoa = (query: QueryOf<'GET /v1/users/soa_requests'>, signal?: AbortSignal) =>
  call('GET /v1/users/soa_requests', { query, signal });
export const getSoa = (id: number, signal?: AbortSignal) =>
  call('GET /v1/users/soa_requests/{id}', { params: { id }, signal });
export const sendSoa = (body: SoaRequestBody) => call('POST /v1/users/soa_requests', { body });
export const completeSoa = (id: number) => call('PATCH /v1/users/soa_requests/{id}/complete', { params: { id } });
export const rejectSoa = (id: number, reason?: string) =>
  call('PATCH /v1/users/soa_requests/{id}/reject', { params: { id }, body: { reason } });
export const setMedicareRegistered = (body: { medicare_registered: boolean; npn?: string | null }) =>
  call('PATCH /v1/users/medicare_registered', { body });

export const viewPublicSoa = (domain_name: string, token: string, signal?: AbortSignal) =>
  call('GET /v1/soa_requests/view', { query: { domain_name, token }, signal });
export const submitPublicSoa = (body: SoaSubmitBody) => call('POST /v1/soa_requests/submit', { body });
