import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../../test/harness.js';
import { users } from '../../../platform/db/schema.js';
import { userRemovals } from './schema.js';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const u of await t.database.db.select().from(users)) ids[u.email] = u.id;
});
afterAll(() => t.close());

const id = (role: string) => ids[DEMO(role)];
const newUser = (over: Record<string, unknown> = {}) => ({
  first_name: 'Nora',
  last_name: 'Quinn',
  email: `nora.${Math.random().toString(36).slice(2, 8)}@demo.harbor.test`,
  password: 'temporary-pass-123',
  account_type: 'agent',
  ...over,
});

describe('GET /v1/admin/users', () => {
  it('lists the whole company for an admin, with search, filters and paging', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const all = await admin.get('/v1/admin/users');
    expect(all.status).toBe(200);
    expect(all.body.meta).toEqual({ current_page: 1, limit: 25, total_count: 11, total_pages: 1 });
    expect(all.body.data.every((u: any) => !u.email.endsWith('recruit.harbor.test'))).toBe(true);
    expect((await admin.get('/v1/admin/users?q=diaz')).body.data.map((u: any) => u.email)).toEqual([DEMO('agent')]);
    expect((await admin.get('/v1/admin/users?q=angela%20diaz')).body.meta.total_count).toBe(1);
    expect((await admin.get('/v1/admin/users?role=agent')).body.meta.total_count).toBe(2);
    const north = all.body.data.find((u: any) => u.email === DEMO('agent')).business_unit.id;
    const byUnit = await admin.get(`/v1/admin/users?business_unit_id=${north}`);
    expect(byUnit.body.data.every((u: any) => u.business_unit?.id === north)).toBe(true);
    const page = await admin.get('/v1/admin/users?limit=4&page=3');
    expect(page.body.meta).toEqual({ current_page: 3, limit: 4, total_count: 11, total_pages: 3 });
    expect(page.body.data).toHaveLength(3);
  });

  it('shows a manager their downline at any depth, a BU admin their unit, and refuses an agent', async () => {
    const manager = await signIn(t.app, DEMO('manager'));
    const mine = (await manager.get('/v1/admin/users')).body.data.map((u: any) => u.email).sort();
    expect(mine).toEqual([DEMO('agent'), DEMO('telemarketer'), 'newhire@demo.harbor.test'].sort());
    const rm = await signIn(t.app, DEMO('regional_manager'));
    expect((await rm.get('/v1/admin/users')).body.meta.total_count).toBe(7); // four levels below
    const bu = await signIn(t.app, DEMO('bu_admin'));
    const unit = (await bu.get('/v1/admin/users')).body.data;
    expect(unit.every((u: any) => u.business_unit?.name === 'North Region')).toBe(true);
    expect(unit).toHaveLength(5);
    const agent = await signIn(t.app, DEMO('agent'));
    expect((await agent.get('/v1/admin/users')).status).toBe(403);
  });

  it('refuses bad query values', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    expect((await admin.get('/v1/admin/users?limit=1000')).status).toBe(422);
    expect((await admin.get('/v1/admin/users?role=emperor')).body.errors.role).toBeDefined();
  });
});

describe('GET/PATCH /v1/admin/users/{id}', () => {
  it('answers 404 for the other company, 403 outside reach, 200 inside', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    expect((await admin.get(`/v1/admin/users/${ids[RECRUIT('agent')]}`)).status).toBe(404);
    const manager = await signIn(t.app, DEMO('manager'));
    expect((await manager.get(`/v1/admin/users/${id('district_manager')}`)).status).toBe(403);
    expect((await manager.get(`/v1/admin/users/${id('admin')}`)).status).toBe(403);
    const agent = await manager.get(`/v1/admin/users/${id('agent')}`);
    expect(agent.status).toBe(200);
    expect(agent.body.manager).toEqual({ id: id('manager'), name: 'Monica Reyes' });
  });

  it('edits a profile and refuses fields that are not profile fields (mass assignment)', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const ok = await admin.patch(`/v1/admin/users/${id('telemarketer')}`, {
      about_me: 'Calls all day',
      timezone: 'pst',
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ about_me: 'Calls all day', timezone: 'pst' });
    for (const body of [
      { roles: ['admin'] },
      { company_id: 2 },
      { features: { sms_campaigns: true } },
      { basic: false },
    ]) {
      const res = await admin.patch(`/v1/admin/users/${id('telemarketer')}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    const manager = await signIn(t.app, DEMO('manager'));
    expect((await manager.patch(`/v1/admin/users/${id('manager')}`, { first_name: 'Me' })).status).toBe(403);
    // A manager may edit a downline user's profile but not the email, where password resets go.
    const email = await manager.patch(`/v1/admin/users/${id('agent')}`, { email: 'taken-over@demo.harbor.test' });
    expect(email.status).toBe(403);
    expect(email.body.errors.user).toEqual(["Only an admin can change another user's email."]);
    expect((await manager.patch(`/v1/admin/users/${id('agent')}`, { first_name: 'Angie' })).status).toBe(200);
    expect((await admin.get(`/v1/admin/users/${id('agent')}`)).body.email).toBe(DEMO('agent'));
  });

  it('keeps the tree whole: no upline outside reach, no cycles', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const cycle = await admin.patch(`/v1/admin/users/${id('manager')}`, { manager_id: id('agent') });
    expect(cycle.status).toBe(422);
    expect(cycle.body.errors.manager_id).toBeDefined();
    const foreign = await admin.patch(`/v1/admin/users/${id('agent')}`, { manager_id: ids[RECRUIT('manager')] });
    expect(foreign.status).toBe(422);
    const manager = await signIn(t.app, DEMO('manager'));
    const away = await manager.patch(`/v1/admin/users/${id('agent')}`, { manager_id: id('district_manager') });
    expect(away.status).toBe(422);
    const bu = await signIn(t.app, DEMO('bu_admin'));
    const south = (await admin.get('/v1/business_units/manageable')).body.data.find((b: any) => b.number === 'BU-2');
    expect((await bu.patch(`/v1/admin/users/${id('agent')}`, { business_unit_id: south.id })).status).toBe(422);
  });

  it('quick-updates exactly one field', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const one = await admin.patch(`/v1/admin/users/${id('agent')}/quick_update`, { last_name: 'Diaz-Lopez' });
    expect(one.status).toBe(200);
    expect(one.body.last_name).toBe('Diaz-Lopez');
    const two = await admin.patch(`/v1/admin/users/${id('agent')}/quick_update`, { first_name: 'A', last_name: 'B' });
    expect(two.status).toBe(422);
    expect((await admin.patch(`/v1/admin/users/${id('agent')}/quick_update`, { email: 'bad' })).status).toBe(422);
  });
});

describe('POST /v1/admin/users', () => {
  it('lets an admin create a manager and an agent under them, whom the manager then sees', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const mgr = await admin.post('/v1/admin/users', newUser({ account_type: 'manager', first_name: 'Max' }));
    expect(mgr.status).toBe(201);
    expect(mgr.body).toMatchObject({ roles: ['manager'], account_type: 'manager', change_password: true });
    expect(mgr.body.number).toMatch(/^U-\d+$/);
    const agent = await admin.post('/v1/admin/users', newUser({ manager_id: mgr.body.id }));
    expect(agent.status).toBe(201);
    const email = mgr.body.email;
    const asManager = await signIn(t.app, email, 'temporary-pass-123');
    const seen = (await asManager.get('/v1/admin/users')).body.data.map((u: any) => u.id);
    expect(seen).toEqual([agent.body.id]);
  });

  it("puts a manager's new user under the manager and refuses roles outside their list", async () => {
    const manager = await signIn(t.app, DEMO('manager'));
    const created = await manager.post('/v1/admin/users', newUser());
    expect(created.status).toBe(201);
    expect(created.body.manager.id).toBe(id('manager'));
    expect(created.body.business_unit.name).toBe('North Region');
    for (const role of ['manager', 'admin', 'bu_admin', 'regional_manager']) {
      const res = await manager.post('/v1/admin/users', newUser({ account_type: role }));
      expect(res.status, role).toBe(422);
      expect(res.body.errors.account_type).toBeDefined();
    }
    const sub = await signIn(t.app, DEMO('sub_admin'));
    expect((await sub.post('/v1/admin/users', newUser({ account_type: 'admin' }))).status).toBe(422);
    expect((await sub.post('/v1/admin/users', newUser({ account_type: 'bu_admin' }))).status).toBe(422);
  });

  it('refuses duplicates, bad input and smuggled fields', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const dup = await admin.post('/v1/admin/users', newUser({ email: DEMO('agent') }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors.email).toEqual(['has already been taken']);
    expect((await admin.post('/v1/admin/users', newUser({ password: 'short' }))).body.errors.password).toBeDefined();
    expect((await admin.post('/v1/admin/users', newUser({ company_id: 2 }))).status).toBe(422);
    expect((await admin.post('/v1/admin/users', newUser({ roles: ['admin'] }))).status).toBe(422);
  });
});

describe('roles', () => {
  it('lists what the caller may assign, by variant and flags', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const r = await admin.get(`/v1/admin/users/${id('agent')}/roles`);
    expect(r.body.roles).toEqual(['agent']);
    const values = r.body.assignable.map((o: any) => o.value);
    expect(values).toContain('regional_manager');
    expect(values).not.toContain('pool_holder');
    const recruiting = await signIn(t.app, RECRUIT('admin'));
    const rr = await recruiting.get(`/v1/admin/users/${ids[RECRUIT('agent')]}/roles`);
    const labels = Object.fromEntries(rr.body.assignable.map((o: any) => [o.value, o.label]));
    expect(labels).toMatchObject({ bu_admin: 'Business Admin', manager: 'Lead Recruiter', agent: 'Recruiter' });
    expect(labels.pool_holder).toBe('Pool Holder');
    for (const hidden of ['sub_admin', 'district_manager', 'field_manager', 'telemarketer', 'regional_manager'])
      expect(labels[hidden]).toBeUndefined();
  });

  it('assigns allowed roles, refuses others and refuses changing your own', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const ok = await admin.patch(`/v1/admin/users/${id('telemarketer')}/update_roles`, { roles: ['sub_admin'] });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ roles: ['sub_admin', 'admin'], account_type: 'sub_admin' });
    await admin.patch(`/v1/admin/users/${id('telemarketer')}/update_roles`, { roles: ['telemarketer'] });
    expect((await admin.patch(`/v1/admin/users/${id('admin')}/update_roles`, { roles: ['agent'] })).status).toBe(403);
    expect((await admin.patch(`/v1/admin/users/${id('agent')}/update_roles`, { roles: [] })).status).toBe(422);
    expect((await admin.patch(`/v1/admin/users/${id('agent')}/update_roles`, { roles: ['pool_holder'] })).status).toBe(
      422,
    );
    const manager = await signIn(t.app, DEMO('manager'));
    const up = await manager.patch(`/v1/admin/users/${id('agent')}/update_roles`, { roles: ['manager'] });
    expect(up.status).toBe(422);
    const down = await manager.patch(`/v1/admin/users/${id('agent')}/update_roles`, { roles: ['field_manager'] });
    expect(down.status).toBe(200);
    const sub = await signIn(t.app, DEMO('sub_admin'));
    // A sub_admin holds 'admin' through the mapping but does not outrank the System Admin.
    expect((await sub.get(`/v1/admin/users/${id('admin')}/roles`)).status).toBe(403);
    const bu = await signIn(t.app, DEMO('bu_admin'));
    expect((await bu.patch(`/v1/admin/users/${id('agent')}/update_roles`, { roles: ['bu_admin'] })).status).toBe(422);
  });
});

describe('DELETE /v1/admin/users/{id}', () => {
  it('asks what happens to the contacts, records the answer and keeps the tree whole', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const mgr = await admin.post('/v1/admin/users', newUser({ account_type: 'manager' }));
    const agent = await admin.post('/v1/admin/users', newUser({ manager_id: mgr.body.id }));
    const asMgr = await signIn(t.app, mgr.body.email, 'temporary-pass-123');
    expect((await admin.delete(`/v1/admin/users/${mgr.body.id}`, {})).status).toBe(422);
    const noTarget = await admin.delete(`/v1/admin/users/${mgr.body.id}`, { contacts_action: 'transfer' });
    expect(noTarget.body.errors.transfer_to_user_id).toBeDefined();
    const foreign = await admin.delete(`/v1/admin/users/${mgr.body.id}`, {
      contacts_action: 'transfer',
      transfer_to_user_id: ids[RECRUIT('agent')],
    });
    expect(foreign.status).toBe(422);
    // Give both people a few contacts to see where they go.
    const book = (userId: number) =>
      t.database.query<{ id: string; owner_id: number | null }>(
        'select id, owner_id from contacts where created_by = $1 order by id',
        [userId],
      );
    await t.database.query(
      `update contacts set owner_id = $1, created_by = $1 where id in (
         select id from contacts where owner_id = $2 and deleted_at is null order by id limit 3)`,
      [mgr.body.id, id('agent')],
    );
    await t.database.query(
      `update contacts set owner_id = $1, created_by = $1 where id in (
         select id from contacts where owner_id = $2 and deleted_at is null order by id limit 2)`,
      [agent.body.id, id('agent')],
    );
    const res = await admin.delete(`/v1/admin/users/${mgr.body.id}`, {
      contacts_action: 'transfer',
      transfer_to_user_id: id('manager'),
    });
    expect(res.status).toBe(204);
    const moved = await book(mgr.body.id);
    expect(moved.map((c) => c.owner_id)).toEqual([id('manager'), id('manager'), id('manager')]);
    const events = await t.database.query<{ n: number }>(
      "select count(*)::int as n from contact_events where kind = 'owner_changed' and contact_id = any($1::bigint[])",
      [moved.map((c) => c.id)],
    );
    expect(events[0].n).toBe(3);
    expect((await admin.get(`/v1/admin/users/${mgr.body.id}`)).status).toBe(404);
    expect((await asMgr.get('/v1/users/me')).status).toBe(401);
    const [removal] = await t.database.db.select().from(userRemovals).where(eq(userRemovals.userId, mgr.body.id));
    expect(removal).toMatchObject({ contactsAction: 'transfer', transferToUserId: id('manager') });
    expect(removal.appliedAt).not.toBeNull();
    // The deleted manager's agent moved up to the deleted manager's upline (none: top of the tree).
    expect((await admin.get(`/v1/admin/users/${agent.body.id}`)).body.manager).toBeNull();
    const keep = await admin.delete(`/v1/admin/users/${agent.body.id}`, { contacts_action: 'keep_unassigned' });
    expect(keep.status).toBe(204);
    expect((await book(agent.body.id)).map((c) => c.owner_id)).toEqual([null, null]);
  });

  it('refuses deleting yourself or someone outside reach', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const self = await admin.delete(`/v1/admin/users/${id('admin')}`, { contacts_action: 'keep_unassigned' });
    expect(self.status).toBe(403);
    const manager = await signIn(t.app, DEMO('manager'));
    const far = await manager.delete(`/v1/admin/users/${id('basic')}`, { contacts_action: 'keep_unassigned' });
    expect(far.status).toBe(403);
  });
});
