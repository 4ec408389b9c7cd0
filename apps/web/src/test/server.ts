/**
 * The web tests' fake server: `fakeServer` stubs `fetch` with routes keyed "METHOD /path". A request no route answers
 * fails the test (test/setup.ts checks after each test), and so does any request made before a test installs one: a
 * page that calls an endpoint its test did not expect is a finding, not noise.
 */
import { vi } from 'vitest';

export interface FakeRequest {
  /** "METHOD /path", without the query string. */
  key: string;
  url: URL;
  init: RequestInit;
  /** The JSON body parsed; a FormData or other body as sent. */
  body: unknown;
}
export type FakeAnswer = (request: FakeRequest) => Response | undefined | Promise<Response | undefined>;

const unexpected: string[] = [];

/** The requests no route answered since the last call (test/setup.ts fails the test on any). */
export function takeUnexpectedRequests(): string[] {
  return unexpected.splice(0);
}

function unknownRequest(key: string): never {
  unexpected.push(key);
  // The page sees a network failure, as it would from a server that has no such route.
  throw new TypeError(`Unexpected request ${key}: the test's fake server has no route for it`);
}

function parseBody(body: RequestInit['body']): unknown {
  if (typeof body !== 'string') return body ?? undefined;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

/** Answers every request with `answer`, on a later tick, honoring aborts as the real fetch does. */
export function fakeServer(answer: FakeAnswer): FakeRequest[] {
  const seen: FakeRequest[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string | URL | Request, init: RequestInit = {}) => {
      const url = new URL(String(input instanceof Request ? input.url : input), window.location.origin);
      const key = `${init.method ?? 'GET'} ${url.pathname}`;
      const request = { key, url, init, body: parseBody(init.body) };
      seen.push(request);
      await new Promise((r) => setTimeout(r, 0));
      if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      const reply = await answer(request);
      return reply ?? unknownRequest(key);
    }),
  );
  return seen;
}

/** A route table for `fakeServer`: each route answers its request, or undefined to count it as unknown. */
export function routes(table: Record<string, FakeAnswer>): FakeAnswer {
  return (request) => table[request.key]?.(request);
}

/** The fetch every test starts with: no server, so any request is unexpected. */
export async function noServer(input: string | URL | Request, init: RequestInit = {}): Promise<Response> {
  const url = new URL(String(input instanceof Request ? input.url : input), window.location.origin);
  return unknownRequest(`${init.method ?? 'GET'} ${url.pathname}`);
}

export const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
