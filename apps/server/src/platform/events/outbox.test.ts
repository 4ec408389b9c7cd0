/**
 * The domain-event outbox: events exist exactly when their write commits; each subscriber gets each event once
 * (its database work commits with its delivery row), a failing subscriber is retried without re-running the others,
 * two dispatchers ("processes") never deliver an event twice to one subscriber, and a subscriber that keeps failing
 * is given up on with its error kept.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestApp } from '../../../test/harness.js';
import { defineEvent, Outbox, recordEvent } from './outbox.js';

let t: TestApp;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const ContactCreated = defineEvent('test.contact_created', z.object({ contact_id: z.number().int() }));

beforeAll(async () => {
  t = await createTestApp();
  // The app's own dispatcher would take these events too (and find no subscriber for them): the tests run theirs.
  await t.deps.events.stop();
  await q('create table outbox_effects (subscriber text not null, event_id bigint not null)');
});
afterAll(() => t.close());
beforeEach(async () => {
  await q('delete from outbox_effects');
  await q('delete from domain_events');
});

/** A subscriber whose database work is one row in outbox_effects; `fail` decides whether this call throws after it. */
function effect(outbox: Outbox, name: string, fail: (n: number) => boolean = () => false) {
  let calls = 0;
  outbox.subscribe(ContactCreated, name, async (e, tx) => {
    calls++;
    await tx.execute(sql`insert into outbox_effects values (${name}, ${e.id})`);
    if (fail(calls)) throw new Error(`${name} is down`);
  });
  return () => calls;
}
const effects = (name: string) => q('select event_id from outbox_effects where subscriber = $1', [name]);
const record = (contactId: number) =>
  t.database.db.transaction((tx) =>
    recordEvent(tx, ContactCreated, { companyId: 1, payload: { contact_id: contactId } }),
  );

describe('the outbox', () => {
  it('records an event only when its write commits, and refuses a payload of the wrong shape', async () => {
    await expect(
      t.database.db.transaction(async (tx) => {
        await recordEvent(tx, ContactCreated, { companyId: 1, payload: { contact_id: 1 } });
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(await q('select id from domain_events')).toEqual([]);
    await expect(
      recordEvent(t.database.db, ContactCreated, { companyId: 1, payload: { contact_id: 'x' } as never }),
    ).rejects.toThrow();
  });

  it('retries only the subscriber that failed; the other is not run again, and nothing is done twice', async () => {
    const outbox = new Outbox(t.database, { pollMs: 10 });
    const timeline = effect(outbox, 'timeline');
    const live = effect(outbox, 'live', (n) => n === 1);
    const id = await record(7);
    await outbox.drain();
    expect(timeline()).toBe(1);
    expect(live()).toBe(2);
    // The failed call's row rolled back with it: one effect each.
    expect(await effects('timeline')).toHaveLength(1);
    expect(await effects('live')).toHaveLength(1);
    const [ev] = await q('select dispatched_at, attempts, last_error from domain_events where id = $1', [id]);
    expect(ev.dispatched_at).not.toBeNull();
    expect(ev.attempts).toBe(2);
    expect(ev.last_error).toContain('live is down');
  });

  it('delivers each event once per subscriber when two processes dispatch at the same time', async () => {
    const a = new Outbox(t.database, { batch: 5 });
    const b = new Outbox(t.database, { batch: 5 });
    for (const o of [a, b]) {
      effect(o, 'timeline');
      effect(o, 'campaigns');
    }
    for (let i = 0; i < 40; i++) await record(i);
    await Promise.all([a.drain(), b.drain(), a.drain()]);
    for (const name of ['timeline', 'campaigns']) {
      const rows = await q<{ n: number; d: number }>(
        'select count(*)::int as n, count(distinct event_id)::int as d from outbox_effects where subscriber = $1',
        [name],
      );
      expect(rows[0]).toEqual({ n: 40, d: 40 });
    }
    expect(await q('select id from domain_events where dispatched_at is null')).toEqual([]);
  });

  it('gives up on a subscriber that keeps failing, keeping its error, and still serves the others', async () => {
    const outbox = new Outbox(t.database, { maxAttempts: 3 });
    effect(outbox, 'webhooks_out', () => true);
    const ok = effect(outbox, 'timeline');
    const id = await record(9);
    // Backoff between attempts: move the clock by making the event due again each time.
    for (let i = 0; i < 3; i++) {
      await outbox.dispatchOnce();
      await q('update domain_events set next_attempt_at = now() where id = $1', [id]);
    }
    expect(ok()).toBe(1);
    const rows = await q(
      'select subscriber, status, error from domain_event_deliveries where event_id = $1 order by 1',
      [id],
    );
    expect(rows).toEqual([
      { subscriber: 'timeline', status: 'done', error: null },
      { subscriber: 'webhooks_out', status: 'dead', error: 'webhooks_out is down' },
    ]);
    expect(await effects('webhooks_out')).toEqual([]);
    const [ev] = await q('select dispatched_at from domain_events where id = $1', [id]);
    expect(ev.dispatched_at).not.toBeNull();
  });

  it('runs with the job runner and dispatches right after a poke', async () => {
    const outbox = new Outbox(t.database, { pollMs: 60_000 });
    let seen = 0;
    outbox.subscribe(ContactCreated, 'counter', async () => {
      seen++;
    });
    outbox.start();
    await record(11);
    outbox.poke();
    for (let i = 0; i < 100 && seen === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await outbox.stop();
    expect(seen).toBe(1);
  });
});
