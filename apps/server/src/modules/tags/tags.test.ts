import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';

let t: TestApp;
let agent: Client;
let basic: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [agent, basic, foreign] = await Promise.all([
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('basic')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

describe('tags', () => {
  it('lists with search and paging, counting contacts per tag', async () => {
    const all = await agent.patch('/v1/tags', {});
    expect(all.status).toBe(200);
    expect(all.body.meta).toMatchObject({ current_page: 1, total_count: 5 });
    const hot = all.body.data.find((x: { name: string }) => x.name === 'Hot Lead');
    await newContact(agent, { tag_ids: [hot.id] });
    const found = await agent.patch('/v1/tags', { search: 'hot' });
    // The demo book already tags some contacts Hot Lead; the new one adds one.
    expect(found.body.data).toEqual([
      { id: hot.id, name: 'Hot Lead', color: 'red', contacts_count: hot.contacts_count + 1 },
    ]);
    const page2 = await agent.patch('/v1/tags', { page: 2, limit: 2 });
    expect(page2.body.data).toHaveLength(2);
    expect(page2.body.meta).toEqual({ current_page: 2, limit: 2, total_count: 5, total_pages: 3 });
    expect((await agent.patch('/v1/tags', { search: '%' })).body.data).toEqual([]);
    expect((await agent.patch('/v1/tags', { limit: 10_000 })).status).toBe(422);
    expect((await agent.patch('/v1/tags', { q: 'x' })).status).toBe(422);
  });

  it('creates a tag for any user; a duplicate name (any case) is 422; companies are apart', async () => {
    const res = await basic.post('/v1/tags', { name: 'Veteran', color: 'green' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: 'Veteran', color: 'green', contacts_count: 0 });
    const dup = await agent.post('/v1/tags', { name: 'veteran', color: 'blue' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(['has already been taken']);
    expect((await agent.post('/v1/tags', { name: 'X', color: 'chartreuse' })).status).toBe(422);
    expect((await agent.post('/v1/tags', { name: '', color: 'blue' })).status).toBe(422);
    expect((await foreign.post('/v1/tags', { name: 'Veteran', color: 'blue' })).status).toBe(201);
    expect((await foreign.patch('/v1/tags', { search: 'veteran' })).body.data).toHaveLength(1);
  });
});
