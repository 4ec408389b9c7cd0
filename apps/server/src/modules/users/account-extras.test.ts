import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const u of await t.database.db.select().from(users)) ids[u.email] = u.id;
});
afterAll(() => t.close());
const id = (role: string) => ids[DEMO(role)];

describe('PATCH /v1/users/update_profile', () => {
  it('updates names, about me, a title of the company variant and an office', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const office = (await agent.get('/v1/users/office_locations')).body.data[0];
    const res = await agent.patch('/v1/users/update_profile', {
      first_name: 'Angie',
      about_me: 'Medicare since 2010',
      position_title: 'licensed_insurance_agent',
      office_location_id: office.id,
    });
    expect(res.status).toBe(200);
    expect(res.body.profile).toMatchObject({
      first_name: 'Angie',
      about_me: 'Medicare since 2010',
      position_title: 'licensed_insurance_agent',
      office_location_id: office.id,
    });
  });

  it('refuses titles of another variant, foreign offices and privileged fields', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    expect((await agent.patch('/v1/users/update_profile', { position_title: 'funeral_director' })).status).toBe(422);
    const foreign = (await (await signIn(t.app, RECRUIT('agent'))).get('/v1/users/office_locations')).body.data[0];
    expect((await agent.patch('/v1/users/update_profile', { office_location_id: foreign.id })).status).toBe(422);
    for (const body of [
      { roles: ['admin'] },
      { account_type: 'admin' },
      { company_id: 2 },
      { features: { dialer: true } },
    ]) {
      expect((await agent.patch('/v1/users/update_profile', body)).status, JSON.stringify(body)).toBe(422);
    }
    const me = (await agent.get('/v1/users/me')).body;
    expect(me.roles).toEqual(['agent']);
  });
});

describe('PATCH /v1/users/{id}', () => {
  it('changes your username; a new email needs the current password; nobody else’s', async () => {
    const agent = await signIn(t.app, DEMO('field_manager'));
    expect((await agent.patch(`/v1/users/${id('field_manager')}`, { username: 'fiona.p' })).body.username).toBe(
      'fiona.p',
    );
    const noPw = await agent.patch(`/v1/users/${id('field_manager')}`, { email: 'fiona@demo.harbor.test' });
    expect(noPw.status).toBe(422);
    const ok = await agent.patch(`/v1/users/${id('field_manager')}`, {
      email: 'fiona@demo.harbor.test',
      current_password: 'harbor-demo-2026',
    });
    expect(ok.body.email).toBe('fiona@demo.harbor.test');
    expect((await agent.patch(`/v1/users/${id('field_manager')}`, { username: 'manager.demo' })).status).toBe(422);
    expect((await agent.patch(`/v1/users/${id('telemarketer')}`, { username: 'x-y-z' })).status).toBe(403);
    expect((await agent.patch(`/v1/users/${ids[RECRUIT('agent')]}`, { username: 'x-y-z' })).status).toBe(404);
    expect((await agent.patch(`/v1/users/${id('field_manager')}`, { roles: ['admin'] })).status).toBe(422);
  });
});

describe('PATCH /v1/users/{id}/update_webpage', () => {
  it('sets the webpage; subdomains are unique and reserved ones refused; basic users have none', async () => {
    const agent = await signIn(t.app, DEMO('telemarketer'));
    const res = await agent.patch(`/v1/users/${id('telemarketer')}/update_webpage`, {
      subdomain: 'Tyler-Brooks',
      active: true,
      headline: 'Your Medicare guide',
    });
    expect(res.status).toBe(200);
    expect(res.body.webpage).toEqual({
      subdomain: 'tyler-brooks',
      active: true,
      headline: 'Your Medicare guide',
      phone: null,
      show_email: false,
    });
    const manager = await signIn(t.app, DEMO('manager'));
    const taken = await manager.patch(`/v1/users/${id('manager')}/update_webpage`, { subdomain: 'tyler-brooks' });
    expect(taken.body.errors.subdomain).toEqual(['has already been taken']);
    expect((await manager.patch(`/v1/users/${id('manager')}/update_webpage`, { subdomain: 'www' })).status).toBe(422);
    // A manager may set up the page of someone in their downline, not of someone outside it.
    expect((await manager.patch(`/v1/users/${id('telemarketer')}/update_webpage`, { active: false })).status).toBe(200);
    expect((await manager.patch(`/v1/users/${id('basic')}/update_webpage`, { active: false })).status).toBe(403);
    const basic = await signIn(t.app, DEMO('basic'));
    expect((await basic.patch(`/v1/users/${id('basic')}/update_webpage`, { active: true })).status).toBe(403);
  });
});

describe('favourites and dashboard', () => {
  it('replaces the favourite set, lists it, and stores dashboard preferences', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const res = await agent.patch('/v1/users/dashboard', {
      favorite_user_ids: [id('manager'), id('telemarketer')],
      birthday_range: 'month',
    });
    expect(res.status).toBe(200);
    expect(res.body.favorite_users.sort()).toEqual([id('manager'), id('telemarketer')].sort());
    expect(res.body.dashboard_info.preferences).toEqual({
      birthday_range: 'month',
      show_clients: true,
      show_prospects: true,
    });
    const list = await agent.get('/v1/users/favorite_lists');
    expect(list.body.data.map((u: any) => u.name)).toEqual(['Tyler Brooks', 'Monica Reyes']);
    expect((await agent.patch('/v1/users/dashboard', { favorite_user_ids: [ids[RECRUIT('agent')]] })).status).toBe(422);
    expect((await agent.patch('/v1/users/dashboard', { favorite_user_ids: [id('agent')] })).status).toBe(422);
    expect((await agent.patch('/v1/users/dashboard', { birthday_range: 'year' })).status).toBe(422);
    expect((await agent.patch('/v1/users/dashboard', { favorite_user_ids: [] })).body.favorite_users).toEqual([]);
  });
});

describe('signups', () => {
  it('records a signup that admins list; others may not list them', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const res = await agent.post('/v1/users/signups', { first_name: 'Pat', last_name: 'Lane', email: 'pat@x.test' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: 'pending', sponsor: { id: id('agent') } });
    expect((await agent.post('/v1/users/signups', { first_name: 'Pat', email: 'nope' })).status).toBe(422);
    expect((await agent.get('/v1/admin/signups')).status).toBe(403);
    const admin = await signIn(t.app, DEMO('admin'));
    const list = await admin.get('/v1/admin/signups');
    expect(list.body.meta.total_count).toBe(1);
    expect(list.body.data[0].email).toBe('pat@x.test');
    expect((await (await signIn(t.app, RECRUIT('admin'))).get('/v1/admin/signups')).body.data).toEqual([]);
    expect((await admin.get('/v1/admin/signups?page=0')).status).toBe(422);
  });
});

describe('GET /v1/users/auth_ips', () => {
  it('lists addresses you signed in from, not the address of someone impersonating you', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const before = (await agent.get('/v1/users/auth_ips')).body.data[0].sign_in_count;
    await signIn(t.app, DEMO('agent'));
    const admin = await signIn(t.app, DEMO('admin'));
    await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'impersonate' });
    const res = await agent.get('/v1/users/auth_ips');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ ip: '127.0.0.1', sign_in_count: before + 1 });
    expect(res.body.meta.total_count).toBe(1);
    expect((await agent.get('/v1/users/me')).body.auth_ips.data).toHaveLength(1);
    expect((await agent.get('/v1/users/auth_ips?limit=0')).status).toBe(422);
  });
});
