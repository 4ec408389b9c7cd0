import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { storageKey } from '../auth/storage';
import { ApiError, api, beginNavigation, configureClient, isAbortError } from './client';
import { fetchMe } from './endpoints';

type Call = { url: string; init: RequestInit };

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

/** A fetch that answers from a queue and remembers what it was asked; aborts reject like the real one. */
function stubFetch(answer: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = [];
  const fn = vi.fn((url: string, init: RequestInit = {}) => {
    const call = { url: String(url), init };
    calls.push(call);
    return new Promise<Response>((resolve, reject) => {
      const signal = init.signal;
      if (signal?.aborted) return reject(new DOMException('Aborted', 'AbortError'));
      signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
      Promise.resolve(answer(call)).then(resolve, reject);
    });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** The server sets csrf_token; tests play the server, so they write the cookie directly. */
function setCookie(pair: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the test stands in for the server's Set-Cookie.
  document.cookie = pair;
}

function clearCookies() {
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim();
    if (name) setCookie(`${name}=; max-age=0`);
  }
}

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected the request to fail');
}

const headersOf = (call: Call) => (call.init.headers ?? {}) as Record<string, string>;

let navigate: ReturnType<typeof vi.fn<(to: string) => void>>;
let onUnauthorized: ReturnType<typeof vi.fn<() => void>>;

beforeEach(() => {
  clearCookies();
  sessionStorage.clear();
  navigate = vi.fn<(to: string) => void>();
  onUnauthorized = vi.fn<() => void>();
  configureClient({ navigate, onUnauthorized });
  window.history.replaceState(null, '', '/');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('request basics', () => {
  it('sends JSON with credentials and parses JSON', async () => {
    const calls = stubFetch(() => json(200, { ok: 1 }));
    await expect(api.get('/v1/things', { query: { page: 2, q: undefined } })).resolves.toEqual({ ok: 1 });
    expect(calls[0].url).toBe('/v1/things?page=2');
    expect(calls[0].init.credentials).toBe('include');
    expect(headersOf(calls[0])['X-CSRF-Token']).toBeUndefined();
  });

  it('returns undefined for 204 without reading a body', async () => {
    stubFetch(() => new Response(null, { status: 204 }));
    const textSpy = vi.spyOn(Response.prototype, 'text');
    setCookie('csrf_token=abc');
    await expect(api.delete('/v1/sessions')).resolves.toBeUndefined();
    expect(textSpy).not.toHaveBeenCalled();
  });
});

describe('CSRF', () => {
  it('sends X-CSRF-Token from the cookie on writes', async () => {
    setCookie('csrf_token=tok%2B1');
    const calls = stubFetch(() => json(200, {}));
    await api.post('/v1/things', { a: 1 });
    expect(headersOf(calls[0])['X-CSRF-Token']).toBe('tok+1');
    expect(headersOf(calls[0])['Content-Type']).toBe('application/json');
    expect(calls[0].init.body).toBe('{"a":1}');
  });

  it('asks /v1/health for the cookie first when it is missing', async () => {
    const calls = stubFetch((call) => {
      if (call.url === '/v1/health') {
        setCookie('csrf_token=fresh');
        return json(200, { status: 'ok', version: '0.1.0' });
      }
      return json(200, {});
    });
    await api.patch('/v1/users/update_theme', { font_size: 'large' });
    expect(calls.map((c) => c.url)).toEqual(['/v1/health', '/v1/users/update_theme']);
    expect(headersOf(calls[1])['X-CSRF-Token']).toBe('fresh');
  });
});

describe('errors', () => {
  it('throws ApiError with status, parsed body and response', async () => {
    stubFetch(() => json(422, { errors: { password: ['is too short'] } }));
    setCookie('csrf_token=x');
    const error = await errorOf(api.post('/v1/x', {}));
    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(422);
    expect(error.body).toEqual({ errors: { password: ['is too short'] } });
    expect(error.response).toBeInstanceOf(Response);
    expect(error.message).toBe('is too short');
  });

  it("turns 403 into errors.user ['Access denied!']", async () => {
    stubFetch(() => json(403, { errors: { base: ['nope'] } }));
    const error = await errorOf(api.get('/v1/admin'));
    expect(error.status).toBe(403);
    expect(error.errors.user).toEqual(['Access denied!']);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('on 401 clears the session, remembers a /contacts path and goes to /login', async () => {
    window.history.replaceState(null, '', '/contacts/42?tab=notes');
    stubFetch(() => json(401, { errors: { user: ['You need to sign in'] } }));
    await expect(api.get('/v1/contacts/42')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(sessionStorage.getItem(storageKey('post_login_target'))).toBe('/contacts/42?tab=notes');
  });

  it('on 401 elsewhere does not remember the path', async () => {
    window.history.replaceState(null, '', '/account/profile');
    stubFetch(() => json(401, { errors: { user: ['You need to sign in'] } }));
    await expect(api.get('/v1/anything')).rejects.toBeInstanceOf(ApiError);
    expect(navigate).toHaveBeenCalledWith('/login');
    expect(sessionStorage.getItem(storageKey('post_login_target'))).toBeNull();
  });

  it('ignores a 401 for a request sent under a session the browser has since left', async () => {
    setCookie('csrf_token=impersonation');
    // The page's query is answered after the return from the impersonation set the admin's session (and its token).
    stubFetch(() => {
      setCookie('csrf_token=admin-again');
      return json(401, { errors: { user: ['You need to sign in'] } });
    });
    await expect(api.get('/v1/contacts')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).not.toHaveBeenCalled();
    expect(navigate).not.toHaveBeenCalled();
    // Under the session it still holds, a 401 signs out as before.
    stubFetch(() => json(401, { errors: { user: ['You need to sign in'] } }));
    await expect(api.get('/v1/contacts')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('does not redirect on a 401 from POST /v1/sessions or the me bootstrap', async () => {
    setCookie('csrf_token=x');
    stubFetch(() => json(401, { errors: { user: ['Invalid email or password'] } }));
    const error = await errorOf(api.post('/v1/sessions', { email: 'a', password: 'b' }));
    expect(error.errors.user).toEqual(['Invalid email or password']);
    await expect(fetchMe()).resolves.toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(onUnauthorized).not.toHaveBeenCalled();
  });
});

describe('abort on navigation', () => {
  it('aborts requests of the previous page, but not me or info', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const release: (() => void)[] = [];
    stubFetch(
      () =>
        new Promise<Response>((resolve) => {
          release.push(() => resolve(json(200, { done: true })));
        }),
    );
    beginNavigation('page-1');
    const list = api.get('/v1/contacts').catch((e: ApiError) => e);
    const me = api.get('/v1/users/me');
    const accountInfo = api.get('/v1/accounts/info');

    beginNavigation('page-2');
    const aborted = await list;
    expect(isAbortError(aborted)).toBe(true);
    expect(info).toHaveBeenCalledWith('Request aborted: GET /v1/contacts');

    for (const r of release) r();
    await expect(me).resolves.toEqual({ done: true });
    await expect(accountInfo).resolves.toEqual({ done: true });
  });

  it('leaves requests of the current page alone', async () => {
    stubFetch(() => json(200, { ok: true }));
    beginNavigation('page-3');
    const pending = api.get('/v1/contacts');
    beginNavigation('page-3');
    await expect(pending).resolves.toEqual({ ok: true });
  });
});
