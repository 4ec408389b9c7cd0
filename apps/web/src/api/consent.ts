/** The consent record of a contact (shapes from @harbor/shared; server: modules/consent). */
import type { ConsentChangeBody, ConsentRecord, PtcBody } from '@harbor/shared';
import { api } from './client';

type Input<T> = T extends { source: infer S } ? Omit<T, 'source'> & { source?: S } : T;
const c = (n: number | string) => `/v1/contacts/${n}`;

export const consentApi = {
  record: (n: number, signal?: AbortSignal) => api.get<ConsentRecord>(`${c(n)}/consent`, { signal }),
  change: (n: number, body: Input<ConsentChangeBody>) => api.post<ConsentRecord>(`${c(n)}/consent`, body),
  grantPtc: (n: number, body: Input<PtcBody>) => api.post<ConsentRecord>(`${c(n)}/permission_to_contact`, body),
  revokePtc: (n: number) => api.delete<ConsentRecord>(`${c(n)}/permission_to_contact`),
};
