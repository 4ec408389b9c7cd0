import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { companies } from '../../platform/db/schema.js';
import { statuses } from '../lookups/schema.js';
import { contacts } from './schema.js';
import { newContact, userId } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let telemarketer: Client;
let district: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent, telemarketer, district, foreign] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('telemarketer')),
    signIn(t.app, DEMO('district_manager')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

async function statusId(company: string, name: string) {
  const [c] = await t.database.db.select().from(companies).where(eq(companies.number, company));
  const rows = await t.database.db.select().from(statuses).where(eq(statuses.companyId, c.id));
  return rows.find((s) => s.name === name)!.id;
}

describe('POST /v1/contacts', () => {
  it('creates a contact owned by the caller, phones normalised and formatted, with a timeline', async () => {
    const sold = await statusId('C-1001', 'Sold');
    const res = await agent.post('/v1/contacts', {
      first_name: 'Mary',
      last_name: 'Smith',
      phone: '(502) 555-0143',
      email: 'mary@gmail.com',
      date_of_birth: '1959-03-02',
      gender: 'other',
      language: 'spanish',
      state: 'KY',
      zip: '40202',
      medicare_number: '1eg4-te5-mk73',
      part_a_effective: '2024-03-01',
      status_id: sold,
      type: 'client',
    });
    expect(res.status).toBe(201);
    const c = res.body;
    expect(c).toMatchObject({
      first_name: 'Mary',
      phone: '1-502-555-0143',
      gender_label: 'Empty',
      medicare_number: '1EG4TE5MK73',
      status: { name: 'Sold' },
      type: 'client',
      owner: { id: await userId(t, DEMO('agent')) },
      is_new: false,
      email_status: 'unknown',
    });
    expect(c.age).toBeGreaterThanOrEqual(66);
    expect(c.number).toBeGreaterThan(100000);
    expect(c.timeline[0]).toMatchObject({ kind: 'created', actor: { name: 'Angela Diaz' } });
    const [row] = await t.database.db.select().from(contacts).where(eq(contacts.id, c.id));
    expect(row.phone).toBe('15025550143');
  });

  it('refuses unknown fields, company_id and bad values with field errors, creating nothing', async () => {
    const before = await t.database.db.select().from(contacts);
    for (const [body, field] of [
      [{ first_name: 'X', company_id: 2 }, 'body'],
      [{ first_name: 'X', phone: '555-01' }, 'phone'],
      [{ first_name: 'X', medicare_number: '123' }, 'medicare_number'],
      [{ first_name: 'X', date_of_birth: '2999-01-01' }, 'date_of_birth'],
      [{ first_name: 'X', state: 'ZZ' }, 'state'],
      [{ last_name: '' }, 'first_name'],
    ] as const) {
      const res = await agent.post('/v1/contacts', body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(Object.keys(res.body.errors), JSON.stringify(body)).toContain(field);
    }
    expect((await t.database.db.select().from(contacts)).length).toBe(before.length);
  });

  it("refuses another company's lookup ids as 422 on the field", async () => {
    const foreignStatus = await statusId('C-1002', 'Sold');
    const res = await agent.post('/v1/contacts', { first_name: 'X', status_id: foreignStatus });
    expect(res.status).toBe(422);
    expect(res.body.errors.status_id).toEqual(['does not exist']);
  });

  it('lets an agent own only their own contacts (403) and a manager assign only within the downline (422)', async () => {
    const other = await userId(t, DEMO('telemarketer'));
    expect((await agent.post('/v1/contacts', { first_name: 'X', owner_id: other })).status).toBe(403);
    const ok = await manager.post('/v1/contacts', { first_name: 'Y', owner_id: other });
    expect(ok.status).toBe(201);
    expect(ok.body.owner.id).toBe(other);
    const outside = await userId(t, DEMO('basic'));
    const res = await manager.post('/v1/contacts', { first_name: 'Z', owner_id: outside });
    expect(res.status).toBe(422);
    expect(res.body.errors.owner_id).toBeDefined();
    const foreignUser = await userId(t, RECRUIT('agent'));
    expect((await admin.post('/v1/contacts', { first_name: 'Z', owner_id: foreignUser })).status).toBe(422);
  });
});

describe('GET /v1/contacts/{id}', () => {
  it('clears the new mark when opened, unless not_remove_new_tag', async () => {
    const c = await newContact(agent);
    await t.database.db.update(contacts).set({ isNew: true }).where(eq(contacts.id, c.id));
    const kept = await agent.get(`/v1/contacts/${c.number}?not_remove_new_tag=true`);
    expect(kept.body.is_new).toBe(true);
    const opened = await agent.get(`/v1/contacts/${c.number}`);
    expect(opened.status).toBe(200);
    expect(opened.body.is_new).toBe(false);
    expect((await agent.get(`/v1/contacts/${c.number}?not_remove_new_tag=true`)).body.is_new).toBe(false);
  });

  it('shows a contact to its owner, their managers (any depth) and admins; 404 to everyone else', async () => {
    const c = await newContact(agent);
    const url = `/v1/contacts/${c.number}`;
    expect((await agent.get(url)).status).toBe(200);
    expect((await manager.get(url)).status).toBe(200);
    expect((await (await signIn(t.app, DEMO('regional_manager'))).get(url)).status).toBe(200);
    expect((await admin.get(url)).status).toBe(200);
    expect((await (await signIn(t.app, DEMO('bu_admin'))).get(url)).status).toBe(200);
    expect((await telemarketer.get(url)).status).toBe(404);
    expect((await district.get(url)).status).toBe(404);
    const f = await foreign.get(url);
    expect(f.status).toBe(404);
    expect(f.body.errors.contact).toEqual(['not found']);
    expect((await agent.get('/v1/contacts/abc')).status).toBe(404);
  });

  it('shows pool contacts to the pool holders', async () => {
    const pools = (await admin.get('/v1/pools')).body.data;
    const shared = pools.find((p: { name: string }) => p.name === 'Shared Leads');
    const c = await newContact(admin, { pool_id: shared.id });
    expect((await telemarketer.get(`/v1/contacts/${c.number}`)).status).toBe(200);
    expect((await district.get(`/v1/contacts/${c.number}`)).status).toBe(404);
  });
});

describe('PATCH /v1/contacts/{id}', () => {
  it('changes only the given fields and records from/to on the timeline', async () => {
    const c = await newContact(agent, { city: 'Louisville' });
    const res = await agent.patch(`/v1/contacts/${c.number}`, { city: 'Lexington', phone: '5025550199', zip: '' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ city: 'Lexington', phone: '1-502-555-0199', first_name: 'Test', zip: null });
    const ev = res.body.timeline[0];
    expect(ev.kind).toBe('updated');
    expect(ev.data.changes.city).toEqual({ from: 'Louisville', to: 'Lexington' });
    expect(ev.data.changes.phone).toEqual({ from: null, to: '15025550199' });
  });

  it('sets tags by id (company tags only) and resets the email status when the email changes', async () => {
    const tags = (await agent.patch('/v1/tags', {})).body.data;
    const c = await newContact(agent, { email: 'a@gmail.com' });
    await agent.patch(`/v1/contacts/${c.number}/force_verify_email`);
    const res = await agent.patch(`/v1/contacts/${c.number}`, {
      tag_ids: [tags[0].id, tags[1].id],
      email: 'b@gmail.com',
    });
    expect(res.body.tags.map((x: { id: number }) => x.id).sort()).toEqual([tags[0].id, tags[1].id].sort());
    expect(res.body.tags[0].color).toBeTruthy();
    expect(res.body.email_status).toBe('unknown');
    const foreignTags = (await foreign.patch('/v1/tags', {})).body.data;
    const bad = await agent.patch(`/v1/contacts/${c.number}`, { tag_ids: [foreignTags[0].id] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.tag_ids).toBeDefined();
  });

  it('refuses to empty both names, unknown fields, and edits by people who cannot see it', async () => {
    const c = await newContact(agent, { first_name: 'Only', last_name: '' });
    expect((await agent.patch(`/v1/contacts/${c.number}`, { first_name: '' })).status).toBe(422);
    expect((await agent.patch(`/v1/contacts/${c.number}`, { owner: 5 })).status).toBe(422);
    expect((await telemarketer.patch(`/v1/contacts/${c.number}`, { city: 'X' })).status).toBe(404);
    expect((await foreign.patch(`/v1/contacts/${c.number}`, { city: 'X' })).status).toBe(404);
    expect((await manager.patch(`/v1/contacts/${c.number}`, { city: 'Paducah' })).body.city).toBe('Paducah');
  });

  it('refuses changes to a deleted contact', async () => {
    const c = await newContact(agent);
    await t.database.db.update(contacts).set({ deletedAt: new Date() }).where(eq(contacts.id, c.id));
    expect((await agent.get(`/v1/contacts/${c.number}`)).body.deleted_at).not.toBeNull();
    const res = await agent.patch(`/v1/contacts/${c.number}`, { city: 'X' });
    expect(res.status).toBe(422);
    expect(res.body.errors.contact).toBeDefined();
  });
});

describe('PATCH /v1/contacts/{id}/quick_update', () => {
  it('changes one field, checked by the same rule as the form', async () => {
    const c = await newContact(agent);
    const contacted = await statusId('C-1001', 'Contacted');
    const res = await agent.patch(`/v1/contacts/${c.number}/quick_update`, { field: 'status_id', value: contacted });
    expect(res.status).toBe(200);
    expect(res.body.status.name).toBe('Contacted');
    expect(res.body.timeline[0].kind).toBe('quick_updated');
    const phone = await agent.patch(`/v1/contacts/${c.number}/quick_update`, { field: 'phone', value: '12' });
    expect(phone.status).toBe(422);
    expect(phone.body.errors.phone).toBeDefined();
    expect((await agent.patch(`/v1/contacts/${c.number}/quick_update`, { field: 'owner_id', value: 1 })).status).toBe(
      422,
    );
    const foreignStatus = await statusId('C-1002', 'New');
    expect(
      (await agent.patch(`/v1/contacts/${c.number}/quick_update`, { field: 'status_id', value: foreignStatus })).status,
    ).toBe(422);
    expect(
      (await telemarketer.patch(`/v1/contacts/${c.number}/quick_update`, { field: 'type', value: 'client' })).status,
    ).toBe(404);
  });
});
