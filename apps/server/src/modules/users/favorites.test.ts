import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { favoriteUsers } from './schema.js';

let t: TestApp;
const ids: Record<string, number> = {};
beforeAll(async () => {
  t = await createTestApp();
  for (const u of await t.database.db.select().from(users)) ids[u.email] = u.id;
});
afterAll(() => t.close());

const emails = (list: { email: string }[]) => list.map((u) => u.email).sort();

describe('favourite users: who may be picked', () => {
  it('offers an agent their upline, teammates and nobody else; the agent can pick and list them', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const res = await agent.get('/v1/users/favorite_lists');
    expect(res.status).toBe(200);
    // Upline: Monica (manager) and Rafael (regional manager); teammates under Monica: Tyler and the new hire.
    expect(emails(res.body.candidates)).toEqual(
      [DEMO('manager'), DEMO('regional_manager'), DEMO('telemarketer'), 'newhire@demo.harbor.test'].sort(),
    );
    const picked = await agent.patch('/v1/users/dashboard', {
      favorite_user_ids: [ids[DEMO('regional_manager')], ids[DEMO('telemarketer')]],
    });
    expect(picked.status).toBe(200);
    expect(emails((await agent.get('/v1/users/favorite_lists')).body.data)).toEqual(
      [DEMO('regional_manager'), DEMO('telemarketer')].sort(),
    );
  });

  it('narrows candidates with q and caps them with limit', async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    expect(emails((await agent.get('/v1/users/favorite_lists?q=reyes')).body.candidates)).toEqual([DEMO('manager')]);
    expect((await agent.get('/v1/users/favorite_lists?q=%25')).body.candidates).toEqual([]);
    expect((await agent.get('/v1/users/favorite_lists?limit=1')).body.candidates).toHaveLength(1);
    expect((await agent.get('/v1/users/favorite_lists?limit=0')).status).toBe(422);
    expect((await agent.get(`/v1/users/favorite_lists?q=${'x'.repeat(101)}`)).status).toBe(422);
  });

  it("refuses, writing nothing, a colleague outside the agent's team, another company's user or oneself", async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const before = await t.database.db
      .select()
      .from(favoriteUsers)
      .where(eq(favoriteUsers.userId, ids[DEMO('agent')]));
    for (const outsider of [DEMO('basic'), DEMO('field_manager'), DEMO('admin'), RECRUIT('agent'), DEMO('agent')]) {
      const res = await agent.patch('/v1/users/dashboard', {
        favorite_user_ids: [ids[DEMO('manager')], ids[outsider]],
      });
      expect(res.status, outsider).toBe(422);
      expect(res.body.errors.favorite_user_ids).toBeDefined();
    }
    const after = await t.database.db
      .select()
      .from(favoriteUsers)
      .where(eq(favoriteUsers.userId, ids[DEMO('agent')]));
    expect(after).toEqual(before);
  });

  it('offers a manager their downline and upline, an admin the whole company (never themselves)', async () => {
    const manager = await signIn(t.app, DEMO('manager'));
    const m = emails((await manager.get('/v1/users/favorite_lists')).body.candidates);
    expect(m).toContain(DEMO('agent'));
    expect(m).toContain(DEMO('regional_manager'));
    expect(m).not.toContain(DEMO('basic'));
    expect(m).not.toContain(DEMO('manager'));
    const admin = await signIn(t.app, DEMO('admin'));
    const a = emails((await admin.get('/v1/users/favorite_lists?limit=500')).body.candidates);
    expect(a).toContain(DEMO('basic'));
    expect(a).not.toContain(DEMO('admin'));
    expect(a.every((e) => e.endsWith('@demo.harbor.test'))).toBe(true);
  });

  it('lists a stored favourite only while it stays pickable (no name leaks through an old id)', async () => {
    const basic = ids[DEMO('basic')];
    await t.database.db.insert(favoriteUsers).values({ userId: ids[DEMO('telemarketer')], favoriteUserId: basic });
    const tele = await signIn(t.app, DEMO('telemarketer'));
    expect(emails((await tele.get('/v1/users/favorite_lists')).body.data)).not.toContain(DEMO('basic'));
  });

  it('needs a session', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/v1/users/favorite_lists' })).statusCode).toBe(401);
  });
});
