/**
 * Issue 15: while impersonating (login_as or impersonate), and with an API key, the impersonated user's security
 * settings (second factor, password, email, API keys) cannot be changed; every audit entry names the person at the
 * keyboard (actor) and whom they acted as (on_behalf_of); returning restores the original session's remaining time.
 */
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, signIn, type TestApp } from '../../../test/harness.js';
import { auditEvents } from '../../platform/audit/schema.js';
import { apiKeys, sessions } from '../../platform/auth/schema.js';
import { hashToken } from '../../platform/auth/tokens.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const u of await t.database.db.select().from(users)) ids[u.email] = u.id;
});
afterAll(() => t.close());
const id = (role: string) => ids[DEMO(role)];

/** Every way to change a sign-in credential or factor, with a body that would otherwise be accepted. */
const SECURITY_WRITES = (userId: number, keyId: number): Array<[string, string, unknown]> => [
  ['PATCH', '/v1/users/two_factor/generate_qr', undefined],
  ['PATCH', '/v1/users/two_factor/enable', { otp_code: '123456' }],
  ['PATCH', '/v1/users/two_factor/disable', { password: DEMO_PASSWORD }],
  ['PATCH', '/v1/users/update_2fa', { otp_method: 'email', password: DEMO_PASSWORD }],
  ['PATCH', '/v1/users/two_factor/recovery_codes', { password: DEMO_PASSWORD }],
  [
    'PATCH',
    `/v1/users/${userId}/update_password`,
    {
      current_password: DEMO_PASSWORD,
      password: 'Quiet river lights 77',
      password_confirmation: 'Quiet river lights 77',
    },
  ],
  ['PATCH', `/v1/users/${userId}`, { email: 'taken-over@example.com', current_password: DEMO_PASSWORD }],
  ['POST', '/v1/users/api_keys', { name: 'planted' }],
  ['PATCH', `/v1/users/api_keys/${keyId}`, { name: 'renamed' }],
  ['PATCH', `/v1/users/api_keys/${keyId}/refresh_token`, undefined],
  ['DELETE', `/v1/users/api_keys/${keyId}`, undefined],
];

async function keyOf(email: string) {
  const owner = await signIn(t.app, email);
  const created = await owner.post('/v1/users/api_keys', { name: 'owner key' });
  expect(created.status).toBe(201);
  return created.body as { id: number; token: string };
}

describe('security settings while impersonating', () => {
  for (const loginType of ['login_as', 'impersonate'] as const) {
    it(`are refused (403, clear message) after ${loginType}, and nothing changes`, async () => {
      const key = await keyOf(DEMO('agent'));
      const admin = await signIn(t.app, DEMO('admin'));
      expect((await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: loginType })).status).toBe(200);
      const before = (
        await t.database.db
          .select()
          .from(users)
          .where(eq(users.id, id('agent')))
      )[0];
      for (const [method, url, body] of SECURITY_WRITES(id('agent'), key.id)) {
        const res = await admin.request(method, url, body ?? (method === 'GET' ? undefined : {}));
        expect(res.status, `${method} ${url}`).toBe(403);
        expect(res.body.errors.user[0], `${method} ${url}`).toMatch(
          /signed in as .* cannot be changed while you are signed in as them/i,
        );
      }
      const after = (
        await t.database.db
          .select()
          .from(users)
          .where(eq(users.id, id('agent')))
      )[0];
      expect(after.otpPendingSecretEnc).toBe(before.otpPendingSecretEnc);
      expect(after.otpEnabled).toBe(before.otpEnabled);
      expect(after.passwordHash).toBe(before.passwordHash);
      expect(after.email).toBe(before.email);
      const [k] = await t.database.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
      expect(k.revokedAt).toBeNull();
      expect(k.name).toBe('owner key');
      // Reading is fine: the impersonator sees the same account the user would.
      expect((await admin.get('/v1/users/api_keys')).status).toBe(200);
      expect((await admin.delete('/v1/sessions')).body.user.email).toBe(DEMO('admin'));
      await t.database.db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
    });
  }

  it('the user themself still can (the guard is about who is at the keyboard)', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    expect((await agent.patch('/v1/users/two_factor/generate_qr')).status).toBe(200);
    const created = await agent.post('/v1/users/api_keys', { name: 'mine' });
    expect(created.status).toBe(201);
    expect((await agent.delete(`/v1/users/api_keys/${created.body.id}`)).status).toBe(204);
  });
});

describe('security settings with an API key', () => {
  it('a key cannot mint keys nor change the password, email or second factor', async () => {
    const key = await keyOf(DEMO('manager'));
    const api = new Client(t.app);
    api.csrf = false;
    for (const [method, url, body] of SECURITY_WRITES(id('manager'), key.id)) {
      const res = await api.request(method, url, body ?? {}, { authorization: `Bearer ${key.token}` });
      expect(res.status, `${method} ${url}`).toBe(403);
      expect(res.body.errors.user[0], `${method} ${url}`).toMatch(/cannot be changed with an API key/i);
    }
    const keys = await t.database.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.userId, id('manager')));
    expect(keys.filter((k) => !k.revokedAt)).toHaveLength(1);
    // It still does ordinary work as its owner.
    const me = await api.request('GET', '/v1/users/me', undefined, { authorization: `Bearer ${key.token}` });
    expect(me.status).toBe(200);
  });
});

describe('audit while impersonating', () => {
  it('names the person at the keyboard as actor and the impersonated user as on_behalf_of', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    await admin.post(`/v1/admin/users/${id('manager')}/login`, { login_type: 'login_as' });
    // Nested: the manager's session signs in as an agent of theirs.
    await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'login_as' });
    await admin.patch('/v1/users/two_factor/generate_qr');
    await admin.delete('/v1/sessions');
    const [nestedEnd] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'impersonation_ended'), eq(auditEvents.userId, id('agent'))))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    expect(nestedEnd).toMatchObject({ actorId: id('admin'), onBehalfOf: id('agent') });
    expect(nestedEnd.data).toMatchObject({ via: [id('manager')] });
    const [nestedStart] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'impersonation_started'), eq(auditEvents.userId, id('agent'))))
      .orderBy(desc(auditEvents.id))
      .limit(1);
    // The manager's session (itself an impersonation) started the nested one: the admin is still the actor.
    expect(nestedStart).toMatchObject({ actorId: id('admin'), onBehalfOf: id('manager') });
    await admin.delete('/v1/sessions');
    const refused = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'security_change_refused'), eq(auditEvents.userId, id('agent'))));
    expect(refused.at(-1)).toMatchObject({ actorId: id('admin'), onBehalfOf: id('agent') });
  });
});

describe('returning from an impersonation', () => {
  it('restores the original session’s remaining time, not a fresh 24 hours', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const token = admin.cookies.get('harbor_session')!;
    const ends = new Date(Date.now() + 30 * 60_000);
    await t.database.db
      .update(sessions)
      .set({ expiresAt: ends })
      .where(eq(sessions.tokenHash, hashToken(token)));
    await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'impersonate' });
    const [imp] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(admin.cookies.get('harbor_session')!)));
    // The impersonation cannot outlive the session it came from either.
    expect(imp.expiresAt.getTime()).toBeLessThanOrEqual(ends.getTime());
    expect((await admin.delete('/v1/sessions')).body.user.email).toBe(DEMO('admin'));
    const [back] = await t.database.db
      .select()
      .from(sessions)
      .where(eq(sessions.tokenHash, hashToken(admin.cookies.get('harbor_session')!)));
    expect(Math.abs(back.expiresAt.getTime() - ends.getTime())).toBeLessThan(1000);
  });

  it('signs out when the original session has run out meanwhile', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'impersonate' });
    const imp = hashToken(admin.cookies.get('harbor_session')!);
    const [row] = await t.database.db.select().from(sessions).where(eq(sessions.tokenHash, imp));
    const stack = row.loginStack.map((e) => ({ ...e, expires_at: new Date(Date.now() - 1000).toISOString() }));
    await t.database.db.update(sessions).set({ loginStack: stack }).where(eq(sessions.id, row.id));
    const res = await admin.delete('/v1/sessions');
    expect(res.status).toBe(401);
    expect(res.body.errors.user[0]).toMatch(/session has expired/i);
    expect((await admin.get('/v1/users/me')).status).toBe(401);
  });
});
