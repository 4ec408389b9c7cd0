import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, signIn, type TestApp } from '../../../test/harness.js';
import { passwordResetTokens } from '../../platform/auth/schema.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ limits: { password_reset: 100_000 } });
});
afterAll(() => t.close());

async function resetLink(email: string): Promise<string> {
  const c = new Client(t.app);
  for (let i = 0; i < 100; i++) {
    const list = (await c.get('/v1/dev/mails')).body.data.filter((m: any) => m.to === email && /Reset/.test(m.subject));
    if (list.length) {
      const mail = (await c.get(`/v1/dev/mails/${list[0].id}`)).body;
      return mail.text.match(/reset_password_token=([A-Za-z0-9_-]+)/)[1];
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('no reset mail');
}

describe('account lockout', () => {
  it('refuses even the right password (429) after 100 failures in an hour', async () => {
    const email = DEMO('basic');
    const c = new Client(t.app);
    for (let i = 0; i < 100; i++) {
      expect((await c.post('/v1/sessions', { email, password: `wrong-${i}` })).status).toBe(401);
    }
    const locked = await c.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(locked.status).toBe(429);
    expect(locked.body.errors.user[0]).toMatch(/Too many failed sign-in attempts/);
    expect(locked.headers['retry-after']).toBeDefined();
    // Other accounts are unaffected.
    await signIn(t.app, DEMO('agent'));
  }, 120_000);
});

describe('per-address limit', () => {
  it('answers 429 with Retry-After past the sign-in limit for one address', async () => {
    const strict = await createTestApp({ limits: { sign_in: 3 } });
    try {
      const c = new Client(strict.app);
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await c.post('/v1/sessions', { email: 'x@y.z', password: 'p' })).status);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await strict.close();
    }
  });
});

describe('password reset', () => {
  it('answers the same to a known and an unknown email', async () => {
    const c = new Client(t.app);
    const known = await c.post('/v1/users/reset_password_instructions', { email: DEMO('agent') });
    const unknown = await c.post('/v1/users/reset_password_instructions', { email: 'ghost@demo.harbor.test' });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect((await c.post('/v1/users/reset_password_instructions', { email: 'not-an-email' })).status).toBe(422);
  });

  it('resets with the emailed token once, ends existing sessions, and the token cannot be reused', async () => {
    const email = DEMO('telemarketer');
    const session = await signIn(t.app, email);
    const c = new Client(t.app);
    await c.post('/v1/users/reset_password_instructions', { email });
    const token = await resetLink(email);
    const body = {
      reset_password_token: token,
      password: 'brand new passphrase',
      password_confirmation: 'brand new passphrase',
    };
    const ok = await c.post('/v1/users/reset_password_by_token', body);
    expect(ok.status).toBe(200);
    expect((await session.get('/v1/users/me')).status).toBe(401);
    await signIn(t.app, email, 'brand new passphrase');
    const again = await c.post('/v1/users/reset_password_by_token', {
      ...body,
      password: 'x'.repeat(10),
      password_confirmation: 'x'.repeat(10),
    });
    expect(again.status).toBe(422);
    expect(again.body.errors.reset_password_token).toEqual(['is invalid or has expired']);
  });

  it('refuses an expired token and a mismatched confirmation', async () => {
    const email = DEMO('agent');
    const c = new Client(t.app);
    await c.post('/v1/users/reset_password_instructions', { email });
    const token = await resetLink(email);
    const mismatch = await c.post('/v1/users/reset_password_by_token', {
      reset_password_token: token,
      password: 'long enough one',
      password_confirmation: 'long enough two',
    });
    expect(mismatch.status).toBe(422);
    const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, u.id));
    const expired = await c.post('/v1/users/reset_password_by_token', {
      reset_password_token: token,
      password: 'long enough one',
      password_confirmation: 'long enough one',
    });
    expect(expired.status).toBe(422);
    await signIn(t.app, email);
  });
});
