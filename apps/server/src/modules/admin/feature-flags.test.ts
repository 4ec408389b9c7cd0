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

describe('/v1/admin/feature_flags', () => {
  it('turning SMS off for the company takes it from the agent on the server and in their permissions', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const agent = await signIn(t.app, DEMO('agent'));
    expect((await agent.get('/v1/users/me')).body.permissions).toContain('sms.use');
    const res = await admin.put('/v1/admin/feature_flags', { company: { sms_campaigns: false } });
    expect(res.status).toBe(200);
    expect(res.body.company.sms_campaigns).toBe(false);
    const me = (await agent.get('/v1/users/me')).body;
    expect(me.features.sms_campaigns).toBe(false);
    expect(me.permissions).not.toContain('sms.use');
    // The other company is untouched.
    const other = await signIn(t.app, RECRUIT('agent'));
    expect((await other.get('/v1/users/me')).body.features.sms_campaigns).toBe(true);
  });

  it('a per-user override wins over the company, and null removes it', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const agentId = ids[DEMO('agent')];
    await admin.put('/v1/admin/feature_flags', { company: { reports: false } });
    const on = await admin.put('/v1/admin/feature_flags', {
      users: [{ user_id: agentId, overrides: { reports: true } }],
    });
    expect(on.body.users).toEqual([
      { user_id: agentId, name: 'Angela Diaz', email: DEMO('agent'), overrides: { reports: true } },
    ]);
    const agent = await signIn(t.app, DEMO('agent'));
    expect((await agent.get('/v1/users/me')).body.permissions).toContain('reports.view');
    expect((await (await signIn(t.app, DEMO('telemarketer'))).get('/v1/users/me')).body.permissions).not.toContain(
      'reports.view',
    );
    const off = await admin.put('/v1/admin/feature_flags', {
      users: [{ user_id: agentId, overrides: { reports: null } }],
    });
    expect(off.body.users).toEqual([]);
    expect((await agent.get('/v1/users/me')).body.permissions).not.toContain('reports.view');
  });

  it('a basic user loses reports and follow-ups whatever the flags say', async () => {
    const basic = await signIn(t.app, DEMO('basic'));
    const me = (await basic.get('/v1/users/me')).body;
    for (const p of [
      'reports.view',
      'follow_ups.use',
      'external_accounts.use',
      'marketing_profile.use',
      'contact_permissions.use',
    ])
      expect(me.permissions).not.toContain(p);
  });

  it('refuses unknown flags, non-booleans, other companies’ users and everyone but the System Admin', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    expect((await admin.put('/v1/admin/feature_flags', { company: { teleport: true } })).status).toBe(422);
    expect((await admin.put('/v1/admin/feature_flags', { company: { dialer: 'yes' } })).status).toBe(422);
    const foreign = await admin.put('/v1/admin/feature_flags', {
      users: [{ user_id: ids[RECRUIT('agent')], overrides: { dialer: false } }],
    });
    expect(foreign.status).toBe(404);
    const sub = await signIn(t.app, DEMO('sub_admin'));
    expect((await sub.put('/v1/admin/feature_flags', { company: { dialer: false } })).status).toBe(403);
    expect((await sub.get('/v1/admin/feature_flags')).status).toBe(403);
  });
});

describe('GET /v1/admin/features', () => {
  it('lists the catalogue with the company’s values for any admin', async () => {
    const sub = await signIn(t.app, DEMO('sub_admin'));
    const res = await sub.get('/v1/admin/features');
    expect(res.status).toBe(200);
    expect(res.body.data.find((f: any) => f.key === 'regional_manager')).toMatchObject({ enabled: true });
    expect(res.body.data.find((f: any) => f.key === 'training_app')).toMatchObject({ enabled: false, default: false });
    expect((await (await signIn(t.app, DEMO('manager'))).get('/v1/admin/features')).status).toBe(403);
  });
});
