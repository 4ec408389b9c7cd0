/** Issue 8: two-factor recovery codes (shown once, hashed, each usable once at the code step) and required 2FA. */
import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  signIn,
  type TestApp,
  waitForMail,
} from '../../../test/harness.js';
import { recoveryCodes } from '../../platform/auth/schema.js';
import { companies, users } from '../../platform/db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CODE = /^[2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}$/;

async function enroll(email: string) {
  const c = await signIn(t.app, email);
  const qr = await c.patch('/v1/users/two_factor/generate_qr');
  const code = await generate({ secret: qr.body.secret, epoch: (Math.floor(Date.now() / 30_000) - 1) * 30 });
  const on = await c.patch('/v1/users/two_factor/enable', { otp_code: code });
  expect(on.status).toBe(200);
  return { client: c, codes: on.body.recovery_codes as string[], reply: on.body };
}

async function codeStep(email: string) {
  const c = new Client(t.app);
  const step = await c.post('/v1/sessions', { email, password: DEMO_PASSWORD });
  expect(step.body).toMatchObject({ otp_secret: true });
  return c;
}

describe('recovery codes', () => {
  it('are generated when two-factor is turned on, shown once, and stored only hashed', async () => {
    const email = DEMO('regional_manager');
    const { client, codes, reply } = await enroll(email);
    expect(codes).toHaveLength(10);
    for (const c of codes) expect(c).toMatch(CODE);
    expect(new Set(codes).size).toBe(10);
    expect(reply['has_2fa_enabled?']).toBe(true);
    // Never again: not in the current user, not in the status.
    const me = await client.get('/v1/users/me');
    expect(JSON.stringify(me.body)).not.toContain(codes[0]);
    expect((await client.get('/v1/users/two_factor/recovery_codes')).body).toEqual({ left: 10, total: 10 });
    const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
    const rows = await t.database.db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, u.id));
    expect(rows).toHaveLength(10);
    for (const r of rows) {
      expect(r.codeHash).toMatch(/^\$argon2id\$/);
      for (const c of codes) expect(r.codeHash).not.toContain(c.slice(5).replace('-', ''));
    }
  });

  it('sign in once each at the code step, in any case and spacing, and the owner is told', async () => {
    const email = DEMO('district_manager');
    const { codes } = await enroll(email);
    const c = await codeStep(email);
    const typed = ` ${codes[3].toUpperCase().replace(/-/g, ' ')} `;
    const ok = await c.post('/v1/sessions', { recovery_code: typed });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    expect(ok.body.user.email).toBe(email);
    expect((await c.get('/v1/users/two_factor/recovery_codes')).body.left).toBe(9);
    const notice = await waitForMail(t, email, /recovery code was used/);
    expect(notice.subject).toBe('A Harbor recovery code was used');
    expect(notice.text).toContain('9 unused recovery codes left');

    const again = await codeStep(email);
    const reuse = await again.post('/v1/sessions', { recovery_code: codes[3] });
    expect(reuse.status).toBe(422);
    expect(reuse.body.errors.recovery_code).toEqual(['is not one of your unused recovery codes']);
    expect((await again.get('/v1/users/me')).status).toBe(401);
    expect((await again.post('/v1/sessions', { recovery_code: 'not-a-code' })).status).toBe(422);
    // Another user's code is not yours.
    const other = await enroll(DEMO('field_manager'));
    expect((await again.post('/v1/sessions', { recovery_code: other.codes[0] })).status).toBe(422);
    expect((await again.post('/v1/sessions', { recovery_code: codes[4] })).status).toBe(200);
  });

  it('need the half-signed-in session: a code alone signs nobody in', async () => {
    const res = await new Client(t.app).post('/v1/sessions', { recovery_code: 'abcd-efgh-jkmn' });
    expect(res.status).toBe(401);
  });

  it('are regenerated from the profile with the password; the old set stops working', async () => {
    const email = DEMO('telemarketer');
    const { client, codes } = await enroll(email);
    expect((await client.patch('/v1/users/two_factor/recovery_codes', { password: 'wrong' })).status).toBe(422);
    const fresh = await client.patch('/v1/users/two_factor/recovery_codes', { password: DEMO_PASSWORD });
    expect(fresh.status).toBe(200);
    expect(fresh.body.recovery_codes).toHaveLength(10);
    const c = await codeStep(email);
    expect((await c.post('/v1/sessions', { recovery_code: codes[0] })).status).toBe(422);
    expect((await c.post('/v1/sessions', { recovery_code: fresh.body.recovery_codes[0] })).status).toBe(200);
  });

  it('come with emailed codes too (update_2fa turns two-factor on), and go when it is turned off', async () => {
    const email = DEMO('sub_admin');
    const c = await signIn(t.app, email);
    const on = await c.patch('/v1/users/update_2fa', { otp_method: 'email', password: DEMO_PASSWORD });
    expect(on.body.recovery_codes).toHaveLength(10);
    // Changing the method later does not silently replace the set the person wrote down.
    const again = await c.patch('/v1/users/update_2fa', { otp_method: 'email', password: DEMO_PASSWORD });
    expect(again.body.recovery_codes).toBeUndefined();
    expect((await c.patch('/v1/users/two_factor/disable', { password: DEMO_PASSWORD })).status).toBe(200);
    expect((await c.get('/v1/users/two_factor/recovery_codes')).body.left).toBe(0);
    const noTwoFactor = await c.patch('/v1/users/two_factor/recovery_codes', { password: DEMO_PASSWORD });
    expect(noTwoFactor.status).toBe(422);
  });
});

describe('two-factor required by the company', () => {
  it('cannot be turned off, even with the right password', async () => {
    const email = DEMO('basic');
    const { client } = await enroll(email);
    const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
    const [co] = await t.database.db.select().from(companies).where(eq(companies.id, u.companyId));
    await t.database.db
      .update(companies)
      .set({ features: { ...co.features, two_factor_required: true } })
      .where(eq(companies.id, co.id));
    try {
      const me = await client.get('/v1/users/me');
      expect(me.body['two_fa_is_required?']).toBe(true);
      const off = await client.patch('/v1/users/two_factor/disable', { password: DEMO_PASSWORD });
      expect(off.status).toBe(422);
      expect(off.body.errors.user[0]).toMatch(/required .* cannot be turned off/);
      expect((await client.get('/v1/users/me')).body['has_2fa_enabled?']).toBe(true);
    } finally {
      await t.database.db.update(companies).set({ features: co.features }).where(eq(companies.id, co.id));
    }
  });
});
