/**
 * The session cache on (a minute, so only an invalidation can explain a change being seen): every way a session
 * ends or its user, role, flags or company change through the API is seen by the very next request.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, signIn, type TestApp } from './harness.js';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp({ env: { SESSION_CACHE_MS: '60000' } });
  for (const u of await t.database.query<{ id: number; email: string }>('select id, email from users')) {
    ids[u.email] = u.id;
  }
});
afterAll(() => t.close());

/** A second browser holding the same session cookie: it must lose access when the session ends. */
function sameSession(c: Client) {
  const twin = new Client(t.app);
  for (const [k, v] of c.cookies) twin.cookies.set(k, v);
  return twin;
}

describe('the session cache', () => {
  it('answers signed-in requests from memory: a change behind the app is not read again within the lifetime', async () => {
    const agent = await signIn(t.app, DEMO('telemarketer'));
    const me = (await agent.get('/v1/users/me')).body;
    await t.database.query(`update users set first_name = 'Behind' where id = $1`, [me.id]);
    expect((await agent.get('/v1/users/me')).body.profile.first_name).toBe(me.profile.first_name);
    expect(t.deps.sessionCache.size).toBeGreaterThan(0);
  });

  it('sign-out ends the session at once', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const twin = sameSession(c);
    expect((await twin.get('/v1/users/me')).status).toBe(200);
    expect((await c.delete('/v1/sessions')).status).toBeLessThan(300);
    expect((await twin.get('/v1/users/me')).status).toBe(401);
  });

  it('a password change signs the other devices out at once, and keeps this one', async () => {
    const email = DEMO('field_manager');
    const here = await signIn(t.app, email);
    const there = await signIn(t.app, email);
    expect((await there.get('/v1/users/me')).status).toBe(200);
    const changed = await here.patch(`/v1/users/${ids[email]}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: 'a-new-long-passphrase-2026',
      password_confirmation: 'a-new-long-passphrase-2026',
    });
    expect(changed.status).toBe(200);
    expect((await there.get('/v1/users/me')).status).toBe(401);
    expect((await here.get('/v1/users/me')).status).toBe(200);
  });

  it('a role change and a flag change apply to the very next request', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const target = await signIn(t.app, DEMO('newhire'));
    const before = (await target.get('/v1/users/me')).body;
    expect(before.roles).not.toContain('manager');
    const roles = await admin.patch(`/v1/admin/users/${ids[DEMO('newhire')]}/update_roles`, { roles: ['manager'] });
    expect(roles.status).toBe(200);
    expect((await target.get('/v1/users/me')).body.roles).toContain('manager');

    expect((await target.get('/v1/users/me')).body.features.sms_campaigns).toBe(true);
    expect((await admin.put('/v1/admin/feature_flags', { company: { sms_campaigns: false } })).status).toBe(200);
    expect((await target.get('/v1/users/me')).body.features.sms_campaigns).toBe(false);
    await admin.put('/v1/admin/feature_flags', { company: { sms_campaigns: true } });
  });

  it('a deleted user is refused at once', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const gone = await signIn(t.app, DEMO('basic'));
    expect((await gone.get('/v1/users/me')).status).toBe(200);
    const res = await admin.delete(`/v1/admin/users/${ids[DEMO('basic')]}`, { contacts_action: 'keep_unassigned' });
    expect(res.status).toBe(204);
    expect((await gone.get('/v1/users/me')).status).toBe(401);
  });

  it('your own changes read back at once: display settings, then two-factor setup step by step', async () => {
    const c = await signIn(t.app, DEMO('district_manager'));
    await c.get('/v1/users/me');
    expect((await c.patch('/v1/users/update_theme', { background: 'dark' })).status).toBe(200);
    expect((await c.get('/v1/users/me')).body.profile.background).toBe('dark');
    // Setup stores the pending secret in the user row; enabling reads it from the (cached) session's user.
    const qr = await c.patch('/v1/users/two_factor/generate_qr');
    const code = await generate({ secret: qr.body.secret, epoch: Math.floor(Date.now() / 30_000) * 30 });
    const enabled = await c.patch('/v1/users/two_factor/enable', { otp_code: code });
    expect(enabled.status).toBe(200);
    expect((await c.get('/v1/users/me')).body['has_2fa_enabled?']).toBe(true);
  });
});
