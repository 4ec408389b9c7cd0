/**
 * The one way the browser talks to the API (spec §7, §8): cookies included, JSON in and out, the CSRF header on
 * every write, one error type, the 401/403 rules, and aborting what the previous page left in flight.
 */
import { ACCESS_DENIED, type ErrorBody } from '@harbor/shared';
import { rememberPostLoginTarget } from '../auth/storage';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export class ApiError extends Error {
  readonly status: number;
  readonly body: ErrorBody;
  readonly response: Response | null;

  constructor(status: number, body: ErrorBody, response: Response | null) {
    super(firstMessage(body) ?? `Request failed (${status})`);
    this.name = 'ApiError';
    this.status = status;
    this.body = body;
    this.response = response;
  }

  get errors(): ErrorBody['errors'] {
    return this.body.errors;
  }
}

/** Thrown when navigation (or a caller) cancelled the request; never shown to the user. */
export class AbortedRequestError extends Error {
  constructor(method: Method, path: string) {
    super(`Request aborted: ${method} ${path}`);
    this.name = 'AbortError';
  }
}

export function isAbortError(error: unknown): boolean {
  return error instanceof AbortedRequestError || (error instanceof Error && error.name === 'AbortError');
}

/** The message to show for an error: errors.user first, then the first field message. */
export function firstMessage(body: ErrorBody | undefined): string | undefined {
  if (!body) return undefined;
  return body.errors.user?.[0] ?? Object.values(body.errors).find((m) => m.length)?.[0];
}

export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (error instanceof ApiError) return firstMessage(error.body) ?? fallback;
  return fallback;
}

export const NETWORK_ERROR = 'Could not reach the server. Check your connection and try again.';

interface ClientHooks {
  /** Drop the signed-in user from client state after a 401. */
  onUnauthorized: () => void;
  /** Client-side navigation; the router registers itself here. */
  navigate: (to: string) => void;
}

const hooks: ClientHooks = {
  onUnauthorized: () => {},
  navigate: (to) => window.location.assign(to),
};

export function configureClient(next: Partial<ClientHooks>): void {
  Object.assign(hooks, next);
}

const API_BASE: string = import.meta.env.VITE_API_URL ?? '';

// ---- Abort on navigation -------------------------------------------------------------------------------------
// The user and account info back the whole shell, so a page change must never cancel them (spec §4).
const NEVER_ABORTED = new Set(['/v1/users/me', '/v1/accounts/info']);
const inFlight = new Map<string, Set<AbortController>>();
let navigationKey = 'initial';

/** Called by the router on every page change: everything started under another page is aborted. */
export function beginNavigation(key: string): void {
  if (key === navigationKey) return;
  navigationKey = key;
  for (const [owner, controllers] of inFlight) {
    if (owner === key) continue;
    for (const controller of controllers) controller.abort();
    inFlight.delete(owner);
  }
}

function track(path: string): { signal: AbortSignal; release: () => void } | null {
  if (NEVER_ABORTED.has(path)) return null;
  const owner = navigationKey;
  const controller = new AbortController();
  let set = inFlight.get(owner);
  if (!set) {
    set = new Set();
    inFlight.set(owner, set);
  }
  set.add(controller);
  return {
    signal: controller.signal,
    release: () => {
      const current = inFlight.get(owner);
      current?.delete(controller);
      if (current && !current.size) inFlight.delete(owner);
    },
  };
}

function combineSignals(signals: (AbortSignal | undefined)[]): AbortSignal | undefined {
  const present = signals.filter((s): s is AbortSignal => !!s);
  if (present.length <= 1) return present[0];
  const controller = new AbortController();
  for (const s of present) {
    if (s.aborted) controller.abort();
    else s.addEventListener('abort', () => controller.abort(), { once: true });
  }
  return controller.signal;
}

// ---- CSRF ----------------------------------------------------------------------------------------------------
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('=')) || null;
  }
  return null;
}

let csrfBootstrap: Promise<void> | null = null;

/** The health check sets the readable csrf_token cookie; concurrent writes share one such call. */
async function csrfToken(): Promise<string | null> {
  const existing = readCookie('csrf_token');
  if (existing) return existing;
  csrfBootstrap ??= fetch(`${API_BASE}/v1/health`, { credentials: 'include', headers: { Accept: 'application/json' } })
    .then(() => undefined)
    .catch(() => undefined)
    .finally(() => {
      csrfBootstrap = null;
    });
  await csrfBootstrap;
  return readCookie('csrf_token');
}

// ---- Requests ------------------------------------------------------------------------------------------------
export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  signal?: AbortSignal;
  /** Extra request headers (an Idempotency-Key on money writes). */
  headers?: Record<string, string>;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

async function parseBody(response: Response): Promise<unknown> {
  try {
    const text = await response.text();
    return text ? JSON.parse(text) : undefined;
  } catch {
    // An empty or non-JSON body (a proxy's HTML error page) is treated as no body.
    return undefined;
  }
}

function toErrorBody(parsed: unknown, response: Response): ErrorBody {
  const errors = (parsed as ErrorBody | undefined)?.errors;
  if (errors && typeof errors === 'object') return { errors };
  return { errors: { user: [response.statusText || `Request failed (${response.status})`] } };
}

/** 401s that mean "wrong credentials" or "not signed in yet", not "your session ended". */
function isSessionProbe(method: Method, path: string): boolean {
  return (method === 'POST' && path === '/v1/sessions') || (method === 'GET' && path === '/v1/users/me');
}

function handleUnauthorized(): void {
  const here = `${window.location.pathname}${window.location.search}`;
  rememberPostLoginTarget(here);
  hooks.onUnauthorized();
  if (window.location.pathname !== '/login') hooks.navigate('/login');
}

export async function request<T>(method: Method, path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  let body: BodyInit | undefined;
  if (options.body instanceof FormData) body = options.body;
  else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  if (method !== 'GET') {
    const token = await csrfToken();
    if (token) headers['X-CSRF-Token'] = token;
  }

  // The session this request goes out under, as the browser knows it: each session has its own CSRF token cookie.
  const sentUnder = readCookie('csrf_token');
  const tracked = track(path);
  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: combineSignals([tracked?.signal, options.signal]),
    });
  } catch (error) {
    if (isAbortError(error)) {
      console.info(`Request aborted: ${method} ${path}`);
      throw new AbortedRequestError(method, path);
    }
    throw new ApiError(0, { errors: { user: [NETWORK_ERROR] } }, null);
  } finally {
    tracked?.release();
  }

  if (response.status === 204) return undefined as T;
  const parsed = await parseBody(response);
  if (response.ok) return parsed as T;

  const errorBody = toErrorBody(parsed, response);
  // A 401 for a request sent under a session the browser has since left (signed in again, returned from an
  // impersonation) says nothing about the session it holds now: acting on it signed the admin out after a return.
  const sameSession = readCookie('csrf_token') === sentUnder;
  if (response.status === 401 && !isSessionProbe(method, path) && sameSession) handleUnauthorized();
  if (response.status === 403) errorBody.errors = { ...errorBody.errors, user: [ACCESS_DENIED] };
  throw new ApiError(response.status, errorBody, response);
}

/**
 * A call by contract key ("GET /v1/contacts/{id}"), each `{name}` of the path replaced by its parameter; typed by
 * api/call.ts, which is what pages use. Kept here, small: the sign-in page downloads it.
 */
export function callRoute(
  key: string,
  input: RequestOptions & { params?: Record<string, string | number> } = {},
): Promise<never> {
  const [method, path] = key.split(' ');
  const url = path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(input.params?.[name] ?? ''));
  return request(method as Method, url, input);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'body'>) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  patch: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
  delete: <T>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
};
