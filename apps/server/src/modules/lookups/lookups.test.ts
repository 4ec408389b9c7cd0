import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';

let t: TestApp;
let admin: Client;
let subAdmin: Client;
let manager: Client;
let agent: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [admin, subAdmin, manager, agent, foreign] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('sub_admin')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

describe('lookups for every signed-in user', () => {
  it("lists the company's active statuses, sources, agent-flow statuses by group and carriers by q", async () => {
    const s = (await agent.get('/v1/statuses')).body.data.map((x: { name: string }) => x.name);
    expect(s).toEqual(['New', 'Contacted', 'Appointment Set', 'Sold', 'Not Interested']);
    expect((await agent.get('/v1/sources')).body.data.map((x: { name: string }) => x.name)).toContain('Referral');
    const flow = (await agent.get('/v1/agentflow_statuses')).body;
    expect(flow.groups.map((g: { name: string }) => g.name)).toEqual(['Prospecting', 'Enrollment']);
    expect(flow.groups[0].statuses[0].name).toBe('Needs Call');
    const carriers = (await agent.get('/v1/carriers?q=mut')).body.data;
    expect(carriers).toEqual([expect.objectContaining({ name: 'Mutual of Omaha', naic: '71412' })]);
    expect((await agent.get('/v1/carriers?q=%25')).body.data).toEqual([]);
    expect((await agent.get('/v1/carriers')).body.data).toHaveLength(6);
    expect((await agent.get('/v1/carriers?bogus=1')).status).toBe(422);
  });

  it('keeps companies apart', async () => {
    const mine = (await agent.get('/v1/statuses')).body.data.map((x: { id: number }) => x.id);
    const theirs = (await foreign.get('/v1/statuses')).body.data.map((x: { id: number }) => x.id);
    expect(mine.filter((id: number) => theirs.includes(id))).toEqual([]);
  });

  it('shows API vendors to admins and managers only', async () => {
    expect((await manager.get('/v1/api_vendors')).body.data).toHaveLength(2);
    expect((await admin.get('/v1/api_vendors')).status).toBe(200);
    expect((await agent.get('/v1/api_vendors')).status).toBe(403);
  });
});

describe('admin CRUD', () => {
  it('creates, shows, updates and deletes a status; duplicates are 422; inactive ones leave the picker', async () => {
    const created = await subAdmin.post('/v1/admin/statuses', { name: 'Callback', color: 'orange', position: 9 });
    expect(created.status).toBe(201);
    const url = `/v1/admin/statuses/${created.body.id}`;
    expect((await admin.get(url)).body.name).toBe('Callback');
    const dup = await admin.post('/v1/admin/statuses', { name: 'callback' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors.name).toEqual(['has already been taken']);
    expect((await admin.patch(url, { name: 'Sold' })).status).toBe(422);
    expect((await admin.patch(url, { active: false })).body.active).toBe(false);
    expect((await agent.get('/v1/statuses')).body.data.map((x: { name: string }) => x.name)).not.toContain('Callback');
    expect((await admin.get('/v1/admin/statuses')).body.data.map((x: { name: string }) => x.name)).toContain(
      'Callback',
    );
    expect((await admin.delete(url)).status).toBe(204);
    expect((await admin.get(url)).status).toBe(404);
  });

  it('refuses to delete a status contacts use, naming the count', async () => {
    const status = (await admin.get('/v1/admin/statuses')).body.data.find(
      (x: { name: string }) => x.name === 'Contacted',
    );
    // The demo book already uses it; one more contact makes the count move.
    const [{ n }] = await t.database.query<{ n: number }>(
      'select count(*)::int as n from contacts where status_id = $1',
      [status.id],
    );
    await newContact(agent, { status_id: status.id });
    const res = await admin.delete(`/v1/admin/statuses/${status.id}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.base[0]).toMatch(new RegExp(`^is used by ${n + 1} contacts`));
  });

  it('manages sources, carriers and agent-flow statuses the same way', async () => {
    const src = await admin.post('/v1/admin/sources', { name: 'Trade Show' });
    expect(src.status).toBe(201);
    expect((await admin.patch(`/v1/admin/sources/${src.body.id}`, { name: 'Trade Fair' })).body.name).toBe(
      'Trade Fair',
    );
    const car = await admin.post('/v1/admin/carriers', { name: 'Anthem', naic: '28207' });
    expect(car.status).toBe(201);
    expect((await admin.post('/v1/admin/carriers', { name: 'Bad', naic: 'abc' })).status).toBe(422);
    expect((await admin.post('/v1/admin/carriers', { name: 'Humana' })).status).toBe(422);
    const groups = (await admin.get('/v1/agentflow_statuses')).body.groups;
    const flow = await admin.post('/v1/admin/agentflow_statuses', { name: 'Docs Signed', group_id: groups[1].id });
    expect(flow.status).toBe(201);
    const foreignGroups = (await foreign.get('/v1/agentflow_statuses')).body.groups;
    const bad = await admin.post('/v1/admin/agentflow_statuses', { name: 'X', group_id: foreignGroups[0].id });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.group_id).toEqual(['does not exist']);
    expect((await admin.post('/v1/admin/sources', { name: 'X', company_id: 2 })).status).toBe(422);
  });

  it("refuses non-admins (403) and another company's ids (404)", async () => {
    expect((await manager.get('/v1/admin/statuses')).status).toBe(403);
    expect((await agent.post('/v1/admin/carriers', { name: 'X' })).status).toBe(403);
    const theirs = (await foreign.get('/v1/statuses')).body.data[0].id;
    expect((await admin.patch(`/v1/admin/statuses/${theirs}`, { name: 'Mine' })).status).toBe(404);
    expect((await admin.delete(`/v1/admin/statuses/${theirs}`)).status).toBe(404);
  });

  it('replaces agent-flow status groups: rename, create, delete (statuses become ungrouped)', async () => {
    const before = (await admin.get('/v1/agentflow_statuses')).body.groups;
    const [prospecting, enrollment] = before;
    const res = await admin.patch('/v1/admin/agentflow_status_groups', {
      groups: [{ id: enrollment.id, name: 'Enrolment' }, { name: 'Retention' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.groups.map((g: { name: string }) => g.name)).toEqual(['Enrolment', 'Retention']);
    const ungrouped = res.body.ungrouped.map((s: { name: string }) => s.name);
    for (const s of prospecting.statuses) expect(ungrouped).toContain(s.name);
    const foreignGroup = (await foreign.get('/v1/agentflow_statuses')).body.groups[0].id;
    expect(
      (await admin.patch('/v1/admin/agentflow_status_groups', { groups: [{ id: foreignGroup, name: 'X' }] })).status,
    ).toBe(422);
    expect(
      (await admin.patch('/v1/admin/agentflow_status_groups', { groups: [{ name: 'A' }, { name: 'a' }] })).status,
    ).toBe(422);
    expect((await manager.patch('/v1/admin/agentflow_status_groups', { groups: [] })).status).toBe(403);
    // The refused requests changed nothing.
    expect((await admin.get('/v1/agentflow_statuses')).body.groups.map((g: { name: string }) => g.name)).toEqual([
      'Enrolment',
      'Retention',
    ]);
  });
});
