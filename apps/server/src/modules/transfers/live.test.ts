/**
 * A transfer's live notification (issue 8: "published in a shape the browser drops; reverted rows still read
 * 'moved'"): the job records the change in its transaction, the outbox delivers it, and the person who started the
 * transfer receives a message in the shared shape the browser parses, for completion and for the revert.
 */
import { NotificationsChannelMessage, type TransferAttemptMessage } from '@harbor/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { userStream } from '../../platform/live/channels.js';
import { publishLive } from '../../platform/live/publish.js';

let t: TestApp;
let manager: Client;
const received: unknown[] = [];
const ids: Record<string, number> = {};
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

beforeAll(async () => {
  t = await createTestApp();
  manager = await signIn(t.app, DEMO('manager'));
  for (const u of await q<{ id: number; email: string }>('select id, email from users')) ids[u.email] = u.id;
  await t.deps.bus.subscribe(userStream(ids[DEMO('manager')]), (m) => received.push(m));
});
afterAll(() => t.close());

const settle = async () => {
  await t.deps.jobs.drain();
  await t.deps.events.drain();
};
const last = () => NotificationsChannelMessage.parse(received.at(-1)) as TransferAttemptMessage;

describe('transfer notifications', () => {
  it('tells the starter when the transfer completes, then when it is reverted, in the browser’s shape', async () => {
    const mine = await q<{ id: string }>(
      'select id from contacts where owner_id = $1 and deleted_at is null order by id limit 3',
      [ids[DEMO('agent')]],
    );
    const res = await manager.patch('/v1/contacts/transfer_group', {
      ids: mine.map((r) => Number(r.id)),
      to_user_id: ids[DEMO('telemarketer')],
    });
    expect(res.status).toBe(202);
    await settle();
    expect(received).toHaveLength(1);
    expect(last()).toMatchObject({
      type: 'transfer_attempt',
      id: res.body.id,
      status: 'complete',
      reverted: false,
      processed: 3,
      title: 'Transfer complete',
      body: '3 contacts moved to Tyler Brooks.',
      link: `/contacts/transfers?attempt=${res.body.id}`,
    });

    expect((await manager.post(`/v1/contacts/transfer_attempts/${res.body.id}`, { revert: true })).status).toBe(202);
    await settle();
    expect(received).toHaveLength(2);
    expect(last()).toMatchObject({ id: res.body.id, reverted: true, reverting: false, title: 'Transfer reverted' });
    // Each event reached its subscriber once.
    const deliveries = await q(
      "select status from domain_event_deliveries where subscriber = 'transfers.notify_starter'",
    );
    expect(deliveries).toEqual([{ status: 'done' }, { status: 'done' }]);
  });

  it('refuses to publish the shape the browser used to drop', async () => {
    const old = { type: 'transfer_attempt', id: 1, status: 'reverted' };
    expect(() =>
      publishLive(t.deps.bus, 'NotificationsChannel', userStream(1), old as unknown as TransferAttemptMessage),
    ).toThrow();
  });
});
