/**
 * Limits where they make sense (docs/decisions/rate-limits.md): health never; public routes and anonymous callers
 * per address; signed-in people per person, so a whole office behind one address is not one caller; API keys per
 * key; each refusal a 429 with Retry-After.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, signIn, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ limits: { public: 5, user: 10, api_key: 3 } });
});
afterAll(() => t.close());

async function statuses(n: number, call: () => Promise<{ status: number }>) {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((await call()).status);
  return out;
}

describe('rate limits', () => {
  it('never limit health', async () => {
    const c = new Client(t.app);
    expect(new Set(await statuses(30, () => c.get('/v1/health')))).toEqual(new Set([200]));
  });

  it('count signed-in people apart even behind one address, each up to their own ceiling', async () => {
    const first = await signIn(t.app, DEMO('agent'));
    const second = await signIn(t.app, DEMO('manager'));
    // 16 requests from one address, more than the per-address limit of public traffic: none refused.
    expect(await statuses(8, () => first.get('/v1/users/me'))).not.toContain(429);
    expect(await statuses(8, () => second.get('/v1/users/me'))).not.toContain(429);
    expect(await statuses(2, () => first.get('/v1/users/me'))).toEqual([200, 200]);
    const over = await first.get('/v1/users/me');
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toEqual({ errors: { user: ['Too many requests. Please wait and try again.'] } });
    expect((await second.get('/v1/users/me')).status).toBe(200);
  });

  it('count public routes and callers without a session per address', async () => {
    const anonymous = (address: string, url: string) =>
      t.app.inject({ method: 'GET', url, remoteAddress: address }).then((r) => ({ status: r.statusCode }));
    expect(await statuses(7, () => anonymous('198.51.100.7', '/v1/users/me'))).toEqual([
      401, 401, 401, 401, 401, 429, 429,
    ]);
    expect((await anonymous('198.51.100.8', '/v1/users/me')).status).toBe(401);
    expect(await statuses(6, () => anonymous('198.51.100.9', '/v1/openapi.json'))).toEqual([
      200, 200, 200, 200, 200, 429,
    ]);
  });

  it('count each API key apart', async () => {
    const owner = await signIn(t.app, DEMO('telemarketer'));
    const token = (await owner.post('/v1/users/api_keys', { name: 'Script' })).body.token;
    const key = () =>
      t.app
        .inject({ method: 'GET', url: '/v1/users/me', headers: { authorization: `Bearer ${token}` } })
        .then((r) => ({ status: r.statusCode }));
    expect(await statuses(4, key)).toEqual([200, 200, 200, 429]);
    // The person's own session is a caller of its own.
    expect((await owner.get('/v1/users/me')).status).toBe(200);
  });
});
