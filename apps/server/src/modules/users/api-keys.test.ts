import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** A cookie-less caller holding only an API key, sending no CSRF header. */
function keyClient(token: string) {
  const c = new Client(t.app);
  c.csrf = false;
  return {
    get: (url: string) => c.request('GET', url, undefined, { authorization: `Bearer ${token}` }),
    patch: (url: string, body: unknown) => c.request('PATCH', url, body, { authorization: `Bearer ${token}` }),
  };
}

describe('/v1/users/api_keys', () => {
  it('creates a key, shows its token once, and the key acts with exactly its owner’s permissions', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const created = await agent.post('/v1/users/api_keys', { name: 'Zapier' });
    expect(created.status).toBe(201);
    expect(created.body.token).toMatch(/^hk_/);
    expect(created.body.token_prefix).toBe(created.body.token.slice(0, 10));
    const list = await agent.get('/v1/users/api_keys');
    expect(list.body.data.map((k: any) => k.name)).toEqual(['Zapier']);
    expect(JSON.stringify(list.body)).not.toContain(created.body.token);
    expect((await agent.get(`/v1/users/api_keys/${created.body.id}`)).body.token).toBeUndefined();
    expect((await agent.get('/v1/users/me')).body.api_keys).toHaveLength(1);

    const api = keyClient(created.body.token);
    const me = await api.get('/v1/users/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe(DEMO('agent'));
    expect((await api.get('/v1/admin/users')).status).toBe(403);
    // A write without any CSRF header works for a key (no cookie is involved).
    expect((await api.patch('/v1/users/update_timezone', { timezone: 'cst' })).status).toBe(200);
    expect((await api.get(`/v1/users/api_keys/${created.body.id}`)).body.last_used_at).not.toBeNull();
  });

  it('renames, refreshes (old token dead at once) and revokes (refused at once)', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const created = (await agent.post('/v1/users/api_keys', { name: 'Old' })).body;
    expect((await agent.patch(`/v1/users/api_keys/${created.id}`, { name: 'New' })).body.name).toBe('New');
    const refreshed = await agent.patch(`/v1/users/api_keys/${created.id}/refresh_token`);
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.token).not.toBe(created.token);
    expect((await keyClient(created.token).get('/v1/users/me')).status).toBe(401);
    const api = keyClient(refreshed.body.token);
    expect((await api.get('/v1/users/me')).status).toBe(200);
    expect((await agent.delete(`/v1/users/api_keys/${created.id}`)).status).toBe(204);
    expect((await api.get('/v1/users/me')).status).toBe(401);
    expect((await agent.get(`/v1/users/api_keys/${created.id}`)).status).toBe(404);
  });

  it("refuses bad input, other people's keys, garbage tokens and keys made while impersonating", async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    expect((await agent.post('/v1/users/api_keys', { name: '' })).status).toBe(422);
    expect((await agent.post('/v1/users/api_keys', { name: 'x', user_id: 1 })).status).toBe(422);
    const colleague = await signIn(t.app, DEMO('telemarketer'));
    const theirs = (await colleague.post('/v1/users/api_keys', { name: 'Mine' })).body;
    expect((await agent.get(`/v1/users/api_keys/${theirs.id}`)).status).toBe(404);
    expect((await agent.delete(`/v1/users/api_keys/${theirs.id}`)).status).toBe(404);
    const foreignAdmin = await signIn(t.app, RECRUIT('admin'));
    const foreignKey = (await foreignAdmin.get('/v1/users/api_keys')).body.data[0];
    expect((await agent.get(`/v1/users/api_keys/${foreignKey.id}`)).status).toBe(404);
    expect((await keyClient('hk_nonsense').get('/v1/users/me')).status).toBe(401);
    const admin = await signIn(t.app, DEMO('admin'));
    await admin.post(`/v1/admin/users/${(await agent.get('/v1/users/me')).body.id}/login`, {
      login_type: 'impersonate',
    });
    expect((await admin.post('/v1/users/api_keys', { name: 'Backdoor' })).status).toBe(403);
  });

  it('stops a deleted user’s key', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const basic = await signIn(t.app, DEMO('basic'));
    const key = (await basic.post('/v1/users/api_keys', { name: 'k' })).body;
    const id = (await basic.get('/v1/users/me')).body.id;
    await admin.delete(`/v1/admin/users/${id}`, { contacts_action: 'keep_unassigned' });
    expect((await keyClient(key.token).get('/v1/users/me')).status).toBe(401);
  });
});
