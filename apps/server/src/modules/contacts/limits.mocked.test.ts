/**
 * The spec's maximums (MAX_TRANSFER_LIMIT 250,000, MAX_EXPORT_LIMIT 999,999) checked without seeding a million
 * rows: the constants are lowered to 5 for this file, and the demo book has far more than 5 contacts.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';

vi.mock('@harbor/shared', async (original) => ({
  ...(await original<typeof import('@harbor/shared')>()),
  MAX_TRANSFER_LIMIT: 5,
  MAX_EXPORT_LIMIT: 5,
}));

let t: TestApp;
let admin: Client;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t.app, DEMO('admin'));
});
afterAll(() => t.close());

describe('limits', () => {
  it('refuses a transfer over MAX_TRANSFER_LIMIT and starts nothing', async () => {
    const [u] = await t.database.query<{ id: number }>("select id from users where email = 'agent@demo.harbor.test'");
    const res = await admin.patch('/v1/contacts/transfer_group', { all: true, contacts_scope: {}, to_user_id: u.id });
    expect(res.status).toBe(422);
    expect(res.body.errors.all[0]).toMatch(/at most 5 contacts/);
    const [{ n }] = await t.database.query<{ n: number }>(
      "select count(*)::int as n from transfer_attempts a join companies c on c.id = a.company_id where c.number = 'C-1001'",
    );
    expect(n).toBe(0);
    const ok = await admin.patch('/v1/contacts/transfer_group', {
      all: true,
      contacts_scope: { select_n: 5 },
      to_user_id: u.id,
    });
    expect(ok.status).toBe(202);
    await t.deps.jobs.drain();
  });

  it('refuses an export over MAX_EXPORT_LIMIT', async () => {
    const res = await admin.request('PATCH', '/v1/export.csv', { all: true, contacts_scope: {} });
    expect(res.status).toBe(422);
    expect(res.body.errors.all[0]).toMatch(/at most 5 contacts/);
    const ok = await admin.request('PATCH', '/v1/export.csv', { all: true, contacts_scope: { select_n: 5 } });
    expect(ok.status).toBe(200);
    expect(String(ok.body).trim().split(/\r?\n/)).toHaveLength(6);
  });
});
