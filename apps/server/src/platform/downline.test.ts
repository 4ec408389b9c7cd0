/**
 * The stored tree paths behind "me and everyone below me" (platform/downline.ts, migration user_tree_path_triggers):
 * whatever writes manager_id, by whichever route or by SQL, the paths and so every downline stay true.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/harness.js';
import { downlineUserIds, isInDownline } from './downline.js';

let t: TestApp;
let company: number;
let other: number;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

let n = 0;
async function user(manager: number | null, companyId = company, id?: number): Promise<number> {
  n++;
  const [row] = await q<{ id: number }>(
    `insert into users (id, company_id, manager_id, number, email, username, password_hash, account_type, roles)
     values (coalesce($5, nextval('users_id_seq'))::int, $1, $2, $3, $4, $4, 'x', 'agent', '{agent}') returning id`,
    [companyId, manager, `T-${n}`, `tree${n}@tree.test`, id ?? null],
  );
  return row.id;
}
const below = async (id: number, companyId = company) => (await downlineUserIds(t.database.db, companyId, id)).sort();
const pathOf = async (id: number) =>
  (await q<{ tree_path: number[] }>('select tree_path from users where id = $1', [id]))[0].tree_path;
const setManager = (id: number, manager: number | null) =>
  q('update users set manager_id = $2 where id = $1', [id, manager]);

beforeAll(async () => {
  t = await createTestApp();
  [{ id: company }, { id: other }] = await q<{ id: number }>(
    `insert into companies (number, name, domain_name) values ('T-1', 'Tree', 'tree.test'), ('T-2', 'Other', 'other.test')
     returning id`,
  );
});
afterAll(() => t.close());

describe('stored tree paths', () => {
  it('gives every user the ids from the top down to them, and the seeded demo tree is whole', async () => {
    const root = await user(null);
    const mid = await user(root);
    const leaf = await user(mid);
    expect(await pathOf(leaf)).toEqual([root, mid, leaf]);
    expect(await below(root)).toEqual([root, mid, leaf].sort());
    expect(await below(leaf)).toEqual([leaf]);
    // The migration's backfill and the seed agree with a walk of manager_id for every existing user.
    const wrong = await q(`
      with recursive walk(id, path) as (
        select id, array[id] from users where manager_id is null
        union all select u.id, w.path || u.id from users u join walk w on u.manager_id = w.id)
      select u.id from users u join walk w on w.id = u.id where u.tree_path <> w.path`);
    expect(wrong).toEqual([]);
  });

  it('moves a whole subtree with its manager, in one statement, and the old upline loses it', async () => {
    const a = await user(null);
    const b = await user(null);
    const m = await user(a);
    const x = await user(m);
    const y = await user(x);
    await setManager(m, b);
    expect(await pathOf(y)).toEqual([b, m, x, y]);
    expect(await below(a)).toEqual([a]);
    expect(await below(b)).toEqual([b, m, x, y].sort());
    expect(await isInDownline(t.database.db, company, b, y)).toBe(true);
    expect(await isInDownline(t.database.db, company, a, y)).toBe(false);
  });

  it('moves reports up when their manager is deleted (as the delete route does) and keeps them reachable', async () => {
    const top = await user(null);
    const gone = await user(top);
    const r1 = await user(gone);
    const r2 = await user(r1);
    await q('update users set deleted_at = now() where id = $1', [gone]);
    await q('update users set manager_id = $1 where manager_id = $2', [top, gone]);
    expect(await pathOf(r2)).toEqual([top, r1, r2]);
    expect(await below(top)).toEqual([top, r1, r2].sort());
  });

  it('adopts reports written before their manager, and refuses a cycle', async () => {
    const [{ id: reserved }] = await q<{ id: number }>("select nextval('users_id_seq')::int as id");
    const early = await user(reserved); // there is no foreign key on manager_id: its manager comes later
    expect(await pathOf(early)).toEqual([early]);
    const late = await user(null, company, reserved);
    expect(await below(late)).toEqual([late, early].sort());
    await expect(setManager(late, early)).rejects.toThrow(/cycle/);
    expect(await pathOf(late)).toEqual([late]);
  });

  it('never crosses companies: a manager in another company starts a new tree', async () => {
    const foreign = await user(null, other);
    const local = await user(foreign);
    expect(await pathOf(local)).toEqual([local]);
    expect(await below(foreign, other)).toEqual([foreign]);
    expect(await below(foreign, company)).toEqual([]);
    expect(await below(local, other)).toEqual([]);
  });
});
