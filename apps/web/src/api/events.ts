/** Typed helpers for the events area (calendar, today queue, history) and SOA requests. Shapes from @harbor/shared. */
import type {
  CalendarEvent,
  CalendarHistoryList,
  EventBody,
  EventList,
  EventUpdateBody,
  MedicareRegistration,
  SoaPublicView,
  SoaRequest,
  SoaRequestBody,
  SoaRequestList,
  SoaSubmitBody,
} from '@harbor/shared';
import { api } from './client';

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
  api.get<EventList>('/v1/events', { query: { ...query }, signal });
export const contactEvents = (contactId: number, signal?: AbortSignal) =>
  api.get<{ data: CalendarEvent[] }>('/v1/events/contact_events', { query: { contact_id: contactId }, signal });
export const calendarHistory = (
  query: { downline_user_id?: number | null; page?: number; limit?: number },
  signal?: AbortSignal,
) => api.get<CalendarHistoryList>('/v1/events/calendar_history', { query, signal });
export const createEvent = (body: EventBody) => api.post<CalendarEvent>('/v1/events', body);
export const updateEvent = (id: number, body: EventUpdateBody) => api.put<CalendarEvent>(`/v1/events/${id}`, body);
export const deleteEvent = (id: number) => api.delete<undefined>(`/v1/events/${id}`);

export const listSoa = (query: { status?: string; page?: number; limit?: number }, signal?: AbortSignal) =>
  api.get<SoaRequestList>('/v1/users/soa_requests', { query, signal });
export const getSoa = (id: number, signal?: AbortSignal) =>
  api.get<SoaRequest>(`/v1/users/soa_requests/${id}`, { signal });
export const sendSoa = (body: SoaRequestBody) => api.post<SoaRequest>('/v1/users/soa_requests', body);
export const completeSoa = (id: number) => api.patch<SoaRequest>(`/v1/users/soa_requests/${id}/complete`);
export const rejectSoa = (id: number, reason?: string) =>
  api.patch<SoaRequest>(`/v1/users/soa_requests/${id}/reject`, { reason });
export const setMedicareRegistered = (body: { medicare_registered: boolean; npn?: string | null }) =>
  api.patch<MedicareRegistration>('/v1/users/medicare_registered', body);

export const viewPublicSoa = (domain_name: string, token: string, signal?: AbortSignal) =>
  api.get<SoaPublicView>('/v1/soa_requests/view', { query: { domain_name, token }, signal });
export const submitPublicSoa = (body: SoaSubmitBody) =>
  api.post<{ status: 'signed'; signed_at: string }>('/v1/soa_requests/submit', body);
