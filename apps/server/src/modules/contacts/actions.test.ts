import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { transferAttempts, transferLogs } from '../transfers/schema.js';
import { contactEvents, contacts } from './schema.js';
import { newContact, userId } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let telemarketer: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent, telemarketer, foreign] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('telemarketer')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

describe('card note, email verification and validation', () => {
  it('update_note sets and clears the card note', async () => {
    const c = await newContact(agent);
    const res = await agent.patch(`/v1/contacts/${c.number}/update_note`, { note: 'Prefers mornings' });
    expect(res.status).toBe(200);
    expect(res.body.note).toBe('Prefers mornings');
    expect(res.body.timeline[0]).toMatchObject({ kind: 'note_updated', data: { to: 'Prefers mornings' } });
    expect((await agent.patch(`/v1/contacts/${c.number}/update_note`, { note: null })).body.note).toBeNull();
    expect((await agent.patch(`/v1/contacts/${c.number}/update_note`, { note: 'x'.repeat(5001) })).status).toBe(422);
    expect((await agent.patch(`/v1/contacts/${c.number}/update_note`, { body: 'x' })).status).toBe(422);
    expect((await foreign.patch(`/v1/contacts/${c.number}/update_note`, { note: 'x' })).status).toBe(404);
  });

  it('force_verify_email forces the status; refuses a contact without email', async () => {
    const c = await newContact(agent, { email: 'weird@unusual-domain.example' });
    const res = await agent.patch(`/v1/contacts/${c.number}/force_verify_email`);
    expect(res.body.email_status).toBe('forced');
    const none = await newContact(agent);
    const bad = await agent.patch(`/v1/contacts/${none.number}/force_verify_email`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.email).toBeDefined();
    expect((await telemarketer.patch(`/v1/contacts/${c.number}/force_verify_email`)).status).toBe(404);
  });

  it('validate_email marks well-formed addresses valid and typos invalid with a suggestion, offline', async () => {
    const good = await newContact(agent, { email: 'harold.benson@gmail.com' });
    const ok = await agent.patch(`/v1/contacts/${good.number}/validate_email`);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ valid: true, email_status: 'valid', mailbox_checked: false, suggestion: null });
    const typo = await newContact(agent, { email: 'harold@gmial.com' });
    const bad = await agent.patch(`/v1/contacts/${typo.number}/validate_email`);
    expect(bad.body).toMatchObject({ valid: false, email_status: 'invalid', suggestion: 'harold@gmail.com' });
    expect(bad.body.contact.timeline[0].kind).toBe('email_validated');
  });
});

describe('linked contact and assign to me', () => {
  it('links a visible contact and unlinks; refuses itself, invisible and foreign contacts', async () => {
    const a = await newContact(agent, { first_name: 'Ann' });
    const b = await newContact(agent, { first_name: 'Bob' });
    const res = await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: b.id });
    expect(res.body.linked_contact).toEqual({ id: b.id, number: b.number, name: 'Bob Person' });
    expect(
      (await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: a.id })).status,
    ).toBe(422);
    const hidden = await newContact(admin);
    expect(
      (await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: hidden.id })).status,
    ).toBe(422);
    const theirs = await newContact(foreign);
    expect(
      (await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: theirs.id })).status,
    ).toBe(422);
    expect(
      (await agent.patch(`/v1/contacts/${a.number}/update_linked_contact`, { linked_contact_id: null })).body
        .linked_contact,
    ).toBeNull();
  });

  it("assign_to_me takes a pool contact out of the pool and into the caller's book", async () => {
    const pool = (await admin.get('/v1/pools')).body.data.find((p: { name: string }) => p.name === 'Shared Leads');
    const c = await newContact(admin, { pool_id: pool.id });
    const res = await telemarketer.patch(`/v1/contacts/${c.number}/assign_to_me`);
    expect(res.status).toBe(200);
    expect(res.body.owner.id).toBe(await userId(t, DEMO('telemarketer')));
    expect(res.body.pool).toBeNull();
    expect(res.body.timeline[0].kind).toBe('assigned');
    // The agent held the pool too, but the contact has left it.
    expect((await agent.patch(`/v1/contacts/${c.number}/assign_to_me`)).status).toBe(404);
    expect((await telemarketer.patch(`/v1/contacts/${c.number}/assign_to_me`)).status).toBe(422);
  });

  it('a manager can take over a downline contact', async () => {
    const c = await newContact(agent);
    const res = await manager.patch(`/v1/contacts/${c.number}/assign_to_me`);
    expect(res.body.owner.id).toBe(await userId(t, DEMO('manager')));
    expect((await agent.get(`/v1/contacts/${c.number}`)).status).toBe(404);
  });
});

describe('data capture, Rx details, activity info', () => {
  it('stores and replaces data capture answers', async () => {
    const c = await newContact(agent);
    expect((await agent.get(`/v1/contacts/${c.number}/data_capture`)).body).toEqual({
      data_captures: [],
      updated_at: null,
    });
    const body = {
      data_captures: [
        { key: 'current_coverage', label: 'Current coverage', value: 'Original Medicare' },
        { key: 'has_medicaid', value: false },
      ],
    };
    const res = await agent.patch(`/v1/contacts/${c.number}/data_capture`, body);
    expect(res.status).toBe(200);
    expect(res.body.data_captures).toHaveLength(2);
    expect((await manager.get(`/v1/contacts/${c.number}/data_capture`)).body.data_captures[1]).toEqual({
      key: 'has_medicaid',
      value: false,
    });
    expect(
      (await agent.patch(`/v1/contacts/${c.number}/data_capture`, { data_captures: [{ key: '', value: 1 }] })).status,
    ).toBe(422);
    expect((await agent.patch(`/v1/contacts/${c.number}/data_capture`, { answers: [] })).status).toBe(422);
    expect((await foreign.get(`/v1/contacts/${c.number}/data_capture`)).status).toBe(404);
    expect((await telemarketer.patch(`/v1/contacts/${c.number}/data_capture`, body)).status).toBe(404);
  });

  it('stores Rx details', async () => {
    const c = await newContact(agent);
    const rx = { rx_details: [{ drug_name: 'Metformin', dosage: '500 mg', frequency: 'twice daily', quantity: 60 }] };
    const res = await agent.patch(`/v1/contacts/${c.number}/rx_details`, rx);
    expect(res.body.rx_details[0]).toMatchObject({ drug_name: 'Metformin', quantity: 60 });
    expect((await agent.get(`/v1/contacts/${c.number}/rx_details`)).body.updated_at).not.toBeNull();
    expect((await agent.patch(`/v1/contacts/${c.number}/rx_details`, { rx_details: [{ dosage: '1' }] })).status).toBe(
      422,
    );
    const events = await t.database.db.select().from(contactEvents).where(eq(contactEvents.contactId, c.id));
    expect(events.map((e) => e.kind)).toContain('rx_details_updated');
  });

  it('activity_info records the activity and shows it as the last activity', async () => {
    const c = await newContact(agent);
    const res = await agent.put(`/v1/contacts/${c.number}/activity_info`, {
      type: 'call',
      description: 'Left voicemail',
    });
    expect(res.status).toBe(200);
    expect(res.body.last_activity.type).toBe('call');
    expect(res.body.timeline[0]).toMatchObject({ kind: 'activity', data: { type: 'call' } });
    expect((await agent.put(`/v1/contacts/${c.number}/activity_info`, { type: 'fax' })).status).toBe(422);
    expect((await foreign.put(`/v1/contacts/${c.number}/activity_info`, { type: 'call' })).status).toBe(404);
  });
});

describe('transfer history', () => {
  it('lists the transfers that moved the contact', async () => {
    const c = await newContact(agent);
    const [from, to] = [await userId(t, DEMO('telemarketer')), await userId(t, DEMO('agent'))];
    const [row] = await t.database.db.select().from(contacts).where(eq(contacts.id, c.id));
    const [attempt] = await t.database.db
      .insert(transferAttempts)
      .values({ companyId: row.companyId, toUserId: to, status: 'complete', total: 1, processed: 1 })
      .returning();
    const contact = { id: c.id };
    await t.database.db
      .insert(transferLogs)
      .values({ attemptId: attempt.id, contactId: contact.id, fromUserId: from, toUserId: to });
    const res = await agent.get(`/v1/contacts/${c.number}/transfer_history`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([
      expect.objectContaining({
        attempt_id: attempt.number,
        from_user: { id: from, name: 'Tyler Brooks' },
        to_user: { id: to, name: 'Angela Diaz' },
        status: 'complete',
        reverted: false,
      }),
    ]);
    expect((await foreign.get(`/v1/contacts/${c.number}/transfer_history`)).status).toBe(404);
    expect((await telemarketer.get(`/v1/contacts/${c.number}/transfer_history`)).status).toBe(404);
  });
});
