import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { contacts } from '../contacts/schema.js';
import { newContact, userId } from '../contacts/test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let district: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent, district, foreign] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('district_manager')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

describe('groups', () => {
  it('lists for everyone; managers create, rename and delete; deleting detaches contacts, never deletes them', async () => {
    expect((await agent.get('/v1/groups')).body.data.map((g: { name: string }) => g.name)).toContain('Turning 65');
    const g = await manager.post('/v1/groups', { name: 'Spring Seminar' });
    expect(g.status).toBe(201);
    expect((await manager.post('/v1/groups', { name: 'spring seminar' })).status).toBe(422);
    expect((await manager.patch(`/v1/groups/${g.body.id}`, { name: 'Spring Seminar 2026' })).body.name).toBe(
      'Spring Seminar 2026',
    );
    const c = await newContact(agent, { group_id: g.body.id });
    expect((await agent.get(`/v1/groups/${g.body.id}`)).body.contacts_count).toBe(1);
    expect((await agent.delete(`/v1/groups/${g.body.id}`)).status).toBe(403);
    expect((await manager.delete(`/v1/groups/${g.body.id}`)).status).toBe(204);
    const after = (await agent.get(`/v1/contacts/${c.number}`)).body;
    expect(after.group).toBeNull();
    expect(after.timeline[0]).toMatchObject({ kind: 'group_removed', data: { name: 'Spring Seminar 2026' } });
  });

  it('refuses agents (403), foreign groups (404) and bad names (422)', async () => {
    expect((await agent.post('/v1/groups', { name: 'Mine' })).status).toBe(403);
    const theirs = (await foreign.get('/v1/groups')).body.data[0].id;
    expect((await agent.get(`/v1/groups/${theirs}`)).status).toBe(404);
    expect((await manager.patch(`/v1/groups/${theirs}`, { name: 'X' })).status).toBe(404);
    expect((await manager.post('/v1/groups', { name: '' })).status).toBe(422);
    expect((await manager.post('/v1/groups', { name: 'X', company_id: 1 })).status).toBe(422);
  });
});

describe('pools', () => {
  it('admins create pools with holders; holders see the pool and its contacts; others do not', async () => {
    const districtId = await userId(t, DEMO('district_manager'));
    const p = await admin.post('/v1/pools', { name: 'Seminar Leads', holder_ids: [districtId] });
    expect(p.status).toBe(201);
    expect(p.body.holders).toEqual([{ id: districtId, name: 'Dennis Hale' }]);
    const c = await newContact(admin, { pool_id: p.body.id });
    expect((await district.get(`/v1/contacts/${c.number}`)).status).toBe(200);
    expect((await district.get('/v1/pools')).body.data.map((x: { name: string }) => x.name)).toEqual(['Seminar Leads']);
    expect((await agent.get(`/v1/pools/${p.body.id}`)).status).toBe(404);
    expect((await agent.get(`/v1/contacts/${c.number}`)).status).toBe(404);

    const agentId = await userId(t, DEMO('agent'));
    const moved = await admin.patch(`/v1/pools/${p.body.id}`, { holder_ids: [agentId] });
    expect(moved.body.holders.map((h: { id: number }) => h.id)).toEqual([agentId]);
    expect((await agent.get(`/v1/contacts/${c.number}`)).status).toBe(200);
    expect((await district.get(`/v1/contacts/${c.number}`)).status).toBe(404);
  });

  it('deleting a pool keeps its contacts (detached, with their owner)', async () => {
    const p = (await admin.post('/v1/pools', { name: 'Temp Pool' })).body;
    const c = await newContact(admin, { pool_id: p.id, owner_id: await userId(t, DEMO('agent')) });
    expect((await admin.delete(`/v1/pools/${p.id}`)).status).toBe(204);
    const [row] = await t.database.db.select().from(contacts).where(eq(contacts.id, c.id));
    expect(row).toMatchObject({ poolId: null, deletedAt: null });
    expect((await agent.get(`/v1/contacts/${c.number}`)).status).toBe(200);
  });

  it('refuses non-admins (403), foreign holders (422) and foreign pools (404)', async () => {
    expect((await manager.post('/v1/pools', { name: 'Mine' })).status).toBe(403);
    const theirUser = await userId(t, RECRUIT('agent'));
    const res = await admin.post('/v1/pools', { name: 'Bad', holder_ids: [theirUser] });
    expect(res.status).toBe(422);
    expect(res.body.errors.holder_ids).toBeDefined();
    expect((await admin.get('/v1/pools')).body.data.map((x: { name: string }) => x.name)).not.toContain('Bad');
    const theirs = (await foreign.get('/v1/pools')).body.data[0].id;
    expect((await admin.delete(`/v1/pools/${theirs}`)).status).toBe(404);
    expect((await admin.post('/v1/pools', { name: 'Shared Leads' })).status).toBe(422);
  });
});
