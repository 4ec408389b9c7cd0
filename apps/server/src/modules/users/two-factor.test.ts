import { eq } from 'drizzle-orm';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Codes of the previous/next 30 s step are accepted too (clock drift); a code for step n is `generate` at n*30 s. */
const codeAt = (secret: string, step: number) => generate({ secret, epoch: step * 30 });
const nowStep = () => Math.floor(Date.now() / 30_000);

async function enroll(c: Client) {
  const qr = await c.patch('/v1/users/two_factor/generate_qr');
  expect(qr.status).toBe(200);
  expect(qr.body.qr_code).toMatch(/^data:image\/png;base64,/);
  expect(qr.body.otpauth_url).toContain(`secret=${qr.body.secret}`);
  const enabled = await c.patch('/v1/users/two_factor/enable', {
    otp_code: await codeAt(qr.body.secret, nowStep() - 1),
  });
  expect(enabled.status).toBe(200);
  expect(enabled.body['has_2fa_enabled?']).toBe(true);
  return qr.body.secret as string;
}

describe('two-factor setup and sign-in', () => {
  it('enrols, then asks for a code at sign-in without revealing the secret, and a code works once', async () => {
    const email = DEMO('regional_manager');
    const secret = await enroll(await signIn(t.app, email));

    const c = new Client(t.app);
    const step1 = await c.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(step1.status).toBe(200);
    expect(step1.body).toMatchObject({ otp_secret: true, otp_method: 'app' });
    expect(JSON.stringify(step1.body)).not.toContain(secret);
    // Half signed in: nothing but the code step and sign-out.
    expect((await c.get('/v1/users/me')).status).toBe(401);

    const wrong = await c.post('/v1/sessions', { otp_code: '000000' });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors.otp_code).toEqual(['Invalid authentication code']);

    const code = await codeAt(secret, nowStep());
    const ok = await c.post('/v1/sessions', { otp_code: code });
    expect(ok.status).toBe(200);
    expect(ok.body.user.email).toBe(email);
    expect(ok.body.user.last_otp_at).not.toBeNull();

    // The same code again, on a new password step, is refused: a TOTP code works once.
    const again = new Client(t.app);
    await again.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect((await again.post('/v1/sessions', { otp_code: code })).status).toBe(422);
  });

  it('refuses a code step without the half-signed-in session', async () => {
    const res = await new Client(t.app).post('/v1/sessions', { otp_code: '123456' });
    expect(res.status).toBe(401);
  });

  it('refuses a malformed code with 422', async () => {
    const res = await new Client(t.app).post('/v1/sessions', { otp_code: '12ab' });
    expect(res.status).toBe(422);
  });

  it('emails a one-time code (send_otp) that signs in once', async () => {
    const email = DEMO('bu_admin');
    await enroll(await signIn(t.app, email));
    const c = new Client(t.app);
    await c.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect((await c.patch('/v1/users/two_factor/send_otp')).status).toBe(204);
    const mails = (await c.get('/v1/dev/mails')).body.data.filter((m: any) => m.to === email);
    const mail = (await c.get(`/v1/dev/mails/${mails[0].id}`)).body;
    const code = mail.text.match(/\b(\d{6})\b/)[1];
    expect((await c.post('/v1/sessions', { otp_code: code })).status).toBe(200);
    const reuse = new Client(t.app);
    await reuse.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect((await reuse.post('/v1/sessions', { otp_code: code })).status).toBe(422);
  });

  it('switches to emailed codes (update_2fa) with the password, and refuses a wrong one', async () => {
    const email = DEMO('sub_admin');
    const c = await signIn(t.app, email);
    expect((await c.patch('/v1/users/update_2fa', { otp_method: 'email', password: 'wrong' })).status).toBe(422);
    const bad = await c.patch('/v1/users/update_2fa', { otp_method: 'sms', password: DEMO_PASSWORD });
    expect(bad.status).toBe(422);
    const noApp = await c.patch('/v1/users/update_2fa', { otp_method: 'app', password: DEMO_PASSWORD });
    expect(noApp.body.errors.otp_method).toBeDefined();
    const ok = await c.patch('/v1/users/update_2fa', { otp_method: 'email', password: DEMO_PASSWORD });
    expect(ok.body).toMatchObject({ otp_method: 'email', 'has_2fa_enabled?': true });
    const login = await new Client(t.app).post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(login.body).toMatchObject({ otp_secret: true, otp_method: 'email' });
  });

  it('turns two-factor off with the password, unless the account requires it', async () => {
    const email = DEMO('manager');
    const c = await signIn(t.app, email);
    await enroll(c);
    expect((await c.patch('/v1/users/two_factor/disable', { password: 'nope' })).status).toBe(422);
    await t.database.db.update(users).set({ twoFaRequired: true }).where(eq(users.email, email));
    const refused = await c.patch('/v1/users/two_factor/disable', { password: DEMO_PASSWORD });
    expect(refused.status).toBe(422);
    await t.database.db.update(users).set({ twoFaRequired: false }).where(eq(users.email, email));
    const off = await c.patch('/v1/users/two_factor/disable', { password: DEMO_PASSWORD });
    expect(off.body['has_2fa_enabled?']).toBe(false);
    expect((await new Client(t.app).post('/v1/sessions', { email, password: DEMO_PASSWORD })).body.user).toBeDefined();
  });

  it('refuses enable without a started setup and with a wrong code', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    expect((await c.patch('/v1/users/two_factor/enable', { otp_code: '123456' })).status).toBe(422);
    await c.patch('/v1/users/two_factor/generate_qr');
    const wrong = await c.patch('/v1/users/two_factor/enable', { otp_code: '000000' });
    expect(wrong.status).toBe(422);
    expect((await c.get('/v1/users/me')).body['has_2fa_enabled?']).toBe(false);
  });
});
