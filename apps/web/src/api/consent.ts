/** The consent record of a contact (shapes from @harbor/shared; server: modules/consent). */
import type { ConsentChangeBody, PtcBody } from '@harbor/shared';
import { call } from './call';

type Input<T> = T extends { source: infer S } ? Omit<T, 'source'> & { source?: S } : T;

export const consentApi = {
  record: (n: number, signal?: AbortSignal) => call('GET /v1/contacts/{id}/consent', { params: { id: n }, signal }),
  change: (n: number, body: Input<ConsentChangeBody>) =>
    call('POST /v1/contacts/{id}/consent', { params: { id: n }, body }),
  grantPtc: (n: number, body: Input<PtcBody>) =>
    call('POST /v1/contacts/{id}/permission_to_contact', { params: { id: n }, body }),
  revokePtc: (n: number) => call('DELETE /v1/contacts/{id}/permission_to_contact', { params: { id: n } }),
};
