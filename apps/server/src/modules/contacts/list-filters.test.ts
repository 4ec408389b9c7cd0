/**
 * What people type and pick on the list (issue 8): phones in any format, names without their accents, filters by
 * status, tag, owner, source, pool, group and date ranges combined, a sort on every visible column, the downline
 * picker for every admin kind; and field names from input that must never reach SQL (issue 15).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact, userId } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let agent: Client;
const q = async <T>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const list = (c: Client, body: Record<string, unknown> = {}) => c.patch('/v1/contacts', body);
const numbers = (res: { body: { data: Array<{ number: number }> } }) => res.body.data.map((r) => r.number);

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent] = await Promise.all([signIn(t.app, DEMO('admin')), signIn(t.app, DEMO('agent'))]);
});
afterAll(() => t.close());

describe('q: phones in any format', () => {
  it('finds a contact by (305) 892-0000, 305-892-0000, 892-0000, +1 305 892 0000 and 3058920000', async () => {
    const c = await newContact(agent, { first_name: 'Dial', last_name: 'Tone', phone: '305-892-0000' });
    // A number that only shares the first three digits, and one that has the seven digits in the middle.
    await newContact(agent, { first_name: 'Near', last_name: 'Miss', phone: '305-555-1234' });
    await newContact(agent, { first_name: 'Mid', last_name: 'Dle', phone: '892-000-0123' });
    for (const typed of [
      '(305) 892-0000',
      '305-892-0000',
      '892-0000',
      '+1 305 892 0000',
      '3058920000',
      '13058920000',
    ]) {
      const res = await list(agent, { q: typed, limit: 50 });
      expect(res.status, typed).toBe(200);
      expect(numbers(res), typed).toEqual([c.number]);
    }
  });

  it('matches the secondary phone and the phone filter the same way', async () => {
    const c = await newContact(agent, { first_name: 'Second', last_name: 'Line', secondary_phone: '(786) 201-4455' });
    expect(numbers(await list(agent, { q: '201-4455' }))).toEqual([c.number]);
    const filtered = await list(agent, { search: [{ field: 'phone', value: '786.201.4455' }] });
    expect(numbers(filtered)).toEqual([c.number]);
  });
});

describe('q: names without their accents', () => {
  it('finds José Muñoz by "Jose Munoz", "munoz jose" and "MUÑOZ", and Renee by "Renée"', async () => {
    const jose = await newContact(agent, { first_name: 'José', last_name: 'Muñoz' });
    const renee = await newContact(agent, { first_name: 'Renee', last_name: 'Beaulieu' });
    for (const typed of ['Jose Munoz', 'munoz jose', 'MUÑOZ', 'josé muñoz']) {
      expect(numbers(await list(agent, { q: typed })), typed).toContain(jose.number);
    }
    expect(numbers(await list(agent, { q: 'Renée Beaulieu' }))).toEqual([renee.number]);
    // Every word must appear: a second word that is nowhere finds nothing.
    expect(numbers(await list(agent, { q: 'jose zzzqqq' }))).toEqual([]);
  });

  it('follows a renamed contact (the search text is kept by a trigger) and forgets a removed one', async () => {
    const c = await newContact(agent, { first_name: 'Zoë', last_name: 'Quartz' });
    expect(numbers(await list(agent, { q: 'zoe quartz' }))).toEqual([c.number]);
    expect((await agent.patch(`/v1/contacts/${c.number}`, { last_name: 'Onyx' })).status).toBe(200);
    expect(numbers(await list(agent, { q: 'quartz' }))).toEqual([]);
    expect(numbers(await list(agent, { q: 'zoe onyx' }))).toEqual([c.number]);
    await q('delete from contact_events where contact_id = $1', [c.id]);
    await q('delete from contacts where id = $1', [c.id]);
    expect(await q('select 1 from contact_search where contact_id = $1', [c.id])).toEqual([]);
  });
});

describe('filters by what a picker holds', () => {
  it('combines status, tag, owner, source, pool, group and date ranges', async () => {
    const [row] = await q<Record<string, number | string>>(
      `select c.status_id, c.source_id, c.owner_id, to_char(c.created_at, 'YYYY-MM-DD') as created,
         to_char(c.date_of_birth, 'YYYY-MM-DD') as dob, min(ct.tag_id) as tag_id
       from contacts c join contact_tags ct on ct.contact_id = c.id
       where c.deleted_at is null and c.status_id is not null and c.source_id is not null
         and c.date_of_birth is not null and c.owner_id = $1
       group by c.id order by c.id limit 1`,
      [await userId(t, DEMO('agent'))],
    );
    const search = [
      { field: 'status_id', value: [row.status_id] },
      { field: 'source_id', value: [row.source_id] },
      { field: 'owner_id', value: [row.owner_id] },
      { field: 'tag_ids', value: [row.tag_id] },
      { field: 'created_from', value: row.created },
      { field: 'created_to', value: row.created },
      { field: 'updated_from', value: '2000-01-01' },
      { field: 'birth_from', value: row.dob },
      { field: 'birth_to', value: row.dob },
    ];
    const res = await list(admin, { search, limit: 500 });
    expect(res.status).toBe(200);
    const [{ n }] = await q<{ n: number }>(
      `select count(*)::int as n from contacts c where c.deleted_at is null and c.status_id = $1 and c.source_id = $2
         and c.owner_id = $3 and exists (select 1 from contact_tags ct where ct.contact_id = c.id and ct.tag_id = $4)
         and to_char(c.created_at, 'YYYY-MM-DD') = $5 and c.date_of_birth = $6::date`,
      [row.status_id, row.source_id, row.owner_id, row.tag_id, row.created, row.dob],
    );
    expect(n).toBeGreaterThan(0);
    expect(res.body.data).toHaveLength(n);
    for (const r of res.body.data) {
      expect([r.status.id, r.source.id, r.owner.id, r.date_of_birth]).toEqual([
        row.status_id,
        row.source_id,
        row.owner_id,
        row.dob,
      ]);
      expect(r.tags.map((x: { id: number }) => x.id)).toContain(row.tag_id);
    }
    expect((await admin.patch('/v1/contacts/count', { search })).body).toEqual({ count: n, exact: true, margin: null });
    // An empty range end is dropped; a malformed date is a 422 naming the entry.
    expect((await list(admin, { search: [{ field: 'updated_to', value: '' }] })).status).toBe(200);
    const bad = await list(admin, { search: [{ field: 'birth_from', value: '1950-13-45' }] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.search[0]).toContain("'birth_from' takes a date");
  });

  it('filters by pool and group ids', async () => {
    const [g] = await q<{ group_id: number; n: number }>(
      `select group_id, count(*)::int as n from contacts c join companies co on co.id = c.company_id
       where co.number = 'C-1001' and group_id is not null and deleted_at is null group by 1 limit 1`,
    );
    const byGroup = await list(admin, { search: [{ field: 'group_id', value: [g.group_id] }], limit: 500 });
    expect(byGroup.body.data).toHaveLength(g.n);
    expect(byGroup.body.data.every((r: any) => r.group.id === g.group_id)).toBe(true);
    const [p] = await q<{ pool_id: number; n: number }>(
      `select pool_id, count(*)::int as n from contacts c join companies co on co.id = c.company_id
       where co.number = 'C-1001' and pool_id is not null and deleted_at is null group by 1 limit 1`,
    );
    const byPool = await list(admin, { search: [{ field: 'pool_id', value: [p.pool_id] }], limit: 500 });
    expect(byPool.body.data).toHaveLength(p.n);
  });
});

describe('sort by any visible column', () => {
  const shown: Record<string, (r: any) => string> = {
    phone: (r) => (r.phone ?? '').replace(/\D/g, ''),
    status: (r) => r.status?.name ?? '',
    source: (r) => r.source?.name ?? '',
    owner: (r) => r.owner?.name ?? '',
    pool: (r) => r.pool?.name ?? '',
    group: (r) => r.group?.name ?? '',
  };
  for (const [field, key] of Object.entries(shown)) {
    it(`orders by ${field}, each contact once across cursor pages`, async () => {
      const seen: any[] = [];
      let cursor: string | null = null;
      do {
        const res: any = await list(agent, { order_field: field, order: 'DESC', limit: 40, cursor });
        expect(res.status).toBe(200);
        seen.push(...res.body.data);
        cursor = res.body.meta.next_cursor;
      } while (cursor);
      const [{ n }] = await q<{ n: number }>(
        `select count(*)::int as n from contacts where deleted_at is null and (owner_id = $1
           or pool_id in (select pool_id from pool_holders where user_id = $1))`,
        [await userId(t, DEMO('agent'))],
      );
      expect(new Set(seen.map((r) => r.id)).size).toBe(n);
      const keys = seen.map(key);
      for (let i = 1; i < keys.length; i++) expect(keys[i - 1] >= keys[i], `${keys[i - 1]} >= ${keys[i]}`).toBe(true);
    });
  }
});

describe('the downline picker for every admin kind (issue 8: a 500 for admin, sub_admin, bu_admin)', () => {
  for (const role of ['admin', 'sub_admin', 'bu_admin', 'regional_manager']) {
    it(`${role} lists one user's contacts`, async () => {
      const client = await signIn(t.app, DEMO(role));
      const target = await userId(t, DEMO('agent'));
      const res = await list(client, { downline_user_id: target, limit: 500 });
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeGreaterThan(0);
      expect(new Set(res.body.data.map((r: any) => r.owner.id))).toEqual(new Set([target]));
      const count = await client.patch('/v1/contacts/count', { downline_user_id: target });
      expect(count.body.count).toBe(res.body.data.length);
    });
  }

  it('a BU admin cannot pick a user of the other unit (404)', async () => {
    const bu = await signIn(t.app, DEMO('bu_admin'));
    expect((await list(bu, { downline_user_id: await userId(t, DEMO('basic')) })).status).toBe(404);
  });
});

describe('field names from input (issue 15)', () => {
  const hostile = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  for (const name of hostile) {
    it(`refuses "${name}" as a filter field and as an order field, with a 422`, async () => {
      const filter = await list(agent, { search: [{ field: name, value: 'x' }] });
      expect(filter.status).toBe(422);
      expect(filter.body.errors.search[0]).toBe(`unknown filter field '${name}'`);
      const order = await list(agent, { order_field: name });
      expect(order.status).toBe(422);
      expect(order.body.errors.order_field[0]).toBe(`unknown order field '${name}'`);
      expect((await admin.patch('/v1/contacts/count', { search: [{ field: name, value: 1 }] })).status).toBe(422);
      const sel = await admin.post('/v1/contacts/selected_items', {
        all: true,
        contacts_scope: { search: [{ field: name, value: 'x' }] },
      });
      expect(sel.status).toBe(422);
      const transfers = await admin.get(`/v1/contacts/transfer_attempts?order_field=${name}`);
      expect(transfers.status).toBe(422);
      expect(transfers.body.errors.order_field[0]).toBe(`unknown order field '${name}'`);
    });
  }
});
