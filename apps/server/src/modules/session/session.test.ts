import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, signIn, type TestApp } from '../../../test/harness.js';
import { auditEvents } from '../../platform/audit/schema.js';
import { sessions } from '../../platform/auth/schema.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const db = () => t.database.db;

describe('POST /v1/sessions (password step)', () => {
  it('signs in with email and answers the current user with a fresh HttpOnly session cookie', async () => {
    const c = new Client(t.app);
    const res = await c.post('/v1/sessions', { email: DEMO('agent'), password: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(DEMO('agent'));
    expect(res.body.user.roles).toEqual(['agent']);
    expect(res.body.user).not.toHaveProperty('password_hash');
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/harbor_session=[A-Za-z0-9_-]{40,}/);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect((await c.get('/v1/users/me')).body.email).toBe(DEMO('agent'));
  });

  it('accepts username in place of email, case-insensitively', async () => {
    const [u] = await db()
      .select()
      .from(users)
      .where(eq(users.email, DEMO('manager')));
    const c = new Client(t.app);
    const res = await c.post('/v1/sessions', { username: u.username.toUpperCase(), password: DEMO_PASSWORD });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(DEMO('manager'));
  });

  it('refuses a wrong password and an unknown email with the same 401 message, and audits both', async () => {
    const c = new Client(t.app);
    const wrong = await c.post('/v1/sessions', { email: DEMO('agent'), password: 'not-the-password' });
    const unknown = await c.post('/v1/sessions', { email: 'nobody@demo.harbor.test', password: 'whatever-pass' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual({ errors: { user: ['Invalid email or password'] } });
    expect(unknown.body).toEqual(wrong.body);
    const failed = await db().select().from(auditEvents).where(eq(auditEvents.event, 'sign_in_failed'));
    expect(failed.length).toBeGreaterThanOrEqual(2);
    expect((await c.get('/v1/users/me')).status).toBe(401);
  });

  it('answers 422 naming the field for a missing password or login', async () => {
    const c = new Client(t.app);
    const noPassword = await c.post('/v1/sessions', { email: DEMO('agent') });
    expect(noPassword.status).toBe(422);
    expect(Object.keys(noPassword.body.errors).join()).toMatch(/password|body/);
    const noLogin = await c.post('/v1/sessions', { password: 'x' });
    expect(noLogin.status).toBe(422);
  });

  it('answers 400 in the error shape for malformed JSON', async () => {
    const c = new Client(t.app);
    await c.get('/v1/health');
    const res = await c.request('POST', '/v1/sessions', '{"email":', { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body.errors.request).toEqual(['is not valid JSON']);
  });

  it('refuses a state-changing request without the CSRF header (403), even a sign-in', async () => {
    const c = new Client(t.app);
    c.csrf = false;
    await c.get('/v1/health');
    const res = await c.post('/v1/sessions', { email: DEMO('agent'), password: DEMO_PASSWORD });
    expect(res.status).toBe(403);
    expect(res.body.errors.csrf).toBeDefined();
    const forged = await c.request(
      'POST',
      '/v1/sessions',
      { email: DEMO('agent'), password: DEMO_PASSWORD },
      {
        'x-csrf-token': 'forged-token-value',
      },
    );
    expect(forged.status).toBe(403);
  });

  it('renews the session token at every sign-in: the old cookie stops working', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const first = c.cookies.get('harbor_session');
    const again = await c.post('/v1/sessions', { email: DEMO('agent'), password: DEMO_PASSWORD });
    expect(again.status).toBe(200);
    const second = c.cookies.get('harbor_session');
    expect(second).not.toBe(first);
    const stale = new Client(t.app);
    stale.cookies.set('harbor_session', first!);
    expect((await stale.get('/v1/users/me')).status).toBe(401);
  });
});

describe('DELETE /v1/sessions', () => {
  it('ends the session on the server: the same cookie is refused afterwards', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const token = c.cookies.get('harbor_session')!;
    const res = await c.delete('/v1/sessions');
    expect(res.status).toBe(204);
    const replay = new Client(t.app);
    replay.cookies.set('harbor_session', token);
    expect((await replay.get('/v1/users/me')).status).toBe(401);
  });

  it('needs a session (401) and the CSRF header (403)', async () => {
    expect((await new Client(t.app).delete('/v1/sessions')).status).toBe(401);
    const c = await signIn(t.app, DEMO('agent'));
    c.csrf = false;
    expect((await c.delete('/v1/sessions')).status).toBe(403);
  });

  it('pops one login-stack entry and returns to the previous user', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const adminId = (await admin.get('/v1/users/me')).body.id;
    // Issue 3 pushes these entries through "login as"; the stack itself lives on the session row.
    const token = admin.cookies.get('harbor_session')!;
    const [agent] = await db()
      .select()
      .from(users)
      .where(eq(users.email, DEMO('agent')));
    await db()
      .update(sessions)
      .set({ userId: agent.id, loginStack: [{ kind: 'logged_as_admin', user_id: adminId, name: 'Alicia Grant' }] })
      .where(eq(sessions.tokenHash, hashToken(token)));
    const me = await admin.get('/v1/users/me');
    expect(me.body.email).toBe(DEMO('agent'));
    expect(me.body.login_stack).toHaveLength(1);
    const back = await admin.delete('/v1/sessions');
    expect(back.status).toBe(200);
    expect(back.body.user.email).toBe(DEMO('admin'));
    expect(back.body.user.login_stack).toEqual([]);
    expect((await admin.get('/v1/users/me')).body.email).toBe(DEMO('admin'));
  });
});

describe('a request that still carries an ended session', () => {
  const cookieNames = (res: { headers: Record<string, unknown> }) =>
    [res.headers['set-cookie'] ?? []].flat().map((c) => String(c).split('=')[0]);

  it('writes no cookie after a return from an impersonation, so it cannot undo the admin session a reply before it set', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const adminId = (await admin.get('/v1/users/me')).body.id;
    const [agent] = await db()
      .select()
      .from(users)
      .where(eq(users.email, DEMO('agent')));
    const impersonation = admin.cookies.get('harbor_session')!;
    await db()
      .update(sessions)
      .set({ userId: agent.id, loginStack: [{ kind: 'logged_as_admin', user_id: adminId, name: 'Alicia Grant' }] })
      .where(eq(sessions.tokenHash, hashToken(impersonation)));
    const oldCsrf = admin.cookies.get('csrf_token')!;
    expect((await admin.delete('/v1/sessions')).status).toBe(200);
    // A page's query sent with the impersonation's cookies, answered after the return.
    const late = new Client(t.app);
    late.cookies.set('harbor_session', impersonation);
    late.cookies.set('csrf_token', oldCsrf);
    const res = await late.get('/v1/users/api_keys');
    expect(res.status).toBe(401);
    expect(cookieNames(res)).toEqual([]);
    expect((await admin.get('/v1/users/me')).body.email).toBe(DEMO('admin'));
  });

  it('lets a browser whose session expired sign in with the token it holds, and clears an unknown cookie', async () => {
    const c = await signIn(t.app, DEMO('telemarketer'));
    const id = (await c.get('/v1/users/me')).body.id;
    await db()
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 3_600_000) })
      .where(eq(sessions.userId, id));
    const expired = await c.get('/v1/users/me');
    expect(expired.status).toBe(401);
    expect(cookieNames(expired)).toEqual([]);
    const again = await c.post('/v1/sessions', { email: DEMO('telemarketer'), password: DEMO_PASSWORD });
    expect(again.status).toBe(200);
    expect((await c.get('/v1/users/me')).body.id).toBe(id);
    // A forged token is still refused on that path.
    const forged = new Client(t.app);
    forged.cookies.set('harbor_session', c.cookies.get('harbor_session')!);
    await c.delete('/v1/sessions');
    forged.cookies.set('csrf_token', 'forged');
    expect((await forged.post('/v1/sessions', { email: DEMO('telemarketer'), password: DEMO_PASSWORD })).status).toBe(
      403,
    );
    const unknown = new Client(t.app);
    unknown.cookies.set('harbor_session', 'x'.repeat(43));
    const res = await unknown.get('/v1/users/me');
    expect(res.status).toBe(401);
    expect(cookieNames(res)).toContain('harbor_session');
  });
});

describe('session timeouts', () => {
  it('refuses a session idle longer than the idle timeout', async () => {
    const c = await signIn(t.app, DEMO('telemarketer'));
    await db()
      .update(sessions)
      .set({ lastSeenAt: new Date(Date.now() - 3 * 3_600_000) })
      .where(eq(sessions.userId, (await c.get('/v1/users/me')).body.id));
    expect((await c.get('/v1/users/me')).status).toBe(401);
  });

  it('refuses a session past its absolute lifetime even when active', async () => {
    const c = await signIn(t.app, DEMO('field_manager'));
    const id = (await c.get('/v1/users/me')).body.id;
    await db()
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, id));
    expect((await c.get('/v1/users/me')).status).toBe(401);
  });
});

describe('GET /auth/profile', () => {
  it('answers the current user, and 401 without a session', async () => {
    const c = await signIn(t.app, DEMO('manager'));
    const res = await c.get('/auth/profile');
    expect(res.status).toBe(200);
    expect(res.body.manager).toBe(true);
    expect((await new Client(t.app).get('/auth/profile')).status).toBe(401);
  });
});
