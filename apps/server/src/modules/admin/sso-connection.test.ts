/**
 * /v1/admin/sso_connection: a System Admin sets up the company's OpenID provider, checks it against a real provider
 * on loopback (oidc-provider), changes and removes it. The sign-in flows themselves are in session/sso.test.ts, whose
 * connection is made through this route.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { auditEvents } from '../../platform/audit/schema.js';
import { ssoConnections } from '../session/schema.js';

let t: TestApp;
let op: http.Server;
let issuer: string;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp({ env: { APP_URL: 'https://crm.example.com' } });
  op = http.createServer();
  await new Promise<void>((r) => op.listen(0, '127.0.0.1', r));
  issuer = `http://localhost:${(op.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [{ client_id: 'harbor', client_secret: 'first-secret', redirect_uris: ['https://crm.example.com/cb'] }],
  });
  op.on('request', provider.callback());
  admin = await signIn(t.app, DEMO('admin'));
});
afterAll(async () => {
  await new Promise((r) => op.close(r));
  await t.close();
});

const stored = async () => (await t.database.db.select().from(ssoConnections))[0];

describe('/v1/admin/sso_connection', () => {
  it('shows none yet, with the URIs to register at the provider', async () => {
    const res = await admin.get('/v1/admin/sso_connection');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      connection: null,
      redirect_uri: 'https://crm.example.com/api/auth/callback',
      backchannel_logout_uri: 'https://crm.example.com/sso-logout',
      enabled: false,
    });
    expect((await admin.post('/v1/admin/sso_connection/check', {})).status).toBe(404);
    expect((await admin.delete('/v1/admin/sso_connection')).status).toBe(404);
  });

  it('refuses bad input with a message per field and stores nothing', async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ issuer, client_id: 'harbor' }, 'client_secret', "can't be blank"],
      [{ issuer: 'not a url', client_id: 'harbor', client_secret: 's' }, 'issuer', 'is not a valid URL'],
      [{ issuer: 'http://idp.example.com', client_id: 'harbor', client_secret: 's' }, 'issuer', 'must use https'],
      [{ issuer, client_id: ' ', client_secret: 's' }, 'client_id', "can't be blank"],
      // Mass assignment: another company's id is refused, not ignored.
      [{ issuer, client_id: 'harbor', client_secret: 's', company_id: 2 }, 'body', ''],
    ];
    for (const [body, field, message] of cases) {
      const res = await admin.put('/v1/admin/sso_connection', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors)).toContain(field);
      if (message) expect(res.body.errors[field]).toContain(message);
    }
    expect(await stored()).toBeUndefined();
  });

  it('sets it up with the secret sealed and never shown, audits it without the secret, and checks it', async () => {
    const res = await admin.put('/v1/admin/sso_connection', {
      issuer: ` ${issuer} `,
      client_id: 'harbor',
      client_secret: 'first-secret',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.connection).toMatchObject({ issuer, client_id: 'harbor', has_client_secret: true });
    expect(JSON.stringify(res.body)).not.toContain('first-secret');
    const row = await stored();
    expect(row.clientSecretEnc).not.toContain('first-secret');
    expect(t.deps.secrets.open(row.clientSecretEnc)).toBe('first-secret');
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'sso_connection_changed'));
    expect(event.data).toEqual({ issuer, client_id: 'harbor', secret_changed: true });
    const check = await admin.post('/v1/admin/sso_connection/check', {});
    expect(check.body.ok).toBe(true);
    expect(check.body.message).toContain(`${issuer}/auth`);
  });

  it('keeps the stored secret when a change leaves it out, and reports a provider that does not answer', async () => {
    const before = (await stored()).clientSecretEnc;
    const moved = await admin.put('/v1/admin/sso_connection', {
      issuer: 'http://127.0.0.1:9/nowhere',
      client_id: 'harbor-2',
    });
    expect(moved.status).toBe(200);
    expect((await stored()).clientSecretEnc).toBe(before);
    const check = await admin.post('/v1/admin/sso_connection/check', {});
    expect(check.body).toMatchObject({ ok: false });
    expect(check.body.message).toMatch(/did not answer/);
    await admin.put('/v1/admin/sso_connection', { issuer, client_id: 'harbor', client_secret: 'second-secret' });
    expect(t.deps.secrets.open((await stored()).clientSecretEnc)).toBe('second-secret');
  });

  it('is the System Admin’s alone, and each company sees only its own', async () => {
    expect((await new Client(t.app).get('/v1/admin/sso_connection')).status).toBe(401);
    for (const role of ['sub_admin', 'bu_admin', 'manager', 'agent']) {
      const c = await signIn(t.app, DEMO(role));
      expect((await c.get('/v1/admin/sso_connection')).status, role).toBe(403);
      expect((await c.put('/v1/admin/sso_connection', { issuer, client_id: 'x', client_secret: 'y' })).status).toBe(
        403,
      );
      expect((await c.delete('/v1/admin/sso_connection')).status).toBe(403);
    }
    const other = await signIn(t.app, RECRUIT('admin'));
    expect((await other.get('/v1/admin/sso_connection')).body.connection).toBeNull();
    expect((await other.delete('/v1/admin/sso_connection')).status).toBe(404);
    expect(await stored()).toBeDefined();
  });

  it('removes it', async () => {
    expect((await admin.delete('/v1/admin/sso_connection')).status).toBe(204);
    expect((await admin.get('/v1/admin/sso_connection')).body.connection).toBeNull();
    expect(await stored()).toBeUndefined();
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(eq(auditEvents.event, 'sso_connection_removed'));
    expect(event).toBeDefined();
  });
});
