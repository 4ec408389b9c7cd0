import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../../test/harness.js';
import { auditEvents } from '../../../platform/audit/schema.js';
import { users } from '../../../platform/db/schema.js';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const u of await t.database.db.select().from(users)) ids[u.email] = u.id;
});
afterAll(() => t.close());
const id = (role: string) => ids[DEMO(role)];

describe('POST /v1/admin/users/{id}/login', () => {
  it('impersonates on a new session, audits it, and signing out returns to the admin', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const before = admin.cookies.get('harbor_session');
    const res = await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'impersonate' });
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe(DEMO('agent'));
    expect(res.body.user.login_stack).toEqual([{ kind: 'impersonating', user_id: id('admin'), name: 'Alicia Grant' }]);
    expect(admin.cookies.get('harbor_session')).not.toBe(before);
    const me = await admin.get('/v1/users/me');
    expect(me.body.email).toBe(DEMO('agent'));
    expect(me.body.permissions).not.toContain('admin.manage');
    expect((await admin.get('/v1/admin/users')).status).toBe(403);
    const [event] = await t.database.db
      .select()
      .from(auditEvents)
      .where(and(eq(auditEvents.event, 'impersonation_started'), eq(auditEvents.userId, id('agent'))));
    expect(event).toMatchObject({ actorId: id('admin'), data: { login_type: 'impersonate', kind: 'impersonating' } });
    const back = await admin.delete('/v1/sessions');
    expect(back.status).toBe(200);
    expect(back.body.user.email).toBe(DEMO('admin'));
    expect(back.body.user.login_stack).toEqual([]);
  });

  it('records login_as with the level the caller acted from, and stacks nested sign-ins', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const asMgr = await admin.post(`/v1/admin/users/${id('manager')}/login`, { login_type: 'login_as' });
    expect(asMgr.body.user.login_stack[0].kind).toBe('logged_as_admin');
    const nested = await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'login_as' });
    expect(nested.status).toBe(200);
    expect(nested.body.user.login_stack.map((e: any) => e.kind)).toEqual(['logged_as_admin', 'logged_as_manager']);
    expect((await admin.delete('/v1/sessions')).body.user.email).toBe(DEMO('manager'));
    expect((await admin.delete('/v1/sessions')).body.user.email).toBe(DEMO('admin'));
  });

  it('does not demand two-factor of an impersonated session', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const res = await admin.post(`/v1/admin/users/${ids['newhire@demo.harbor.test']}/login`, {
      login_type: 'impersonate',
    });
    expect(res.status).toBe(200);
    expect(res.body.user['two_fa_is_required?']).toBe(true);
    expect((await admin.get('/v1/users/me')).status).toBe(200);
  });

  it('refuses bad input, yourself, people out of reach and other companies', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    expect((await admin.post(`/v1/admin/users/${id('agent')}/login`, { login_type: 'become' })).status).toBe(422);
    expect((await admin.post(`/v1/admin/users/${id('admin')}/login`, { login_type: 'impersonate' })).status).toBe(403);
    const foreign = await admin.post(`/v1/admin/users/${ids[RECRUIT('agent')]}/login`, { login_type: 'impersonate' });
    expect(foreign.status).toBe(404);
    const manager = await signIn(t.app, DEMO('manager'));
    expect((await manager.post(`/v1/admin/users/${id('admin')}/login`, { login_type: 'impersonate' })).status).toBe(
      403,
    );
    const agent = await signIn(t.app, DEMO('agent'));
    expect(
      (await agent.post(`/v1/admin/users/${id('telemarketer')}/login`, { login_type: 'impersonate' })).status,
    ).toBe(403);
  });
});

describe('POST /v1/sessions/{id}', () => {
  it('switches the session to a user in reach and back', async () => {
    const manager = await signIn(t.app, DEMO('manager'));
    const res = await manager.post(`/v1/sessions/${id('agent')}`);
    expect(res.status).toBe(200);
    expect(res.body.user.login_stack).toEqual([
      { kind: 'impersonating', user_id: id('manager'), name: 'Monica Reyes' },
    ]);
    expect((await manager.delete('/v1/sessions')).body.user.email).toBe(DEMO('manager'));
    expect((await manager.post(`/v1/sessions/${id('basic')}`)).status).toBe(403);
    expect((await manager.post(`/v1/sessions/${id('agent')}`, { login_type: 'x' })).status).toBe(422);
  });
});

describe('paid membership, pickers and business units', () => {
  it('grants and withdraws paid membership (admins only)', async () => {
    const admin = await signIn(t.app, DEMO('admin'));
    const off = await admin.post(`/v1/admin/users/${id('agent')}/paid_membership`, { paid: false });
    expect(off.status).toBe(200);
    expect(off.body.paid).toBe(false);
    expect((await admin.post(`/v1/admin/users/${id('agent')}/paid_membership`, {})).body.paid).toBe(true);
    expect((await admin.post(`/v1/admin/users/${id('agent')}/paid_membership`, { paid: 'yes' })).status).toBe(422);
    const manager = await signIn(t.app, DEMO('manager'));
    expect((await manager.post(`/v1/admin/users/${id('agent')}/paid_membership`, {})).status).toBe(403);
  });

  it('lists owners in reach and pool holders / relationship managers', async () => {
    const manager = await signIn(t.app, DEMO('manager'));
    const owners = (await manager.get('/v1/admin/users/owners')).body.data.map((o: any) => o.email).sort();
    expect(owners).toEqual([DEMO('agent'), DEMO('manager'), DEMO('telemarketer'), 'newhire@demo.harbor.test'].sort());
    const recruiting = await signIn(t.app, RECRUIT('admin'));
    const pool = (await recruiting.get('/v1/admin/users/pool_holders')).body.data.map((o: any) => o.email);
    expect(pool).toEqual([RECRUIT('pool_holder')]);
    expect((await recruiting.get('/v1/admin/users/pool_holders?only_rm=true')).body.data).toEqual([]);
    await recruiting.patch(`/v1/admin/users/${ids[RECRUIT('manager')]}`, { relationship_manager: true });
    const rms = (await recruiting.get('/v1/admin/users/pool_holders?only_rm=true')).body.data.map((o: any) => o.id);
    expect(rms).toEqual([ids[RECRUIT('manager')]]);
    expect((await recruiting.get('/v1/admin/users/pool_holders?only_rm=maybe')).status).toBe(422);
  });

  it('answers the business units the caller manages', async () => {
    const names = async (role: string) =>
      (await (await signIn(t.app, DEMO(role))).get('/v1/business_units/manageable')).body.data.map((b: any) => b.name);
    expect(await names('admin')).toEqual(['North Region', 'South Region']);
    expect(await names('bu_admin')).toEqual(['North Region']);
    expect(await names('manager')).toEqual(['North Region']);
    expect(await names('agent')).toEqual([]);
    const recruiting = await signIn(t.app, RECRUIT('admin'));
    expect((await recruiting.get('/v1/business_units/manageable')).body.data).toEqual([]);
  });
});
