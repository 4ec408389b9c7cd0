/**
 * The typed way to call the API: `call('GET /v1/contacts/{id}', { params: { id } })` resolves to the reply of that
 * route as the shared contract types it, with the inputs checked against the same zod objects the server validates
 * with. Only types come from the contract, so no schema reaches the bundle. The query keys built from the same
 * contract keys are in api/queries.ts (apart, so the sign-in page downloads only this).
 */
import type { BodyOf, ContractKey, InputOf, QueryOf, Reply } from '@harbor/shared/contract';
import { callRoute } from './client';

export type { BodyOf, ContractKey, InputOf, QueryOf, Reply };

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra request headers (an Idempotency-Key on money writes). */
  headers?: Record<string, string>;
}

/** Inputs are optional when the route needs none (no path parameter, no required query or body). */
export type CallArgs<K extends ContractKey> =
  Record<string, never> extends InputOf<K> ? [input?: InputOf<K> & CallOptions] : [input: InputOf<K> & CallOptions];

/**
 * Calls the route `key` names. The work is `callRoute` in client.ts (so the sign-in page, which has the client
 * already, downloads no chunk more); this is its typed face.
 */
export const call = callRoute as <K extends ContractKey>(key: K, ...args: CallArgs<K>) => Promise<Reply<K>>;
