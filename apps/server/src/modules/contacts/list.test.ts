import { ContactsScope } from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import type { Db } from '../../platform/db/client.js';
import { listContacts } from './list.js';
import { authFor } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let fieldManager: Client;
const ids: Record<string, number> = {};

const q = async <T>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent, fieldManager] = await Promise.all(
    ['admin', 'manager', 'agent', 'field_manager'].map((r) => signIn(t.app, DEMO(r))),
  );
  for (const u of await q<{ id: number; email: string }>('select id, email from users')) ids[u.email] = u.id;
});
afterAll(() => t.close());

const list = (c: Client, body: Record<string, unknown> = {}) => c.patch('/v1/contacts', body);

describe('PATCH /v1/contacts (list)', () => {
  it('lists the agent’s own and pool contacts, ordered by last name, with meta and no count', async () => {
    const res = await list(agent, { limit: 20 });
    expect(res.status).toBe(200);
    expect(res.body.meta).toEqual({ current_page: 1, limit: 20, has_more: true, next_cursor: expect.any(String) });
    expect(res.body.data).toHaveLength(20);
    const names = res.body.data.map((r: any) => `${r.last_name}|${r.first_name}`);
    expect([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(names);
    const owners = new Set(res.body.data.filter((r: any) => !r.pool).map((r: any) => r.owner.id));
    expect([...owners]).toEqual([ids[DEMO('agent')]]);
    expect(res.body.data[0]).toMatchObject({ number: expect.any(Number), tags: expect.any(Array) });
  });

  it('walks every page with the keyset cursor and sees each contact once', async () => {
    const seen: number[] = [];
    let cursor: string | null = null;
    let page = 1;
    do {
      const res: any = await list(admin, { limit: 50, order: 'DESC', order_field: 'created_at', cursor, page });
      expect(res.status).toBe(200);
      seen.push(...res.body.data.map((r: any) => r.id));
      cursor = res.body.meta.next_cursor;
      page++;
    } while (cursor);
    const [{ n }] = await q<{ n: number }>(
      "select count(*)::int as n from contacts c join companies co on co.id = c.company_id where co.number = 'C-1001' and deleted_at is null",
    );
    expect(seen).toHaveLength(n);
    expect(new Set(seen).size).toBe(n);
  });

  it('searches with q through the trigram column and filters with the search array', async () => {
    const [c] = await q<{ last_name: string; state: string }>(
      "select last_name, state from contacts where owner_id = $1 and deleted_at is null and type = 'client' order by id limit 1",
      [ids[DEMO('agent')]],
    );
    const fragment = c.last_name.slice(1, 4).toLowerCase();
    const res = await list(agent, { q: fragment, limit: 500 });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    for (const r of res.body.data) {
      expect(`${r.first_name} ${r.last_name} ${r.email} ${r.phone}`.toLowerCase().replace(/-/g, '')).toContain(
        fragment,
      );
    }
    const filtered = await list(agent, {
      limit: 500,
      search: [
        { field: 'state', value: [c.state] },
        { field: 'type', value: 'client' },
        { field: 'city', value: '' },
        { field: 'tag_ids', value: [] },
      ],
    });
    expect(filtered.status).toBe(200);
    expect(filtered.body.data.length).toBeGreaterThan(0);
    for (const r of filtered.body.data) expect([r.state, r.type]).toEqual([c.state, 'client']);
  });

  it('refuses unknown filter and order fields, a limit over 500 and too-deep page numbers', async () => {
    const bad = await list(agent, { search: [{ field: 'password_hash', value: 'x' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.search[0]).toContain('password_hash');
    const order = await list(agent, { order_field: 'owner_id; drop table contacts' });
    expect(order.status).toBe(422);
    expect(order.body.errors.order_field[0]).toContain('unknown order field');
    expect((await list(agent, { limit: 501 })).body.errors.limit).toBeDefined();
    expect((await list(agent, { limit: 100, page: 200 })).body.errors.page).toBeDefined();
    expect((await list(agent, { order: 'sideways' })).status).toBe(422);
    expect((await list(agent, { cursor: 'garbage' })).body.errors.cursor).toBeDefined();
  });

  it('shows the deleted view, the downline views and the pool picker by role', async () => {
    const deleted = await list(agent, { contact_group: 'deleted' });
    expect(deleted.body.data.length).toBeGreaterThan(0);
    expect(deleted.body.data.every((r: any) => r.deleted_at)).toBe(true);

    // An agent has no downline.
    expect((await list(agent, { contact_group: 'downline' })).status).toBe(403);
    const down = await list(manager, { contact_group: 'downline', limit: 500 });
    expect(down.status).toBe(200);
    const owners = new Set(down.body.data.map((r: any) => r.owner.id));
    expect(owners.has(ids[DEMO('manager')])).toBe(false);
    expect(owners.has(ids[DEMO('agent')])).toBe(true);
    const one = await list(manager, { downline_user_id: ids[DEMO('agent')], limit: 500 });
    expect(new Set(one.body.data.map((r: any) => r.owner.id))).toEqual(new Set([ids[DEMO('agent')]]));
    // Someone outside the manager's downline is not theirs to pick.
    expect((await list(manager, { downline_user_id: ids[DEMO('basic')] })).status).toBe(404);
    const fm = await list(fieldManager, { all_downline: true, limit: 500 });
    expect(new Set(fm.body.data.map((r: any) => r.owner.id))).toEqual(
      new Set([ids[DEMO('field_manager')], ids[DEMO('basic')]]),
    );

    const [pool] = await q<{ id: number }>(
      "select p.id from pools p join companies c on c.id = p.company_id where p.name = 'Shared Leads' and c.number = 'C-1001'",
    );
    const pooled = await list(agent, { pool_id: pool.id, limit: 500 });
    expect(pooled.body.data.length).toBe(20);
    expect((await list(fieldManager, { pool_id: pool.id })).status).toBe(404);
  });

  it('finds duplicates in the duplicate_merge view', async () => {
    const res = await list(agent, {
      representer_type: 'duplicate_merge',
      duplicate: { is_duplicate: true, first_name: true, last_name: true },
      limit: 50,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(10);
    const counts = new Map<string, number>();
    for (const r of res.body.data) counts.set(r.duplicate_key, (counts.get(r.duplicate_key) ?? 0) + 1);
    expect([...counts.values()].every((n) => n >= 2)).toBe(true);
  });

  it('never shows another company’s contacts', async () => {
    const other = await signIn(t.app, RECRUIT('admin'));
    const res = await list(other, { limit: 500 });
    const [{ n }] = await q<{ n: number }>(
      "select count(*)::int as n from contacts c join companies co on co.id = c.company_id where co.number = 'C-1002' and deleted_at is null",
    );
    expect((await other.patch('/v1/contacts/count', {})).body).toEqual({ count: n, exact: true, margin: null });
    expect(res.body.data).toHaveLength(n);
    const insurance = await q<{ id: number }>(
      "select c.id from contacts c join companies co on co.id = c.company_id where co.number = 'C-1001'",
    );
    const foreign = new Set(insurance.map((r) => Number(r.id)));
    expect(res.body.data.some((r: any) => foreign.has(r.id))).toBe(false);
  });

  // Round trips, not SQL, were the list's cost at a million contacts (issue 9): a page is one statement, and a view
  // that names a pool or a user adds only the check that the caller may see it.
  it('answers a page with one statement (two when a pool or a user is picked)', async () => {
    let statements = 0;
    const db = new Proxy(t.database.db, {
      get(target, prop, receiver) {
        if (prop !== 'execute') return Reflect.get(target, prop, receiver);
        return (query: Parameters<Db['execute']>[0]) => {
          statements++;
          return target.execute(query);
        };
      },
    }) as Db;
    const [pool] = await q<{ id: number }>(
      "select p.id from pools p join companies c on c.id = p.company_id where p.name = 'Shared Leads' and c.number = 'C-1001'",
    );
    for (const [who, body, expected] of [
      ['agent', {}, 1],
      ['agent', { q: 'son', order_field: 'owner', order: 'DESC' }, 1],
      ['manager', { all_downline: true, search: [{ field: 'state', value: ['FL'] }] }, 1],
      ['agent', { pool_id: pool.id }, 2],
      ['manager', { downline_user_id: ids[DEMO('agent')] }, 2],
    ] as const) {
      statements = 0;
      const reply = await listContacts(db, await authFor(t, DEMO(who)), ContactsScope.parse({ ...body, limit: 5 }));
      expect(reply.data.length, JSON.stringify(body)).toBeGreaterThan(0);
      expect(statements, JSON.stringify(body)).toBe(expected);
    }
  });
});
