/** The dialer routes (shapes from @harbor/shared; server: modules/dialer). */
import type { CallFiles, CallItem, CallLogs, DeviceToken, StartCallReply } from '@harbor/shared';
import { api } from './client';

export const dialerApi = {
  token: () => api.get<DeviceToken>('/v1/dialer/fetch_device_token'),
  start: (to: string, contactNumber?: number) =>
    api.post<StartCallReply>('/v1/dialer/calls', contactNumber ? { to, contact_number: contactNumber } : { to }),
  history: () => api.post<{ call_history: CallItem[] }>('/v1/dialer/fetch_historical_calls', {}),
  active: () => api.post<{ call_list: CallItem[] }>('/v1/dialer/fetch_active_calls', {}),
  logs: (filter: Record<string, unknown>) => api.post<CallLogs>('/v1/dialer/fetch_call_logs', filter),
  recording: (callId: number, on: boolean) =>
    api.post<{ call: CallItem }>(`/v1/dialer/${on ? 'device_resume_call_recording' : 'device_stop_call_recording'}`, {
      call_id: callId,
    }),
  disclaimer: (callId: number) =>
    api.post<{ call: CallItem }>('/v1/dialer/device_start_disclaimer_prompt', { call_id: callId }),
  callFiles: (contactNumber: number, signal?: AbortSignal) =>
    api.get<CallFiles>(`/v1/contacts/${contactNumber}/call_files`, { signal }),
};
