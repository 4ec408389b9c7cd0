/**
 * Issue 15: the development inbox exists only in development (and the embedded demo), answers only the machine
 * itself, and never shows mail across companies to anyone but a System Admin; a signed-out browser reads only the
 * mail it caused (its reset link, its sign-in code).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function mailsOf(c: Client, to: string, subject: RegExp) {
  for (let i = 0; i < 200; i++) {
    const list = (await c.get('/v1/dev/mails')).body.data as Array<{ id: number; to: string; subject: string }>;
    const hit = list.filter((m) => m.to === to && subject.test(m.subject));
    if (hit.length) return hit;
    await new Promise((r) => setTimeout(r, 25));
  }
  return [];
}

describe('development inbox', () => {
  it('shows a signed-out browser the reset link it asked for, and nobody else signed out', async () => {
    const mine = new Client(t.app);
    await mine.post('/v1/users/reset_password_instructions', { email: DEMO('agent') });
    const [mail] = await mailsOf(mine, DEMO('agent'), /Reset/);
    expect(mail).toBeDefined();
    expect((await mine.get(`/v1/dev/mails/${mail.id}`)).body.text).toMatch(/reset_password_token=/);

    const stranger = new Client(t.app);
    await stranger.get('/v1/health');
    expect((await stranger.get('/v1/dev/mails')).body.data).toEqual([]);
    expect((await stranger.get(`/v1/dev/mails/${mail.id}`)).status).toBe(404);
    const cookieless = new Client(t.app);
    expect((await cookieless.get('/v1/dev/mails')).body.data).toEqual([]);
  });

  it('shows a signed-in user only their own mail, and a System Admin all of it', async () => {
    await new Client(t.app).post('/v1/users/reset_password_instructions', { email: RECRUIT('agent') });
    await new Client(t.app).post('/v1/users/reset_password_instructions', { email: DEMO('manager') });
    await t.deps.jobs.drain();
    const agent = await signIn(t.app, DEMO('agent'));
    const seen = (await agent.get('/v1/dev/mails')).body.data.map((m: { to: string }) => m.to);
    expect(seen.length).toBeGreaterThan(0);
    expect(new Set(seen)).toEqual(new Set([DEMO('agent')]));

    const otherCompany = await signIn(t.app, RECRUIT('manager'));
    const theirs = (await otherCompany.get('/v1/dev/mails')).body.data.map((m: { to: string }) => m.to);
    expect(theirs).not.toContain(DEMO('agent'));
    expect(theirs).not.toContain(RECRUIT('agent'));

    const admin = await signIn(t.app, DEMO('admin'));
    const all = (await admin.get('/v1/dev/mails')).body.data.map((m: { to: string }) => m.to);
    expect(all).toEqual(expect.arrayContaining([DEMO('agent'), RECRUIT('agent'), DEMO('manager')]));
  });

  it('answers only the machine itself, by a loopback name', async () => {
    const remote = new Client(t.app);
    remote.ip = '192.0.2.10';
    const res = await remote.get('/v1/dev/mails');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ errors: { path: ['No route for GET /v1/dev/mails'] } });
    // A page that rebinds its own name to 127.0.0.1 still sends its own Host.
    const rebound = await t.app.inject({ method: 'GET', url: '/v1/dev/mails', headers: { host: 'evil.example:3000' } });
    expect(rebound.statusCode).toBe(404);
    const local = await t.app.inject({ method: 'GET', url: '/v1/dev/mails', headers: { host: '127.0.0.1:3000' } });
    expect(local.statusCode).toBe(200);
  });

  it('does not exist on stage, nor on a demo with a database server', async () => {
    for (const env of [{ HARBOR_ENV: 'stage' }, { HARBOR_ENV: 'demo', DATABASE_URL: 'postgres://x@127.0.0.1/none' }]) {
      const { devInboxEnabled } = await import('./routes.js');
      const { loadConfig } = await import('../../config.js');
      expect(devInboxEnabled(loadConfig(env)), JSON.stringify(env)).toBe(false);
    }
    const { devInboxEnabled } = await import('./routes.js');
    const { loadConfig } = await import('../../config.js');
    expect(devInboxEnabled(loadConfig({ HARBOR_ENV: 'demo' }))).toBe(true);
    expect(devInboxEnabled(loadConfig({ SMTP_URL: 'smtp://mail.example:25' }))).toBe(false);
    const stage = await createTestApp({ env: { HARBOR_ENV: 'stage' } });
    try {
      expect((await new Client(stage.app).get('/v1/dev/mails')).status).toBe(404);
    } finally {
      await stage.close();
    }
  });
});
