import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { auditEvents } from '../../platform/audit/schema.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
const idOf = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0].id;

describe('GET /v1/users/me', () => {
  it('answers the gating fields of the spec', async () => {
    const me = (await (await signIn(t.app, DEMO('sub_admin'))).get('/v1/users/me')).body;
    expect(me.roles).toEqual(['sub_admin', 'admin']);
    expect(me.admin).toBe(true);
    expect(me.company).toMatchObject({ name: 'Harbor Demo Insurance', variant: 'insurance' });
    for (const k of ['two_fa_is_required?', 'has_2fa_enabled?', 'change_password?', 'paid_user?', 'tos']) {
      expect(me).toHaveProperty([k]);
    }
    expect(me.features.sms_campaigns).toBe(true);
    expect(me.permissions).toContain('admin.manage');
  });

  it('shows a recruiting company its variant', async () => {
    const me = (await (await signIn(t.app, RECRUIT('pool_holder'))).get('/v1/users/me')).body;
    expect(me.company.variant).toBe('recruiting');
    expect(me.roles).toEqual(['pool_holder', 'basic']);
    expect(me.basic).toBe(true);
  });
});

describe('terms, time zone and theme', () => {
  it('accepts the terms', async () => {
    const c = await signIn(t.app, 'newhire@demo.harbor.test');
    expect((await c.get('/v1/users/me')).body.tos).toBe(false);
    const res = await c.patch('/v1/users/accept_tos');
    expect(res.status).toBe(200);
    expect(res.body.tos).toBe(true);
  });

  it('sets the time zone and refuses one outside the list', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    expect((await c.patch('/v1/users/update_timezone', { timezone: 'pst' })).body.timezone).toBe('pst');
    const bad = await c.patch('/v1/users/update_timezone', { timezone: 'utc' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.timezone).toBeDefined();
    expect((await c.get('/v1/users/me')).body.timezone).toBe('pst');
  });

  it('sets display preferences, refusing unknown values and unknown fields without changing anything', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const ok = await c.patch('/v1/users/update_theme', {
      font_size: 'large',
      primary_color: 'purple',
      background: 'dark',
    });
    expect(ok.body.profile).toMatchObject({ font_size: 'large', primary_color: 'purple', background: 'dark' });
    const bad = await c.patch('/v1/users/update_theme', { primary_color: 'blue', font_size: 'small' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.primary_color).toBeDefined();
    const sneaky = await c.patch('/v1/users/update_theme', { roles: ['admin'] });
    expect(sneaky.status).toBe(422);
    const me = (await c.get('/v1/users/me')).body;
    expect(me.profile.font_size).toBe('large');
    expect(me.roles).toEqual(['agent']);
  });
});

describe('PATCH /v1/users/{id}/update_password', () => {
  it('changes the own password with the current one, clears the forced change, ends other sessions', async () => {
    const email = DEMO('district_manager');
    const id = await idOf(email);
    await t.database.db.update(users).set({ changePassword: true }).where(eq(users.id, id));
    const other = await signIn(t.app, email);
    const c = await signIn(t.app, email);
    const res = await c.patch(`/v1/users/${id}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: 'a new and long passphrase',
      password_confirmation: 'a new and long passphrase',
    });
    expect(res.status).toBe(200);
    expect(res.body['change_password?']).toBe(false);
    expect((await c.get('/v1/users/me')).status).toBe(200);
    expect((await other.get('/v1/users/me')).status).toBe(401);
    expect((await new Client(t.app).post('/v1/sessions', { email, password: DEMO_PASSWORD })).status).toBe(401);
    await signIn(t.app, email, 'a new and long passphrase');
    const audit = await t.database.db.select().from(auditEvents).where(eq(auditEvents.event, 'password_changed'));
    expect(audit.some((a) => a.userId === id)).toBe(true);
  });

  it('allows a 64+ character passphrase', async () => {
    const email = DEMO('field_manager');
    const c = await signIn(t.app, email);
    const long = 'correct horse battery staple '.repeat(4);
    expect(long.length).toBeGreaterThan(64);
    const res = await c.patch(`/v1/users/${await idOf(email)}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: long,
      password_confirmation: long,
    });
    expect(res.status).toBe(200);
    await signIn(t.app, email, long);
  });

  it('refuses a wrong current password, a mismatch and a short password (422, nothing changed)', async () => {
    const email = DEMO('telemarketer');
    const c = await signIn(t.app, email);
    const id = await idOf(email);
    const wrong = await c.patch(`/v1/users/${id}/update_password`, {
      current_password: 'nope',
      password: 'another long pass',
      password_confirmation: 'another long pass',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.current_password).toEqual(['is incorrect']);
    const mismatch = await c.patch(`/v1/users/${id}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: 'another long pass',
      password_confirmation: 'different long pass',
    });
    expect(mismatch.status).toBe(422);
    expect(mismatch.body.errors.password_confirmation).toBeDefined();
    const short = await c.patch(`/v1/users/${id}/update_password`, {
      current_password: DEMO_PASSWORD,
      password: 'short',
      password_confirmation: 'short',
    });
    expect(short.body.errors.password[0]).toMatch(/too short/);
    await signIn(t.app, email);
  });

  it("is 403 for a colleague's password and 404 for another company's user", async () => {
    const c = await signIn(t.app, DEMO('manager'));
    const body = { current_password: DEMO_PASSWORD, password: 'x'.repeat(12), password_confirmation: 'x'.repeat(12) };
    expect((await c.patch(`/v1/users/${await idOf(DEMO('agent'))}/update_password`, body)).status).toBe(403);
    expect((await c.patch(`/v1/users/${await idOf(RECRUIT('agent'))}/update_password`, body)).status).toBe(404);
    expect((await c.patch('/v1/users/999999/update_password', body)).status).toBe(404);
  });
});
