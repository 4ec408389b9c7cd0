import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ME_KEY } from '../auth/userCache';
import { call } from './call';
import { qk, qkUnder } from './queries';

afterEach(() => vi.unstubAllGlobals());

describe('call', () => {
  it('builds the path and query from the contract key and sends the body', async () => {
    const seen: Array<{ url: string; method?: string; body?: unknown }> = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init: RequestInit = {}) => {
        seen.push({ url: String(url), method: init.method, body: init.body });
        return new Response(JSON.stringify({ ok: true }), { headers: { 'Content-Type': 'application/json' } });
      }),
    );
    await call('GET /v1/contacts/{id}/email_logs', { params: { id: 'a b' }, query: { limit: 5 } });
    await call('PATCH /v1/contacts/{id}/notes/{noteId}', { params: { id: 12, noteId: 3 }, body: { body: 'hi' } });
    expect(seen[0]).toMatchObject({ url: '/v1/contacts/a%20b/email_logs?limit=5', method: 'GET' });
    expect(seen.at(-1)).toMatchObject({ url: '/v1/contacts/12/notes/3', method: 'PATCH', body: '{"body":"hi"}' });
  });
});

describe('query keys', () => {
  it('are the contract key, then the inputs with parameters as text and empty fields left out', () => {
    expect(qk('GET /v1/wallets')).toEqual(['GET /v1/wallets']);
    expect(qk('GET /v1/users/me')).toEqual(ME_KEY);
    expect(qk('GET /v1/contacts/{id}', { params: { id: 42 }, query: { not_remove_new_tag: undefined } })).toEqual([
      'GET /v1/contacts/{id}',
      { params: { id: '42' } },
    ]);
  });

  it('invalidate by prefix: a key with fewer inputs, or every route under a path', async () => {
    const qc = new QueryClient();
    const put = (key: readonly unknown[]) => qc.setQueryData(key, 1);
    put(qk('GET /v1/contacts/{id}', { params: { id: 7 } }));
    put(qk('GET /v1/contacts/{id}/notes', { params: { id: 7 } }));
    put(qk('POST /v1/contacts/{id}/email_history', { params: { id: 7 }, body: { page: 1 } }));
    put(qk('GET /v1/contacts/{id}/notes', { params: { id: 8 } }));
    put(qk('GET /v1/events', { query: { start_date: '01/01/2026', end_date: '01/31/2026' } }));
    const stale = () =>
      qc
        .getQueryCache()
        .getAll()
        .filter((q) => q.state.isInvalidated)
        .map((q) => q.queryKey);

    await qc.invalidateQueries({ queryKey: qk('GET /v1/events') });
    expect(stale()).toEqual([qk('GET /v1/events', { query: { start_date: '01/01/2026', end_date: '01/31/2026' } })]);

    await qc.invalidateQueries(qkUnder('/v1/contacts/{id}', { params: { id: '7' } }));
    expect(stale()).toHaveLength(4);
    expect(stale()).not.toContainEqual(qk('GET /v1/contacts/{id}/notes', { params: { id: 8 } }));
  });
});
