import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let agent: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [admin, agent, foreign] = await Promise.all([
    signIn(t.app, DEMO('admin')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

const check = (client: Client, body: Record<string, unknown>) => client.post('/v1/contacts/duplicate_check', body);

describe('POST /v1/contacts/duplicate_check', () => {
  it('finds a visible contact by its phone written any way, or its email in any case', async () => {
    const mine = await newContact(agent, {
      first_name: 'Rosa',
      last_name: 'Vega',
      phone: '305-892-0101',
      email: 'rosa.vega@example.com',
    });
    for (const phone of ['(305) 892-0101', '+1 305 892 0101', '3058920101']) {
      const res = await check(agent, { phone });
      expect(res.status).toBe(200);
      expect(res.body.matches).toEqual([
        { id: mine.id, number: mine.number, name: 'Rosa Vega', owner: expect.any(Object), matched_on: ['phone'] },
      ]);
    }
    const both = await check(agent, { phone: '305.892.0101', email: 'ROSA.VEGA@example.com' });
    expect(both.body.matches[0].matched_on).toEqual(['phone', 'email']);
    expect((await check(agent, { email: 'nobody@example.com' })).body).toEqual({ matches: [], hidden_count: 0 });
  });

  it("counts, without naming, contacts of the company the caller cannot see; never another company's", async () => {
    await newContact(admin, { first_name: 'Hidden', phone: '305-892-0202' });
    await newContact(foreign, { first_name: 'Elsewhere', phone: '305-892-0202' });
    const asAgent = await check(agent, { phone: '305-892-0202' });
    expect(asAgent.body).toEqual({ matches: [], hidden_count: 1 });
    const asAdmin = await check(admin, { phone: '305-892-0202' });
    expect(asAdmin.body.matches.map((m: { name: string }) => m.name)).toEqual(['Hidden Person']);
    expect(asAdmin.body.hidden_count).toBe(0);
  });

  it('ignores deleted contacts', async () => {
    const gone = await newContact(agent, { phone: '305-892-0303' });
    expect((await agent.delete('/v1/contacts/destroy_all', { ids: [gone.id] })).status).toBe(200);
    expect((await check(agent, { phone: '305-892-0303' })).body.matches).toEqual([]);
  });

  it('refuses a body without phone or email, unknown fields and a phone that is not one', async () => {
    expect((await check(agent, {})).status).toBe(422);
    expect((await check(agent, { name: 'x', phone: '3058920101' })).status).toBe(422);
    const bad = await check(agent, { phone: '12' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.phone).toEqual(['is not a US phone number']);
  });
});
