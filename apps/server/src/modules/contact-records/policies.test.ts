import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { newContact } from '../contacts/test-helpers.js';

let t: TestApp;
let manager: Client;
let agent: Client;
let telemarketer: Client;
let foreign: Client;

beforeAll(async () => {
  t = await createTestApp();
  [manager, agent, telemarketer, foreign] = await Promise.all([
    signIn(t.app, DEMO('manager')),
    signIn(t.app, DEMO('agent')),
    signIn(t.app, DEMO('telemarketer')),
    signIn(t.app, RECRUIT('admin')),
  ]);
});
afterAll(() => t.close());

const carrierId = async (client: Client, name: string) =>
  (await client.get(`/v1/carriers?q=${encodeURIComponent(name)}`)).body.data[0].id as number;

describe('policies', () => {
  it('creates, lists, shows, updates and deletes a policy (money in cents), each on the timeline', async () => {
    const c = await newContact(agent);
    const humana = await carrierId(agent, 'Humana');
    const created = await agent.post(`/v1/contacts/${c.number}/policies`, {
      carrier_id: humana,
      product_type: 'medigap',
      plan_name: 'Plan G',
      premium_cents: 14_250,
      effective_date: '2026-02-01',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ carrier: { name: 'Humana' }, premium_cents: 14_250, status: 'pending' });
    const url = `/v1/contacts/${c.number}/policies/${created.body.id}`;
    expect((await manager.get(`/v1/contacts/${c.number}/policies`)).body.data).toHaveLength(1);
    expect((await agent.get(url)).body.plan_name).toBe('Plan G');
    const updated = await agent.patch(url, { status: 'active', premium_cents: 15_000 });
    expect(updated.body).toMatchObject({ status: 'active', premium_cents: 15_000, plan_name: 'Plan G' });
    expect((await agent.delete(url)).status).toBe(204);
    expect((await agent.get(url)).status).toBe(404);
    const kinds = (await agent.get(`/v1/contacts/${c.number}`)).body.timeline.map((e: { kind: string }) => e.kind);
    expect(kinds.slice(0, 3)).toEqual(['policy_deleted', 'policy_updated', 'policy_added']);
  });

  it('refuses bad input, foreign carriers, and callers who cannot see the contact', async () => {
    const c = await newContact(agent);
    const base = `/v1/contacts/${c.number}/policies`;
    expect((await agent.post(base, { product_type: 'spaceship' })).status).toBe(422);
    expect((await agent.post(base, { product_type: 'life', premium_cents: 12.5 })).status).toBe(422);
    expect((await agent.post(base, { product_type: 'life', contact_id: 1 })).status).toBe(422);
    const order = await agent.post(base, {
      product_type: 'life',
      effective_date: '2026-05-01',
      termination_date: '2026-01-01',
    });
    expect(order.status).toBe(422);
    expect(order.body.errors.termination_date).toBeDefined();
    const theirs = await carrierId(foreign, 'Humana');
    const res = await agent.post(base, { product_type: 'life', carrier_id: theirs });
    expect(res.status).toBe(422);
    expect(res.body.errors.carrier_id).toEqual(['does not exist']);
    expect((await telemarketer.post(base, { product_type: 'life' })).status).toBe(404);
    expect((await foreign.get(base)).status).toBe(404);
    const p = (await agent.post(base, { product_type: 'life' })).body;
    const other = await newContact(agent);
    expect((await agent.get(`/v1/contacts/${other.number}/policies/${p.id}`)).status).toBe(404);
    expect((await agent.get(`/v1/contacts/${c.number}/policies`)).body.data).toHaveLength(1);
  });
});

describe('securities', () => {
  it('runs the same five routes', async () => {
    const c = await newContact(agent);
    const base = `/v1/contacts/${c.number}/securities`;
    const created = await agent.post(base, {
      kind: 'ira',
      institution: 'Fidelity',
      account_last4: '1234',
      value_cents: 5_000_000,
    });
    expect(created.status).toBe(201);
    const url = `${base}/${created.body.id}`;
    expect((await agent.get(base)).body.data).toHaveLength(1);
    expect((await agent.patch(url, { value_cents: 5_100_000 })).body.value_cents).toBe(5_100_000);
    expect((await agent.get(url)).body.institution).toBe('Fidelity');
    expect((await agent.post(base, { kind: 'ira', account_last4: '12345' })).status).toBe(422);
    expect((await agent.post(base, { kind: 'gold bars' })).status).toBe(422);
    expect((await telemarketer.get(url)).status).toBe(404);
    expect((await foreign.delete(url)).status).toBe(404);
    expect((await agent.delete(url)).status).toBe(204);
    expect((await agent.get(base)).body.data).toHaveLength(0);
  });
});
