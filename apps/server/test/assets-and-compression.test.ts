/**
 * Assets small and cached (docs/decisions/assets-caching-and-compression.md): hashed files precompressed and
 * cached for good, the shell page revalidated every time, JSON over a kilobyte compressed on the fly, and
 * compressed request bodies never inflated.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './harness.js';

let t: TestApp;
let dist: string;
const script = `console.log(${JSON.stringify('harbor '.repeat(400))});\n`;

beforeAll(async () => {
  // A build output of our own: the real one may be absent or stale when the tests run.
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.writeFileSync(path.join(dist, 'index.html'), `<!doctype html><title>Harbor</title>${'<!-- pad -->'.repeat(100)}`);
  fs.writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  const js = path.join(dist, 'assets/index-AbC123xy.js');
  fs.writeFileSync(js, script);
  fs.writeFileSync(`${js}.br`, zlib.brotliCompressSync(script));
  fs.writeFileSync(`${js}.gz`, zlib.gzipSync(script));
  t = await createTestApp({ configure: (c) => ({ ...c, webDist: dist }) });
});
afterAll(async () => {
  await t.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, encoding?: string) =>
  t.app.inject({ method: 'GET', url, headers: encoding ? { 'accept-encoding': encoding } : {} });

describe('built assets', () => {
  it('serve the brotli or gzip file the build wrote, cached for a year, or the plain file', async () => {
    const br = await get('/assets/index-AbC123xy.js', 'gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(br.headers.vary)).toMatch(/accept-encoding/i);

    const gz = await get('/assets/index-AbC123xy.js', 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

    const plain = await get('/assets/index-AbC123xy.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(plain.headers['content-type']).toMatch(/javascript/);
  });

  it('revalidate the shell page on every load, by its name and as the fallback of client-side routes', async () => {
    expect((await get('/index.html')).headers['cache-control']).toBe('no-cache');
    const route = await get('/contacts/42');
    expect(route.statusCode).toBe(200);
    expect(route.headers['cache-control']).toBe('no-cache');
    expect(route.body).toContain('<title>Harbor</title>');
    expect((await get('/favicon.svg')).headers['cache-control']).toBe('public, max-age=3600');
  });
});

describe('API responses', () => {
  it('compress JSON over a kilobyte for clients that accept it, and leave small ones alone', async () => {
    const doc = await get('/v1/openapi.json', 'gzip, deflate, br');
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(doc.rawPayload).toString()).openapi).toMatch(/^3\./);
    expect((await get('/v1/openapi.json', 'gzip')).headers['content-encoding']).toBe('gzip');
    expect((await get('/v1/openapi.json')).headers['content-encoding']).toBeUndefined();
    expect((await get('/v1/health', 'br')).headers['content-encoding']).toBeUndefined();
  });

  it('never inflate a compressed request body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/sessions',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      payload: zlib.gzipSync(JSON.stringify({ email: 'a@b.test', password: 'x'.repeat(12) })),
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
