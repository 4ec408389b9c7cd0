/**
 * Single sign-on against a REAL OpenID provider (oidc-provider) on loopback: the Harbor app listens on a port of its
 * own so the provider can reach its back-channel logout endpoint. The test plays the browser at the provider (a
 * cookie jar following redirects); the provider's login step is completed for a chosen account, as a person would.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import { desc, eq } from 'drizzle-orm';
import Provider from 'oidc-provider';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { devMails } from '../../integrations/mail/schema.js';
import { users } from '../../platform/db/schema.js';
import { ssoConnections, ssoLogins } from './schema.js';

const SECRET = 'harbor-sso-test-secret';
let t: TestApp;
let op: http.Server;
let issuer: string;
let callbackUri: string;
let nextAccount = DEMO('agent');
const jar = new Map<string, string>();

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

beforeAll(async () => {
  const appPort = await freePort();
  callbackUri = `http://127.0.0.1:${appPort}/api/auth/callback`;
  t = await createTestApp({ env: { APP_URL: `http://127.0.0.1:${appPort}` } });
  await t.app.listen({ port: appPort, host: '127.0.0.1' });

  const opPort = await freePort();
  issuer = `http://localhost:${opPort}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'harbor',
        client_secret: SECRET,
        redirect_uris: [callbackUri],
        token_endpoint_auth_method: 'client_secret_post',
        backchannel_logout_uri: `http://127.0.0.1:${appPort}/sso-logout`,
        backchannel_logout_session_required: true,
      },
    ],
    findAccount: async (_ctx: unknown, id: string) => ({
      accountId: id,
      claims: async () => ({ sub: id, email: id, email_verified: true }),
    }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    features: { devInteractions: { enabled: false }, backchannelLogout: { enabled: true } },
    cookies: { keys: ['sso-test-cookie-key'] },
    // The provider refuses to call loopback addresses (SSRF protection); Harbor listens on loopback in this test.
    fetch: (url: string, { dispatcher: _loopbackAllowed, ...options }: Record<string, unknown>) => fetch(url, options),
    // Consent is not what is under test: the grant is given as the person signs in.
    loadExistingGrant: async (ctx: any) => {
      const grant = new ctx.oidc.provider.Grant({
        clientId: ctx.oidc.client.clientId,
        accountId: ctx.oidc.session.accountId,
      });
      grant.addOIDCScope('openid email profile');
      await grant.save();
      return grant;
    },
  });
  provider.on('backchannel.error', (_ctx: unknown, err: Error) => console.error('backchannel.error', err.message));
  op = http.createServer((req, res) => {
    if (req.url?.startsWith('/interaction/')) {
      // The person at the provider signs in as `nextAccount`.
      provider
        .interactionFinished(req, res, { login: { accountId: nextAccount } }, { mergeWithLastSubmission: false })
        .catch((err: Error) => {
          res.statusCode = 500;
          res.end(err.message);
        });
      return;
    }
    provider.callback()(req, res);
  });
  await new Promise<void>((r) => op.listen(opPort, '127.0.0.1', r));

  // The System Admin sets it up the way a person does: the flag, then the provider (modules/admin/sso-connection.ts).
  const admin = await signIn(t.app, DEMO('admin'));
  expect((await admin.put('/v1/admin/feature_flags', { company: { single_sign_on: true } })).status).toBe(200);
  const setUp = await admin.put('/v1/admin/sso_connection', { issuer, client_id: 'harbor', client_secret: SECRET });
  expect(setUp.body).toMatchObject({ enabled: true, connection: { issuer, has_client_secret: true } });
  expect((await admin.post('/v1/admin/sso_connection/check', {})).body.ok).toBe(true);
});
afterAll(async () => {
  await new Promise((r) => op.close(r));
  await t.close();
});

const jarHeader = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
function keepCookies(res: Response) {
  for (const c of res.headers.getSetCookie()) {
    const [pair] = c.split(';');
    const i = pair.indexOf('=');
    jar.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

/** Follows the provider's redirects like a browser until it sends the browser back to Harbor's callback page. */
async function atProvider(url: string): Promise<URL> {
  let next = url;
  for (let i = 0; i < 10; i++) {
    const res = await fetch(next, { redirect: 'manual', headers: { cookie: jarHeader() } });
    keepCookies(res);
    const location = res.headers.get('location');
    if (!location) throw new Error(`provider stopped at ${next}: ${res.status} ${await res.text()}`);
    const target = new URL(location, next);
    if (target.toString().startsWith(callbackUri)) return target;
    next = target.toString();
  }
  throw new Error('too many redirects at the provider');
}

/** A fresh browser at the provider each time, so the person signs in as `nextAccount`. */
async function startSso(client: Client) {
  jar.clear();
  const res = await client.post('/v1/sessions/sso', { domain_name: 'demo.harbor.test' });
  expect(res.status).toBe(200);
  return atProvider(res.body.authorization_url);
}
const paramsOf = (url: URL) => Object.fromEntries(url.searchParams);

describe('POST /v1/sessions/sso', () => {
  it('signs in through the provider and links the session to the provider session', async () => {
    nextAccount = DEMO('agent');
    const client = new Client(t.app);
    const back = await startSso(client);
    expect(back.searchParams.get('state')).toBeTruthy();
    const res = await client.post('/v1/sessions/sso', paramsOf(back));
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(DEMO('agent'));
    expect((await client.get('/v1/users/me')).status).toBe(200);
    const links = await t.database.db
      .select()
      .from(ssoLogins)
      .where(eq(ssoLogins.sub, DEMO('agent')));
    expect(links.length).toBeGreaterThan(0);
    expect(links[0].sid).toBeTruthy();
    // The state cookie is single use: replaying the same callback finds no state.
    const replay = await client.post('/v1/sessions/sso', paramsOf(back));
    expect(replay.status).toBe(400);
    expect(replay.body.errors.missing_state).toBeDefined();
  });

  it('answers the spec error kinds: missing state, invalid state, authorization error, code exchange', async () => {
    const client = new Client(t.app);
    expect((await client.post('/v1/sessions/sso', { code: 'x' })).body.errors.missing_state).toBeDefined();
    const back = await startSso(client);
    const wrong = await client.post('/v1/sessions/sso', { ...paramsOf(back), state: 'forged' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors.invalid_state).toBeDefined();

    const again = await startSso(client);
    const denied = await client.post('/v1/sessions/sso', {
      state: again.searchParams.get('state')!,
      error: 'access_denied',
      error_description: 'The person said no',
    });
    expect(denied.body.errors.authorization_error).toEqual(['The person said no']);

    const third = await startSso(client);
    const badCode = await client.post('/v1/sessions/sso', { ...paramsOf(third), code: 'not-a-real-code' });
    expect(badCode.status).toBe(400);
    expect(badCode.body.errors.code_exchange_error).toBeDefined();
    expect((await client.get('/v1/users/me')).status).toBe(401);
  });

  it('refuses identities without a Harbor account, companies without SSO and bad input', async () => {
    nextAccount = 'stranger@demo.harbor.test';
    const client = new Client(t.app);
    const back = await startSso(client);
    const res = await client.post('/v1/sessions/sso', paramsOf(back));
    expect(res.status).toBe(422);
    expect(res.body.errors.email).toBeDefined();
    nextAccount = DEMO('agent');
    expect((await client.post('/v1/sessions/sso', { domain_name: 'recruit.harbor.test' })).status).toBe(422);
    expect((await client.post('/v1/sessions/sso', { domain_name: '' })).status).toBe(422);
    expect((await client.post('/v1/sessions/sso', { domain_name: 'x', roles: ['admin'] })).status).toBe(422);
  });

  it('answers discovery_error when the provider cannot be reached', async () => {
    const db = t.database.db;
    const [row] = await db.select().from(ssoConnections);
    const dead = `http://localhost:${await freePort()}`;
    await db.update(ssoConnections).set({ issuer: dead }).where(eq(ssoConnections.id, row.id));
    const res = await new Client(t.app).post('/v1/sessions/sso', { domain_name: 'demo.harbor.test' });
    expect(res.status).toBe(502);
    expect(res.body.errors.discovery_error).toBeDefined();
    await db.update(ssoConnections).set({ issuer }).where(eq(ssoConnections.id, row.id));
  });
});

/** Signs out at the provider (its logout page, then its confirmation form), then waits for Harbor to notice. */
async function signOutAtProvider(client: Client) {
  const page = await fetch(`${issuer}/session/end`, { headers: { cookie: jarHeader() } });
  keepCookies(page);
  const html = await page.text();
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(html)?.[1];
  expect(xsrf).toBeTruthy();
  const confirm = await fetch(`${issuer}/session/end/confirm`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: jarHeader(), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ xsrf: xsrf!, logout: 'yes' }).toString(),
  });
  expect([302, 303]).toContain(confirm.status);
  let status = 200;
  for (let i = 0; i < 40 && status === 200; i++) {
    status = (await client.get('/v1/users/me')).status;
    if (status === 200) await new Promise((r) => setTimeout(r, 50));
  }
  return status;
}

describe('POST /sso-logout (back-channel)', () => {
  it('ends the Harbor session when the person signs out at the provider', async () => {
    nextAccount = DEMO('telemarketer');
    const client = new Client(t.app);
    const back = await startSso(client);
    expect((await client.post('/v1/sessions/sso', paramsOf(back))).status).toBe(200);
    expect((await client.get('/v1/users/me')).status).toBe(200);
    expect(await signOutAtProvider(client)).toBe(401);
  });

  it("also ends a session that needed the person's own one-time code after the provider", async () => {
    const email = DEMO('bu_admin');
    await t.database.db.update(users).set({ otpEnabled: true, otpMethod: 'email' }).where(eq(users.email, email));
    try {
      nextAccount = email;
      const client = new Client(t.app);
      const back = await startSso(client);
      const step = await client.post('/v1/sessions/sso', paramsOf(back));
      expect(step.body).toMatchObject({ otp_secret: true, otp_method: 'email' });
      const [mail] = await t.database.db
        .select()
        .from(devMails)
        .where(eq(devMails.to, email))
        .orderBy(desc(devMails.id))
        .limit(1);
      const code = /code is (\d{6})/.exec(mail.text ?? '')?.[1];
      expect(code).toBeTruthy();
      const done = await client.post('/v1/sessions', { otp_code: code });
      expect(done.status, JSON.stringify(done.body)).toBe(200);
      expect(done.body.user.email).toBe(email);
      expect(await signOutAtProvider(client)).toBe(401);
    } finally {
      await t.database.db.update(users).set({ otpEnabled: false }).where(eq(users.email, email));
    }
  });

  it('refuses a logout token that is not one', async () => {
    const res = await fetch(`${new URL(callbackUri).origin}/sso-logout`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'logout_token=garbage',
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: Record<string, string[]> };
    expect(body.errors.backchannel_logout_error).toBeDefined();
  });
});
