/**
 * Issue 8: a merge of two duplicates silently dropped the duplicate's email and whatever else differed. The person
 * now picks each differing field from either record; the kept contact's timeline keeps old and new values and every
 * value the merged one held; the merged one's sub-records stay attached to the kept one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from './test-helpers.js';

let t: TestApp;
let agent: Client;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  [agent, admin] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('admin'))]);
});
afterAll(() => t.close());

const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

describe('PATCH /v1/contacts/merge with field choices', () => {
  it("takes each chosen field from the record the person picked, and keeps the loser's values on the timeline", async () => {
    const kept = await newContact(agent, {
      first_name: 'Rosa',
      last_name: 'Parks',
      email: 'rosa.old@example.com',
      phone: '555-700-0001',
      city: 'Montgomery',
    });
    const dup = await newContact(agent, {
      first_name: 'Rosa',
      last_name: 'Parks-Lee',
      email: 'rosa.new@example.com',
      phone: '555-700-0002',
      date_of_birth: '1950-02-04',
    });
    await agent.post(`/v1/contacts/${dup.number}/notes`, { body: 'note on the duplicate' });
    const res = await agent.patch('/v1/contacts/merge', {
      kept_id: kept.id,
      ids: [dup.id],
      choices: { email: dup.id, last_name: kept.id, phone: kept.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.changes).toEqual({
      email: { from: 'rosa.old@example.com', to: 'rosa.new@example.com' },
      // Not chosen, blank on the kept one: taken from the duplicate (as before).
      date_of_birth: { from: null, to: '1950-02-04' },
    });
    const [row] = await q(
      "select email, last_name, phone, city, to_char(date_of_birth, 'YYYY-MM-DD') dob from contacts where id = $1",
      [kept.id],
    );
    expect(row).toEqual({
      email: 'rosa.new@example.com',
      last_name: 'Parks',
      phone: '15557000001',
      city: 'Montgomery',
      dob: '1950-02-04',
    });
    const [ev] = await q("select data from contact_events where contact_id = $1 and kind = 'merged'", [kept.id]);
    expect(ev.data.changes.email).toEqual({ from: 'rosa.old@example.com', to: 'rosa.new@example.com' });
    expect(ev.data.merged).toEqual([
      {
        id: dup.id,
        number: dup.number,
        name: 'Rosa Parks-Lee',
        values: {
          first_name: 'Rosa',
          last_name: 'Parks-Lee',
          email: 'rosa.new@example.com',
          phone: '15557000002',
          date_of_birth: '1950-02-04',
          type: 'lead',
        },
      },
    ]);
    const notes = await q('select body from notes where contact_id = $1', [kept.id]);
    expect(notes.map((n) => n.body)).toEqual(['note on the duplicate']);
    const detail = await agent.get(`/v1/contacts/${kept.number}`);
    expect(detail.body.timeline[0]).toMatchObject({ kind: 'merged' });
  });

  it('refuses a choice naming a contact outside the merge, or an unknown field, and changes nothing', async () => {
    const a = await newContact(agent, { first_name: 'Sam', last_name: 'One', email: 'sam1@example.com' });
    const b = await newContact(agent, { first_name: 'Sam', last_name: 'One', email: 'sam2@example.com' });
    const c = await newContact(agent, { first_name: 'Sam', last_name: 'Other' });
    const bad = await agent.patch('/v1/contacts/merge', { kept_id: a.id, ids: [b.id], choices: { email: c.id } });
    expect(bad.status).toBe(422);
    expect(bad.body.errors['choices.email']).toEqual(['must be the id of one of the contacts being merged']);
    const unknown = await agent.patch('/v1/contacts/merge', {
      kept_id: a.id,
      ids: [b.id],
      choices: { owner_id: b.id },
    });
    expect(unknown.status).toBe(422);
    const [still] = await q('select deleted_at from contacts where id = $1', [b.id]);
    expect(still.deleted_at).toBeNull();
    // Someone else's contact is not found, whatever the choices.
    const foreign = await newContact(admin, { first_name: 'Not', last_name: 'Yours' });
    expect((await agent.patch('/v1/contacts/merge', { kept_id: a.id, ids: [foreign.id] })).status).toBe(404);
  });
});
