/** Typed helpers for the events area (calendar, today queue, history) and SOA requests. Shapes from @harbor/shared. */
import type { EventBody, EventUpdateBody, SoaRequestBody, SoaSubmitBody } from '@harbor/shared';
import { call } from './call';

export interface RangeQuery {
  /** MM/DD/YYYY, as the spec puts range dates on the wire. */
  start_date: string;
  end_date: string;
  q?: string;
  types_list?: string;
  downline_user_id?: number | null;
  today_events?: boolean;
}

export const createEvent = (body: EventBody) => call('POST /v1/events', { body });
export const updateEvent = (id: number, body: EventUpdateBody) => call('PUT /v1/events/{id}', { params: { id }, body });
export const deleteEvent = (id: number) => call('DELETE /v1/events/{id}', { params: { id } });

export const sendSoa = (body: SoaRequestBody) => call('POST /v1/users/soa_requests', { body });
export const completeSoa = (id: number) => call('PATCH /v1/users/soa_requests/{id}/complete', { params: { id } });
export const rejectSoa = (id: number, reason?: string) =>
  call('PATCH /v1/users/soa_requests/{id}/reject', { params: { id }, body: { reason } });
export const submitPublicSoa = (body: SoaSubmitBody) => call('POST /v1/soa_requests/submit', { body });
