/** Security headers on every kind of response, HSTS behind https, and source maps private outside development. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, type TestApp } from './harness.js';

/** A stand-in for the built web app: a shell page, a bundle and its source map. */
const dist = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-web-'));
fs.mkdirSync(path.join(dist, 'assets'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
);
fs.writeFileSync(path.join(dist, 'assets/app.js'), 'console.log(1)');
fs.writeFileSync(path.join(dist, 'assets/app.js.map'), '{"version":3,"sources":["secret/src/App.tsx"]}');

let dev: TestApp;
let prod: TestApp;
beforeAll(async () => {
  dev = await createTestApp({ env: { WEB_DIST: dist } });
  prod = await createTestApp({
    env: {
      WEB_DIST: dist,
      HARBOR_ENV: 'production',
      SECRET_KEY: 'x'.repeat(40),
      APP_URL: 'https://crm.example.com',
      LOG_LEVEL: 'silent',
    },
  });
});
afterAll(async () => {
  await dev.close();
  await prod.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

function expectHeaders(headers: Record<string, unknown>, what: string) {
  const csp = String(headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("script-src 'self'");
  expect(csp, what).not.toMatch(/script-src[^;]*'unsafe-inline'/);
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain("object-src 'none'");
  expect(headers['x-frame-options'], what).toBe('DENY');
  expect(headers['x-content-type-options'], what).toBe('nosniff');
  expect(headers['referrer-policy'], what).toBe('no-referrer');
}

describe('security headers', () => {
  it('are on the web app, the API, the docs, a 404, an error and a redirect-free client route', async () => {
    const c = new Client(dev.app);
    const cases: Array<[string, number]> = [
      ['/', 200],
      ['/contacts/100123', 200],
      ['/assets/app.js', 200],
      ['/v1/health', 200],
      ['/v1/users/me', 401],
      ['/v1/no/such/route', 404],
      ['/v1/docs/', 200],
      ['/v1/openapi.json', 200],
    ];
    for (const [url, status] of cases) {
      const res = await c.get(url);
      expect(res.status, url).toBe(status);
      expectHeaders(res.headers, url);
      // Plain http on a development machine: no HSTS (a browser would pin https onto localhost).
      expect(res.headers['strict-transport-security'], url).toBeUndefined();
    }
    const bad = await c.post('/v1/sessions', { nonsense: true });
    expect(bad.status).toBe(422);
    expectHeaders(bad.headers, 'a 422');
  });

  it('the Swagger UI loads only scripts from files, so the policy lets it run', async () => {
    const res = await new Client(dev.app).get('/v1/docs/');
    const html = String(res.body);
    const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/\ssrc=/);
      expect(body.trim()).toBe('');
    }
    expect(html).not.toMatch(/\son[a-z]+=/i); // no inline event handlers either
  });

  it('adds HSTS when the app is served over https, and no source map is public in production', async () => {
    const c = new Client(prod.app);
    const page = await c.get('/');
    expectHeaders(page.headers, 'production /');
    expect(page.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    expect(page.headers['content-security-policy']).toContain('upgrade-insecure-requests');
    expect((await c.get('/assets/app.js')).status).toBe(200);
    const map = await c.get('/assets/app.js.map');
    expect(map.status).toBe(404);
    expect(JSON.stringify(map.body)).not.toContain('secret/src');
    // A developer still reads them on their own machine.
    expect((await new Client(dev.app).get('/assets/app.js.map')).status).toBe(200);
  });
});
