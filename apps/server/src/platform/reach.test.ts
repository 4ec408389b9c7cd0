/**
 * The one reach rule (platform/reach.ts, docs/decisions/user-reach.md): each role's level, the SQL fragment and the
 * JS predicate agreeing for every pair of users, and the areas built on it (admin users, the contacts list) agreeing
 * with each other, pool holders included. Before, the admin side gave a pool holder their downline while the
 * contacts side gave them only their own contacts.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, signIn, type TestApp } from '../../test/harness.js';
import { visibleContactsSql } from '../modules/contacts/visibility.js';
import { type AuthContext, buildAuthContext } from './auth/context.js';
import { companies, type UserRow, users } from './db/schema.js';
import { reachedUserIdsSql, reaches, reachOf } from './reach.js';

let t: TestApp;
let all: UserRow[];
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const byEmail = (email: string) => {
  const u = all.find((x) => x.email === email);
  if (!u) throw new Error(`no user ${email}`);
  return u;
};
async function authOf(u: UserRow): Promise<AuthContext> {
  const [c] = await t.database.db.select().from(companies).where(eq(companies.id, u.companyId));
  return buildAuthContext(u, c, null);
}
const D = (r: string) => `${r}@demo.harbor.test`;
const R = (r: string) => `${r}@recruit.harbor.test`;

async function addUser(email: string, companyId: number, managerId: number | null, role: string, unit: number | null) {
  const [row] = await q<{ id: number }>(
    `insert into users (company_id, manager_id, business_unit_id, number, email, username, password_hash, account_type, roles)
     values ($1, $2, $3, $4, $4, $4, 'x', $5, array[$5]) returning id`,
    [companyId, managerId, unit, email, role],
  );
  return row.id;
}

beforeAll(async () => {
  t = await createTestApp();
  const load = () => t.database.db.select().from(users);
  all = await load();
  const ph = byEmail(R('pool_holder'));
  const agent = byEmail(D('agent'));
  // Someone below the pool holder (with a contact), a bu_admin without a unit, and a deleted report.
  const report = await addUser('ph-report@recruit.harbor.test', ph.companyId, ph.id, 'agent', null);
  await addUser('bu-nounit@demo.harbor.test', agent.companyId, byEmail(D('manager')).id, 'bu_admin', null);
  const gone = await addUser('gone@demo.harbor.test', agent.companyId, byEmail(D('manager')).id, 'agent', null);
  await q('update users set deleted_at = now() where id = $1', [gone]);
  const [{ pool }] = await q<{ pool: number }>('select pool_id as pool from pool_holders where user_id = $1 limit 1', [
    ph.id,
  ]);
  // The report's contact, one in a pool the holder holds (owned by their manager), one of the manager's alone.
  await q(
    `insert into contacts (company_id, number, owner_id, pool_id, first_name, last_name) values
       ($1, 990001, $2, null, 'Report', 'Contact'), ($1, 990002, $3, $4, 'Pooled', 'Contact'),
       ($1, 990003, $3, null, 'Upline', 'Contact')`,
    [ph.companyId, report, byEmail(R('manager')).id, pool],
  );
  all = await load();
});
afterAll(() => t.close());

describe('the reach rule', () => {
  it('gives each role its level, pool holders reaching their downline like managers', () => {
    const level = (email: string) => reachOf(byEmail(email));
    expect(level(D('admin'))).toBe('company');
    expect(level(D('sub_admin'))).toBe('company');
    expect(level(D('bu_admin'))).toBe('business_unit');
    expect(level('bu-nounit@demo.harbor.test')).toBe('downline');
    for (const r of ['regional_manager', 'manager', 'district_manager', 'field_manager']) {
      expect(level(D(r))).toBe('downline');
    }
    expect(level(R('pool_holder'))).toBe('downline');
    for (const r of ['telemarketer', 'agent', 'basic']) expect(level(D(r))).toBe('own');
  });

  it('answers the same in SQL and in JS for every pair of users, across companies and deleted users', async () => {
    const disagreements: string[] = [];
    for (const caller of all) {
      const rows = await t.database.db.execute<{ id: number }>(sql`select id from ${reachedUserIdsSql(caller)} r(id)`);
      const inSql = new Set(rows.rows.map((r) => Number(r.id)));
      for (const target of all) {
        if (reaches(caller, target) !== inSql.has(target.id)) disagreements.push(`${caller.email} -> ${target.email}`);
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('reaches the people it should, and no one else', () => {
    const reached = (email: string) =>
      all
        .filter((u) => reaches(byEmail(email), u))
        .map((u) => u.email)
        .sort();
    // North unit (regional, manager, telemarketer, agent, new hire) plus the BU admin; not the south, not admins.
    expect(reached(D('bu_admin'))).toEqual(
      [
        D('bu_admin'),
        D('regional_manager'),
        D('manager'),
        D('telemarketer'),
        D('agent'),
        'newhire@demo.harbor.test',
      ].sort(),
    );
    expect(reached(D('manager'))).toEqual(
      [D('manager'), D('telemarketer'), D('agent'), 'newhire@demo.harbor.test', 'bu-nounit@demo.harbor.test'].sort(),
    );
    expect(reached(R('pool_holder'))).toEqual([R('pool_holder'), 'ph-report@recruit.harbor.test'].sort());
    expect(reached(D('agent'))).toEqual([D('agent')]);
    expect(reached(D('admin'))).not.toContain('gone@demo.harbor.test');
    expect(reached(D('admin'))).not.toContain(R('agent'));
  });
});

describe('areas built on it agree', () => {
  it("shows a pool holder their own contacts, their pools' and their downline's", async () => {
    const ph = byEmail(R('pool_holder'));
    const auth = await authOf(ph);
    const visible = await t.database.db.execute<{ id: number; number: number }>(
      sql`select id, number from contacts where ${visibleContactsSql(auth)} order by id`,
    );
    const expected = await q<{ id: number }>(
      `select id from contacts where company_id = $1 and (owner_id in (select id from users where tree_path @> array[$2::int])
         or pool_id in (select pool_id from pool_holders where user_id = $2)) order by id`,
      [ph.companyId, ph.id],
    );
    expect(visible.rows.map((r) => Number(r.id))).toEqual(expected.map((r) => Number(r.id)));
    const numbers = visible.rows.map((r) => Number(r.number));
    expect(numbers).toEqual(expect.arrayContaining([990001, 990002]));
    expect(numbers).not.toContain(990003);
  });

  it('lets a pool holder manage the user below them and see that user’s contacts through the routes', async () => {
    const client = await signIn(t.app, R('pool_holder'));
    const admin = await client.get('/v1/admin/users');
    expect(admin.status).toBe(200);
    expect(admin.body.data.map((u: { email: string }) => u.email)).toContain('ph-report@recruit.harbor.test');
    const list = await client.patch('/v1/contacts', { q: 'Report', limit: 50 });
    expect(list.status).toBe(200);
    expect(list.body.data.map((c: { number: number }) => c.number)).toContain(990001);
  });

  it('lets a BU admin track only the transfer and import attempts of people in reach', async () => {
    const bu = byEmail(D('bu_admin'));
    const auth = await authOf(bu);
    const south = byEmail(D('district_manager'));
    const rows = await t.database.db.execute<{ ok: boolean }>(
      sql`select ${south.id}::int in ${reachedUserIdsSql(auth)} as ok, ${byEmail(D('agent')).id}::int in ${reachedUserIdsSql(auth)} as north`,
    );
    expect(rows.rows[0]).toEqual({ ok: false, north: true });
  });
});
