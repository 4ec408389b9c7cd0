/**
 * Every API call of the web app goes through the typed client (`call`, api/call.ts), so it is typed from the shared
 * contract the server validates with. Raw calls (`api.get(...)`, `request(...)`, `fetch('/v1...')`) are refused
 * except for downloads, which read bytes rather than JSON (docs/decisions/typed-contract.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '..');

/** Files allowed to `fetch` a download themselves (the client reads JSON), and why. */
const DOWNLOADS: Record<string, string> = {
  'api/contacts-list.ts': 'the contacts export is a file (PATCH /v1/export.{format} answers bytes)',
  'api/imports.ts': 'the invalid rows of an import preview download as CSV',
};

const CLIENT = [/\bapi\s*\.\s*(get|post|put|patch|delete)\s*[<(]/g, /\brequest\s*(<[^>]*>)?\(\s*['"`]/g];
const FETCH = /\bfetch\s*\(\s*[`'"][^`'"]*\/v1/g;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const full = path.join(dir, d.name);
    if (d.isDirectory()) return d.name === 'test' ? [] : sources(full);
    return /\.tsx?$/.test(d.name) && !/\.test\.tsx?$/.test(d.name) ? [full] : [];
  });
}

function rawCalls(text: string, downloads = false): number {
  const client = CLIENT.reduce((n, re) => n + (text.match(re)?.length ?? 0), 0);
  return client + (downloads ? 0 : (text.match(FETCH)?.length ?? 0));
}

describe('API calls', () => {
  it('go through the typed client', () => {
    const found: Record<string, number> = {};
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      // The client itself and the typed layer on top of it.
      if (rel === 'api/client.ts' || rel === 'api/call.ts') continue;
      const n = rawCalls(fs.readFileSync(file, 'utf8'), rel in DOWNLOADS);
      if (n) found[rel] = n;
    }
    const over = Object.entries(found).map(([rel, n]) => `${rel}: ${n} raw call(s)`);
    expect(over).toEqual([]);
  });

  it('take their query keys from the contract', () => {
    // A hand-written key (['wallet', ...]) matches no query since every key is `qk(...)`: an invalidation with one
    // silently does nothing (a receipt page once left the wallet showing its old balance that way).
    const found: string[] = [];
    for (const file of sources(SRC)) {
      const rel = path.relative(SRC, file).split(path.sep).join('/');
      if (/\bqueryKey\s*:\s*\[/.test(fs.readFileSync(file, 'utf8'))) found.push(rel);
    }
    expect(found).toEqual([]);
  });

  it('counts a raw call however it is written', () => {
    expect(rawCalls("api.get<Me>('/v1/users/me'); api.post('/v1/x', {}); fetch(`/v1/export.csv`)")).toBe(3);
    expect(rawCalls("api\n      .post<{ user: CurrentUser }>('/v1/sessions/sso', params)")).toBe(1);
    expect(rawCalls("call('GET /v1/users/me'); fetch(url); a stop request")).toBe(0);
    expect(rawCalls("fetch('/v1/contacts/validate_import', {})", true)).toBe(0);
  });
});
