import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { todayIn } from './birthdays.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const iso = (x: Date) => x.toISOString().slice(0, 10);
const yearsBefore = (x: Date, years: number, plusDays = 0) => {
  const y = new Date(x.getTime() + plusDays * 86_400_000);
  y.setUTCFullYear(y.getUTCFullYear() - years);
  return iso(y);
};

describe('dashboard birthdays in the current user', () => {
  it("lists the caller's visible clients and prospects by the chosen range, soonest first", async () => {
    const agent = await signIn(t.app, DEMO('agent'));
    const me = (await agent.get('/v1/users/me')).body;
    const today = todayIn(me.timezone);
    // Nobody else's birthdays: clear every date of birth, then plant three on contacts the agent owns.
    await t.database.query('update contacts set date_of_birth = null');
    const owned = await t.database.query<{ id: number }>(
      'select id from contacts where owner_id = $1 and deleted_at is null order by id limit 3',
      [me.id],
    );
    await t.database.query(
      `update contacts set type = 'client', date_of_birth = $2, first_name = 'Today' where id = $1`,
      [owned[0].id, yearsBefore(today, 65)],
    );
    await t.database.query(`update contacts set type = 'lead', date_of_birth = $2, first_name = 'Soon' where id = $1`, [
      owned[1].id,
      yearsBefore(today, 70, 3),
    ]);
    await t.database.query(
      `update contacts set type = 'lead', date_of_birth = $2, first_name = 'Later' where id = $1`,
      [owned[2].id, yearsBefore(today, 64, 20)],
    );
    // Someone else's contact with a birthday today is not the agent's to see.
    await t.database.query(
      `update contacts set type = 'client', date_of_birth = $1 where id = (
         select id from contacts where owner_id <> $2 and (pool_id is null) and deleted_at is null limit 1)`,
      [yearsBefore(today, 80), me.id],
    );

    const week = (await agent.get('/v1/users/me')).body.dashboard_info.birthdays;
    expect(week.clients.map((c: any) => [c.first_name, c.turns, c.days_until])).toEqual([['Today', 65, 0]]);
    expect(week.prospects.map((c: any) => [c.first_name, c.turns, c.days_until])).toEqual([['Soon', 70, 3]]);

    const month = await agent.patch('/v1/users/dashboard', {
      birthday_range: 'month',
      show_clients: false,
      show_prospects: true,
      favorite_user_ids: [],
    });
    expect(month.status).toBe(200);
    const m = month.body.dashboard_info.birthdays;
    expect(m.clients).toEqual([]);
    expect(m.prospects.map((c: any) => c.first_name)).toEqual(['Soon', 'Later']);
  });
});
