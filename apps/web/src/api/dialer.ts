import { call } from './call';

export const dialerApi = {
  token: () => call('GET /v1/dialer/fetch_device_token'),
  start: (to: string, contactNumber?: number) =>
    call('POST /v1/dialer/calls', { body: contactNumber ? { to, contact_number: contactNumber } : { to } }),
  history: () => call('POST /v1/dialer/fetch_historical_calls', { body: {} }),
  active: () => call('POST /v1/dialer/fetch_active_calls', { body: {} }),
  logs: (filter: Record<string, unknown>) => call('POST /v1/dialer/fetch_call_logs', { body: filter }),
  recording: (callId: number, on: boolean) =>
    call(on ? 'POST /v1/dialer/device_resume_call_recording' : 'POST /v1/dialer/device_stop_call_recording', {
      body: { call_id: callId },
    }),
  disclaimer: (callId: number) => call('POST /v1/dialer/device_start_disclaimer_prompt', { body: { call_id: callId } }),
  callFiles: (contactNumber: number, signal?: AbortSignal) =>
    call('GET /v1/contacts/{id}/call_files', { params: { id: contactNumber }, signal }),
};
