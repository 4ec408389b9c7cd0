import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';

let t: TestApp;
let agent: Client;
let manager: Client;

beforeAll(async () => {
  t = await createTestApp();
  [agent, manager] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('manager'))]);
});
afterAll(() => t.close());

describe('/v1/users/quick_filters', () => {
  it('saves, lists, shows, renames and deletes the caller’s own filters', async () => {
    const data = { search: [{ field: 'state', value: ['AZ'] }], order_field: 'created_at', columns: ['name', 'state'] };
    const created = await agent.post('/v1/users/quick_filters', { name: 'Arizona, newest', data });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Arizona, newest', data });
    const id = created.body.id;
    const list = await agent.get('/v1/users/quick_filters');
    expect(list.body.map((f: any) => f.name)).toEqual(['Arizona, newest', 'Florida clients']);
    expect((await agent.get(`/v1/users/quick_filters/${id}`)).body.data).toEqual(data);
    const empty = await agent.patch(`/v1/users/quick_filters/${id}`, {});
    expect(empty.status).toBe(422);
    expect(empty.body.errors.name).toEqual(['Give a name or data to change']);
    const renamed = await agent.patch(`/v1/users/quick_filters/${id}`, { name: 'AZ' });
    expect(renamed.body).toMatchObject({ name: 'AZ', data });
    expect((await agent.delete(`/v1/users/quick_filters/${id}`)).status).toBe(204);
    expect((await agent.get(`/v1/users/quick_filters/${id}`)).status).toBe(404);
  });

  it('keeps filters private to their owner and refuses bad input', async () => {
    const [mine] = (await agent.get('/v1/users/quick_filters')).body;
    expect((await manager.get('/v1/users/quick_filters')).body).toEqual([]);
    expect((await manager.get(`/v1/users/quick_filters/${mine.id}`)).status).toBe(404);
    expect((await manager.patch(`/v1/users/quick_filters/${mine.id}`, { name: 'mine now' })).status).toBe(404);
    expect((await manager.delete(`/v1/users/quick_filters/${mine.id}`)).status).toBe(404);
    const bad = await agent.post('/v1/users/quick_filters', { name: '   ' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.name).toBeDefined();
    expect((await agent.get('/v1/users/quick_filters/abc')).status).toBe(404);
  });
});
