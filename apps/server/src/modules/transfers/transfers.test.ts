import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
let fieldManager: Client;
const users: Record<string, number> = {};

const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const ownedBy = async (email: string) =>
  (
    await q<{ id: string }>(
      'select c.id from contacts c join users u on u.id = c.owner_id where u.email = $1 and c.deleted_at is null order by c.id',
      [email],
    )
  ).map((r) => Number(r.id));

const companyOf = async (email: string) =>
  (await q<{ company_id: number }>('select company_id from users where email = $1', [email]))[0].company_id;
const numberOf = async (id: number) =>
  Number((await q<{ number: string }>('select number from contacts where id = $1', [id]))[0].number);

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent, fieldManager] = await Promise.all(
    ['admin', 'manager', 'agent', 'field_manager'].map((r) => signIn(t.app, DEMO(r))),
  );
  for (const u of await q<{ id: number; email: string }>('select id, email from users')) users[u.email] = u.id;
});
afterAll(() => t.close());

describe('transfers', () => {
  let attemptId: number;
  let moved: number[];

  it('a manager transfers every contact of a filter to another agent, as a job that completes', async () => {
    moved = await ownedBy(DEMO('agent'));
    const res = await manager.patch('/v1/contacts/transfer_group', {
      all: true,
      contacts_scope: { downline_user_id: users[DEMO('agent')] },
      to_user_id: users[DEMO('telemarketer')],
    });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({
      total: moved.length,
      reverted: false,
      to_user: { id: users[DEMO('telemarketer')] },
    });
    attemptId = res.body.id;
    await t.deps.jobs.drain();
    const status = await manager.get(`/v1/contacts/transfer_attempts/${attemptId}/status`);
    expect(status.body).toMatchObject({ status: 'complete', processed: moved.length, total: moved.length });
    expect(await ownedBy(DEMO('agent'))).toEqual([]);
    // Each moved contact's record is its log row (from whom, by which attempt), not a second copy in the timeline.
    const logs = await q<{ contact_id: string; from_user_id: number; reverted_at: unknown }>(
      `select contact_id, from_user_id, reverted_at from transfer_logs
        where attempt_id = (select max(id) from transfer_attempts where number = $1) order by contact_id`,
      [attemptId],
    );
    expect(logs.map((l) => Number(l.contact_id))).toEqual(moved);
    expect(logs.every((l) => l.from_user_id === users[DEMO('agent')] && l.reverted_at === null)).toBe(true);
    const [{ n }] = await q<{ n: number }>(
      "select count(*)::int as n from contact_events where kind = 'transferred' and contact_id = any($1)",
      [moved],
    );
    expect(n).toBe(0);
    const history = await manager.get(`/v1/contacts/${await numberOf(moved[0])}/transfer_history`);
    expect(history.body.data[0]).toMatchObject({ attempt_id: attemptId, reverted: false, status: 'complete' });
  });

  it('lists attempts (15 a page) with meta, shows one, and pages its logs by 50', async () => {
    const list = await manager.get('/v1/contacts/transfer_attempts');
    expect(list.status).toBe(200);
    expect(list.body.meta).toMatchObject({ current_page: 1, limit: 15, total_count: 1, total_pages: 1 });
    expect(list.body.data[0].id).toBe(attemptId);
    expect((await admin.get('/v1/contacts/transfer_attempts?q=complete')).body.data.map((a: any) => a.id)).toContain(
      attemptId,
    );
    // The field manager did not start it and it is not their downline's.
    expect((await fieldManager.get('/v1/contacts/transfer_attempts')).body.data).toEqual([]);
    expect((await fieldManager.get(`/v1/contacts/transfer_attempts/${attemptId}`)).status).toBe(404);
    expect((await manager.get('/v1/contacts/transfer_attempts?order_field=nope')).status).toBe(422);
    expect((await manager.get('/v1/contacts/transfer_attempts?limit=1000')).status).toBe(422);
    const one = await admin.get(`/v1/contacts/transfer_attempts/${attemptId}`);
    expect(one.body.status).toBe('complete');
    const logs = await manager.get(`/v1/contacts/transfer_attempts/${attemptId}/logs`);
    expect(logs.body.meta).toMatchObject({ limit: 50, total_count: moved.length });
    expect(logs.body.data).toHaveLength(Math.min(50, moved.length));
    expect(logs.body.data[0]).toMatchObject({
      from_user: { id: users[DEMO('agent')] },
      to_user: { id: users[DEMO('telemarketer')] },
    });
  });

  it('reverts: every contact goes back to its previous owner, once, but one moved again since stays', async () => {
    // Someone moved this one again after the transfer: the revert must not overwrite that later change.
    const [kept, ...back] = moved;
    await q('update contacts set owner_id = $1 where id = $2', [users[DEMO('manager')], kept]);
    const res = await manager.post(`/v1/contacts/transfer_attempts/${attemptId}`, { revert: true });
    expect(res.status).toBe(202);
    expect(res.body.reverting).toBe(true);
    await t.deps.jobs.drain();
    const status = await manager.get(`/v1/contacts/transfer_attempts/${attemptId}/status`);
    expect(status.body).toMatchObject({ reverted: true, reverting: false, status: 'complete' });
    expect(await ownedBy(DEMO('agent'))).toEqual(back);
    expect(await ownedBy(DEMO('manager'))).toContain(kept);
    // The logs say, per contact, which were put back.
    const logs = await manager.get(`/v1/contacts/transfer_attempts/${attemptId}/logs`);
    const byContact = new Map(logs.body.data.map((l: any) => [l.contact.id, l.reverted]));
    expect(byContact.get(kept)).toBe(false);
    expect(byContact.get(back[0])).toBe(true);
    expect((await manager.get(`/v1/contacts/${await numberOf(back[0])}/transfer_history`)).body.data[0].reverted).toBe(
      true,
    );
    expect((await manager.get(`/v1/contacts/${await numberOf(kept)}/transfer_history`)).body.data[0].reverted).toBe(
      false,
    );
    expect((await manager.patch(`/v1/contacts/transfer_attempts/${attemptId}`, { revert: true })).status).toBe(409);
    await q('update contacts set owner_id = $1 where id = $2', [users[DEMO('agent')], kept]);
  });

  it('refuses agents, targets outside the caller’s reach, foreign ids and empty selections', async () => {
    const mine = await ownedBy(DEMO('agent'));
    expect(
      (await agent.patch('/v1/contacts/transfer_group', { ids: mine, to_user_id: users[DEMO('manager')] })).status,
    ).toBe(403);
    // basic is not in the manager's downline
    const outside = await manager.patch('/v1/contacts/transfer_group', {
      ids: mine.slice(0, 2),
      to_user_id: users[DEMO('basic')],
    });
    expect(outside.status).toBe(404);
    expect(outside.body.errors.to_user).toBeDefined();
    const foreign = await manager.patch('/v1/contacts/transfer_group', {
      ids: mine.slice(0, 2),
      to_user_id: users[RECRUIT('agent')],
    });
    expect(foreign.status).toBe(404);
    const [fc] = await q<{ id: string }>(
      "select c.id from contacts c join companies co on co.id = c.company_id where co.number = 'C-1002' limit 1",
    );
    expect(
      (
        await manager.patch('/v1/contacts/transfer_group', {
          ids: [mine[0], Number(fc.id)],
          to_user_id: users[DEMO('telemarketer')],
        })
      ).status,
    ).toBe(404);
    expect((await manager.patch('/v1/contacts/transfer_group', { ids: mine.slice(0, 1) })).status).toBe(422);
    const none = await manager.patch('/v1/contacts/transfer_group', {
      all: true,
      contacts_scope: { q: 'zzzz-nobody' },
      to_user_id: users[DEMO('telemarketer')],
    });
    expect(none.status).toBe(422);
    const [{ n }] = await q<{ n: number }>('select count(*)::int as n from transfer_attempts');
    expect(n).toBe(2); // the demo's recruiting attempt and the one above: nothing half-made
  });

  it('transfers into a pool and resumes a failed attempt from its checkpoint', async () => {
    const [pool] = await q<{ id: number }>(
      "select p.id from pools p join companies c on c.id = p.company_id where p.name = 'Shared Leads' and c.number = 'C-1001'",
    );
    const ids = (await ownedBy(DEMO('telemarketer'))).slice(0, 4);
    const res = await admin.patch('/v1/contacts/transfer_group', { ids, to_pool_id: pool.id });
    expect(res.status).toBe(202);
    await t.deps.jobs.drain();
    const rows = await q<{ pool_id: number }>('select pool_id from contacts where id = any($1)', [ids]);
    expect(rows.every((r) => r.pool_id === pool.id)).toBe(true);
    // Resume only applies to failed attempts.
    expect((await admin.patch('/v1/contacts/update_transfer_group', { transfer_attempt_id: res.body.id })).status).toBe(
      409,
    );
    await q("update transfer_attempts set status = 'failed' where number = $1 and company_id = $2", [
      res.body.id,
      await companyOf(DEMO('admin')),
    ]);
    const resumed = await admin.patch('/v1/contacts/update_transfer_group', { transfer_attempt_id: res.body.id });
    expect(resumed.status).toBe(202);
    await t.deps.jobs.drain();
    const after = await admin.get(`/v1/contacts/transfer_attempts/${res.body.id}/status`);
    // Resumed from the checkpoint: nothing counted twice.
    expect(after.body).toMatchObject({ status: 'complete', processed: 4, total: 4 });
  });

  it('answers 404 for another company’s attempt; each company counts its own numbers', async () => {
    // Numbers count per company (docs/decisions/per-company-numbers.md): the recruiting company's demo transfer is
    // its #1 as this company's first is. Renumbered to one this company never reached, it stands for "theirs".
    const [a] = await q<{ id: number }>(
      `update transfer_attempts a set number = 9001 from companies co
        where co.id = a.company_id and co.number = 'C-1002' returning a.number as id`,
    );
    expect((await admin.get(`/v1/contacts/transfer_attempts/${a.id}`)).status).toBe(404);
    expect((await admin.post(`/v1/contacts/transfer_attempts/${a.id}`, { revert: true })).status).toBe(404);
    const other = await signIn(t.app, RECRUIT('admin'));
    expect((await other.get(`/v1/contacts/transfer_attempts/${a.id}/logs`)).body.data).toHaveLength(3);
    // This company's own #1 is its first transfer, whatever the other company did.
    const mine = await admin.get('/v1/contacts/transfer_attempts/1');
    expect(mine.status).toBe(200);
    expect(mine.body.id).toBe(1);
  });
});
