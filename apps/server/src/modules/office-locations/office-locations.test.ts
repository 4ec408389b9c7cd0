import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('office locations', () => {
  it('lists the company’s offices, main first, to every user', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const res = await agent.get('/v1/users/office_locations');
    expect(res.status).toBe(200);
    expect(res.body.data.map((o: any) => [o.name, o.office_type])).toEqual([
      ['Head Office', 'main'],
      ['Riverside Branch', 'branch'],
    ]);
    expect(res.body.meta).toEqual({ current_page: 1, limit: 25, total_count: 2, total_pages: 1 });
    expect((await agent.get('/v1/admin/office_locations')).status).toBe(403);
  });

  it('lets admins add, change and remove offices, one main office at most', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const created = await admin.post('/v1/admin/office_locations', {
      name: 'Bay Branch',
      office_type: 'branch',
      state: 'FL',
      zip_code: '33701',
    });
    expect(created.status).toBe(201);
    const second = await admin.post('/v1/admin/office_locations', { name: 'Other HQ', office_type: 'main' });
    expect(second.status).toBe(422);
    expect(second.body.errors.office_type).toBeDefined();
    expect(
      (await admin.post('/v1/admin/office_locations', { name: 'x', office_type: 'branch', zip_code: '1' })).status,
    ).toBe(422);
    expect((await admin.post('/v1/admin/office_locations', { name: 'x', office_type: 'hq' })).status).toBe(422);
    const put = await admin.put(`/v1/admin/office_locations/${created.body.id}`, {
      name: 'Bay Office',
      office_type: 'branch',
    });
    expect(put.body).toMatchObject({ name: 'Bay Office', state: null });
    expect((await admin.get(`/v1/admin/office_locations/${created.body.id}`)).body.name).toBe('Bay Office');
    const agent = await signIn(t.app, DEMO('agent'));
    await agent.patch('/v1/users/update_profile', { office_location_id: created.body.id });
    expect((await admin.delete(`/v1/admin/office_locations/${created.body.id}`)).status).toBe(204);
    expect((await admin.get(`/v1/admin/office_locations/${created.body.id}`)).status).toBe(404);
    expect((await agent.get('/v1/users/me')).body.profile.office_location_id).toBeNull();
  });

  it('answers 404 for another company’s office', async () => {
    const other = await signIn(t.app, RECRUIT('admin'));
    const foreign = (await other.get('/v1/admin/office_locations')).body.data[0];
    const admin = await signIn(t.app, DEMO('admin'));
    expect((await admin.get(`/v1/admin/office_locations/${foreign.id}`)).status).toBe(404);
    expect(
      (await admin.put(`/v1/admin/office_locations/${foreign.id}`, { name: 'Mine', office_type: 'branch' })).status,
    ).toBe(404);
  });
});
