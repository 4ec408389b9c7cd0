/**
 * CSRF tokens bound to the session (issue 15): HMAC of the session with the server secret, a pre-login token bound
 * to an anonymous browser id, rotated at sign-in and at sign-out. A token is worthless in any other session.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, DEMO_PASSWORD, signIn, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const write = (c: Client) => c.patch('/v1/users/update_timezone', { timezone: 'cst' });

describe('CSRF bound to the session', () => {
  it('refuses a self-made cookie and header pair (plain double submit would accept it)', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    expect((await write(c)).status).toBe(200);
    c.cookies.set('csrf_token', 'attacker-chosen-value-0123456789');
    const res = await write(c);
    expect(res.status).toBe(403);
    expect(res.body.errors.csrf).toBeDefined();
  });

  it("refuses another session's token", async () => {
    const a = await signIn(t.app, DEMO('agent'));
    const b = await signIn(t.app, DEMO('manager'));
    b.cookies.set('csrf_token', a.cookies.get('csrf_token')!);
    expect((await write(b)).status).toBe(403);
    expect((await write(a)).status).toBe(200);
  });

  it('gives a signed-out browser a pre-login token, and rotates it at sign-in', async () => {
    const c = new Client(t.app);
    await c.get('/v1/health');
    const pre = c.cookies.get('csrf_token')!;
    expect(pre).toBeTruthy();
    expect(c.cookies.get('harbor_pre')).toBeTruthy();
    // Another browser's pre-login token does not work here.
    const other = new Client(t.app);
    await other.get('/v1/health');
    const stolen = new Client(t.app);
    stolen.cookies.set('harbor_pre', c.cookies.get('harbor_pre')!);
    stolen.cookies.set('csrf_token', other.cookies.get('csrf_token')!);
    expect((await stolen.post('/v1/sessions', { email: DEMO('agent'), password: DEMO_PASSWORD })).status).toBe(403);

    const ok = await c.post('/v1/sessions', { email: DEMO('agent'), password: DEMO_PASSWORD });
    expect(ok.status).toBe(200);
    const signedIn = c.cookies.get('csrf_token')!;
    expect(signedIn).not.toBe(pre);
    expect((await write(c)).status).toBe(200);
    // The pre-login token is dead once signed in.
    c.cookies.set('csrf_token', pre);
    expect((await write(c)).status).toBe(403);
  });

  it('hands a fresh pre-login token on sign-out, so signing in again just works', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    const inSession = c.cookies.get('csrf_token');
    expect((await c.delete('/v1/sessions')).status).toBe(204);
    expect(c.cookies.get('csrf_token')).not.toBe(inSession);
    expect((await c.post('/v1/sessions', { email: DEMO('agent'), password: DEMO_PASSWORD })).status).toBe(200);
  });

  it('needs the header on every write even with a valid cookie', async () => {
    const c = await signIn(t.app, DEMO('agent'));
    c.csrf = false;
    expect((await write(c)).status).toBe(403);
  });
});
