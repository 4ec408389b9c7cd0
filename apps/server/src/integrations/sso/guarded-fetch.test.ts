/**
 * Issue 15: the SSO issuer check must not reach private, loopback or link-local addresses outside development, must
 * connect to the address it checked (DNS rebinding), and must answer one error whatever happened. Every target here
 * is either refused before any connection or on loopback.
 */
import dns from 'node:dns/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { guardedFetch, isPrivateAddress, UnreachableProvider } from './guarded-fetch.js';

let server: http.Server;
let openPort: number;
let hits = 0;
let stage: TestApp;
beforeAll(async () => {
  // A loopback server that answers anything: an "open port" an attacker would like to find.
  server = http.createServer((_req, res) => {
    hits++;
    res.end('{"issuer":"nope"}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  openPort = (server.address() as AddressInfo).port;
  stage = await createTestApp({ env: { HARBOR_ENV: 'stage' } });
});
afterAll(async () => {
  await stage.close();
  await new Promise((r) => server.close(r));
});

describe('isPrivateAddress', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast, reserved and mapped addresses', () => {
    for (const a of [
      '127.0.0.1',
      '127.8.9.10',
      '10.0.0.5',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fe80::1',
      'fc00::1',
      'fd12:3456::1',
      '::ffff:127.0.0.1',
      '::ffff:169.254.169.254',
      'not-an-address',
    ]) {
      expect(isPrivateAddress(a), a).toBe(true);
    }
    for (const a of ['8.8.8.8', '172.32.0.1', '93.184.216.34', '2606:4700::1111'])
      expect(isPrivateAddress(a), a).toBe(false);
  });
});

describe('guardedFetch', () => {
  it('refuses a loopback or private target outside development before connecting', async () => {
    const before = hits;
    const fetch = guardedFetch(false);
    for (const url of [
      `http://127.0.0.1:${openPort}/.well-known/openid-configuration`,
      `http://localhost:${openPort}/`,
      'https://169.254.169.254/latest/meta-data/',
      'https://10.0.0.5/',
      'https://[::1]/',
      `http://[::ffff:127.0.0.1]:${openPort}/`,
    ]) {
      await expect(fetch(url), url).rejects.toBeInstanceOf(UnreachableProvider);
    }
    expect(hits).toBe(before);
  });

  it('connects to the address it checked, not to a second answer of the name server', async () => {
    // The name resolves (once, for the check) to loopback; the socket must use that very address, without asking
    // DNS again (a second lookup of this made-up name would fail).
    const spy = vi.spyOn(dns, 'lookup').mockResolvedValue([{ address: '127.0.0.1', family: 4 }] as never);
    try {
      const res = await guardedFetch(true)(`http://rebind.invalid:${openPort}/x`);
      expect(res.status).toBe(200);
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    // And a name whose answers include one private address is refused as a whole.
    const mixed = vi.spyOn(dns, 'lookup').mockResolvedValue([
      { address: '93.184.216.34', family: 4 },
      { address: '127.0.0.1', family: 4 },
    ] as never);
    try {
      await expect(guardedFetch(false)(`http://mixed.invalid:${openPort}/`)).rejects.toBeInstanceOf(
        UnreachableProvider,
      );
    } finally {
      mixed.mockRestore();
    }
  });
});

describe('POST /v1/admin/sso_connection/check outside development', () => {
  it('answers one and the same error for an open port, a closed port, a private and a metadata address', async () => {
    const admin = await signIn(stage.app, DEMO('admin'));
    const before = hits;
    const answers = new Set<string>();
    for (const issuer of [
      `http://127.0.0.1:${openPort}`,
      'http://127.0.0.1:9',
      'https://localhost:1',
      'https://10.0.0.5',
      'https://169.254.169.254',
      'https://[::1]:8443',
      'https://not a url',
    ]) {
      const put = await admin.put('/v1/admin/sso_connection', { issuer, client_id: 'x', client_secret: 'y' });
      if (put.status !== 200) continue; // an issuer the schema refuses never reaches the network either
      const check = await admin.post('/v1/admin/sso_connection/check', {});
      expect(check.status, issuer).toBe(200);
      expect(check.body.ok, issuer).toBe(false);
      answers.add(check.body.message);
    }
    expect([...answers]).toEqual([
      'The provider did not answer: The identity provider could not be reached. Check the issuer URL.',
    ]);
    expect(hits).toBe(before);
  });
});
