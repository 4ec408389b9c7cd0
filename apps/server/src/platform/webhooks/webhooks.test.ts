/**
 * Webhooks in, through HTTP: a provider registered only here (HMAC over the raw body), and Twilio's real check.
 * A forged or unsigned callback is refused and nothing is stored; a duplicated callback is answered 200 and worked
 * once; out-of-order callbacks never move a status backwards; the work runs in a durable job that retries.
 */
import crypto from 'node:crypto';
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, until } from '../../../test/harness.js';
import { twilioProvider } from '../../integrations/twilio/webhook.js';
import { advanceStatus, statusRank } from '../db/status-rank.js';
import { WebhookRefused } from './ingress.js';

let t: TestApp;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const SECRET = 'test-provider-secret';
const SMS = statusRank('test_sms', ['queued', 'sending', 'sent', ['delivered', 'undelivered', 'failed']]);
let handled = 0;
let failNext = 0;

const hmac = (body: string) => crypto.createHmac('sha256', SECRET).update(body).digest('hex');
const post = (path: string, body: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'POST', url: path, payload: body, headers });
const callback = (e: { id: string; message: number; status: string }, sign = hmac) => {
  const body = `{ "id": "${e.id}",  "message": ${e.message}, "status": "${e.status}" }`; // not canonical JSON
  return post('/v1/webhooks/testpay', body, { 'content-type': 'application/json', 'x-test-signature': sign(body) });
};
const settle = () => t.deps.jobs.drain();

beforeAll(async () => {
  t = await createTestApp();
  await q(`create table test_messages (id int primary key, company_id int not null, status text not null,
           error_code text)`);
  await q(`insert into test_messages values (1, 1, 'queued', null), (2, 1, 'queued', null)`);
  t.deps.webhooks.register({
    name: 'testpay',
    verify(req) {
      const sig = req.headers['x-test-signature'];
      const expected = hmac(req.rawBody.toString('utf8'));
      if (
        typeof sig !== 'string' ||
        !crypto.timingSafeEqual(Buffer.from(sig), Buffer.from(expected.padEnd(sig.length)))
      ) {
        throw new WebhookRefused('bad signature', 401);
      }
      const e = JSON.parse(req.rawBody.toString('utf8'));
      return [{ id: e.id, type: 'message.status', companyId: 1, payload: e }];
    },
    async handle(event, tx) {
      handled++;
      if (failNext > 0) {
        failNext--;
        throw new Error('downstream is down');
      }
      await advanceStatus(tx, {
        table: 'test_messages',
        id: Number(event.payload.message),
        companyId: 1,
        rank: SMS,
        to: String(event.payload.status),
      });
    },
  });
});
afterAll(() => t.close());

describe('POST /v1/webhooks/{provider}', () => {
  it('refuses a forged, unsigned or unknown callback with a clear 4xx and stores nothing', async () => {
    const forged = await callback({ id: 'e0', message: 1, status: 'sent' }, () => 'f'.repeat(64));
    expect(forged.statusCode).toBe(401);
    expect(forged.json()).toEqual({ errors: { signature: ['bad signature'] } });
    const unsigned = await post('/v1/webhooks/testpay', '{"id":"e0"}', { 'content-type': 'application/json' });
    expect(unsigned.statusCode).toBe(401);
    expect((await post('/v1/webhooks/nobody', '{}', { 'content-type': 'application/json' })).statusCode).toBe(404);
    expect(await q('select id from webhook_events')).toEqual([]);
  });

  it('needs no session or CSRF token, keeps the raw bytes, answers 2xx at once and works once per event id', async () => {
    const first = await callback({ id: 'e1', message: 1, status: 'sent' });
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ received: 1, duplicates: 0 });
    const again = await callback({ id: 'e1', message: 1, status: 'sent' });
    expect(again.json()).toEqual({ received: 0, duplicates: 1 });
    await settle();
    expect(handled).toBe(1);
    const [row] = await q("select processed_at from webhook_events where event_id = 'e1'");
    expect(row.processed_at).not.toBeNull();
    expect((await q('select status from test_messages where id = 1'))[0].status).toBe('sent');
  });

  it('never moves a status backwards when callbacks arrive out of order', async () => {
    await callback({ id: 'e2', message: 2, status: 'delivered' });
    await callback({ id: 'e3', message: 2, status: 'sent' });
    await callback({ id: 'e4', message: 2, status: 'queued' });
    await settle();
    expect((await q('select status from test_messages where id = 2'))[0].status).toBe('delivered');
    // Terminal statuses share a rank: a late "failed" does not overwrite "delivered".
    expect(await advanceStatus(t.database.db, { table: 'test_messages', id: 2, rank: SMS, to: 'failed' })).toBe(false);
    expect(
      await advanceStatus(t.database.db, {
        table: 'test_messages',
        id: 1,
        rank: SMS,
        to: 'undelivered',
        set: { error_code: '30003' },
      }),
    ).toBe(true);
    expect(await q('select status, error_code from test_messages where id = 1')).toEqual([
      { status: 'undelivered', error_code: '30003' },
    ]);
    await expect(
      advanceStatus(t.database.db, { table: 'test_messages', id: 1, rank: SMS, to: 'read' }),
    ).rejects.toThrow('unknown');
  });

  it('retries the work in its job when the handler fails, and finishes it once', async () => {
    await q("update test_messages set status = 'queued' where id = 1");
    failNext = 1;
    const before = handled;
    await callback({ id: 'e5', message: 1, status: 'sending' });
    await settle();
    expect(handled - before).toBe(2);
    const [row] = await q("select processed_at, error from webhook_events where event_id = 'e5'");
    expect(row.processed_at).not.toBeNull();
    expect(row.error).toBeNull();
    expect((await q('select status from test_messages where id = 1'))[0].status).toBe('sending');
  });

  it('checks Twilio callbacks with the real signature over the public URL, deduplicated on SID and status', async () => {
    const seen: string[] = [];
    // Under a name of its own: the texting area already registers the app's `twilio` provider.
    t.deps.webhooks.register({
      ...twilioProvider({
        authToken: 'tw-token',
        handle: async (e) => {
          seen.push(e.id);
        },
      }),
      name: 'twilio-check',
    });
    const path = '/v1/webhooks/twilio-check/sms-status';
    const url = `${t.deps.config.appUrl}${path}`;
    const send = (params: Record<string, string>, signUrl = url) =>
      post(path, new URLSearchParams(params).toString(), {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature('tw-token', signUrl, params),
      });
    const sent = { MessageSid: 'SM9', MessageStatus: 'sent', AccountSid: 'AC1' };
    const res = await send(sent);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/xml');
    expect(res.body).toContain('<Response></Response>');
    await send(sent);
    await send({ ...sent, MessageStatus: 'delivered' });
    expect((await send(sent, 'https://elsewhere.test/v1/webhooks/twilio-check/sms-status')).statusCode).toBe(401);
    await settle();
    expect(seen.sort()).toEqual(['SM9:delivered', 'SM9:sent']);
  });

  it('works a burst in batches: one drain for many callbacks, each event once', async () => {
    await t.deps.jobs.stop();
    const jobsBefore = (
      await q<{ n: number }>(`select count(*)::int as n from jobs where name = 'webhooks.testpay'`)
    )[0].n;
    const before = handled;
    const burst = Array.from({ length: 60 }, (_, i) => ({ id: `b${i}`, message: 2, status: 'delivered' }));
    const res = await Promise.all(burst.map((e) => callback(e)));
    expect(res.every((r) => r.statusCode === 200)).toBe(true);
    const jobsAfter = (await q<{ n: number }>(`select count(*)::int as n from jobs where name = 'webhooks.testpay'`))[0]
      .n;
    // One queued drain stands for the whole burst (it was one job per callback).
    expect(jobsAfter - jobsBefore).toBe(1);
    t.deps.jobs.start();
    await settle();
    expect(handled - before).toBe(60);
    expect(await q(`select 1 from webhook_events where event_id like 'b%' and processed_at is null`)).toEqual([]);
  });

  it('a batch with a failing event: the others are done, it is tried again after a backoff until it succeeds', async () => {
    const batches: number[] = [];
    let refuse = new Set(['m2']);
    t.deps.webhooks.register({
      name: 'testmany',
      verify: (req) => {
        const e = JSON.parse(req.rawBody.toString('utf8'));
        return [{ id: e.id, type: 'x', payload: e }];
      },
      handle: async (e) => {
        if (refuse.has(e.id)) throw new Error(`not yet ${e.id}`);
      },
      handleMany: async (events) => {
        batches.push(events.length);
        return { failed: new Map(events.filter((e) => refuse.has(e.id)).map((e) => [e.rowId, 'not yet'])) };
      },
    });
    await t.deps.jobs.stop();
    for (const id of ['m1', 'm2', 'm3'])
      await post('/v1/webhooks/testmany', JSON.stringify({ id }), { 'content-type': 'application/json' });
    t.deps.jobs.start();
    await until(
      async () => (await q(`select 1 from webhook_events where event_id = 'm2' and attempts = 1`)).length === 1,
      'a failed attempt',
    );
    expect(batches[0]).toBe(3);
    const rows = await q<{ event_id: string; done: boolean; error: string | null; retry: boolean }>(
      `select event_id, processed_at is not null as done, error, retry_at > now() as retry from webhook_events
       where provider = 'testmany' order by event_id`,
    );
    expect(rows).toEqual([
      { event_id: 'm1', done: true, error: null, retry: null },
      { event_id: 'm2', done: false, error: 'not yet', retry: true },
      { event_id: 'm3', done: true, error: null, retry: null },
    ]);
    refuse = new Set();
    await until(
      async () =>
        (await q(`select 1 from webhook_events where event_id = 'm2' and processed_at is not null`)).length === 1,
      'the retry',
      20_000,
    );
    expect(batches).toEqual([3, 1]);
  });

  it('a batch that throws is worked one event at a time, so one bad event holds back no other', async () => {
    const before = handled;
    await t.deps.jobs.stop();
    await q("update test_messages set status = 'queued' where id = 1");
    failNext = 1; // the batch's first event fails once: the batch rolls back, then each goes on its own
    for (const [i, status] of ['sending', 'sent'].entries()) await callback({ id: `f${i}`, message: 1, status });
    t.deps.jobs.start();
    await settle();
    expect(handled - before).toBe(3);
    expect(await q(`select 1 from webhook_events where event_id like 'f%' and processed_at is null`)).toEqual([]);
    expect((await q('select status from test_messages where id = 1'))[0].status).toBe('sent');
  });

  it('with groupAccepts, stores requests that arrive together in few statements, each answered for its own events', async () => {
    const testpay = t.deps.webhooks.get('testpay');
    if (!testpay) throw new Error('testpay is not registered');
    t.deps.webhooks.register({ ...testpay, name: 'testgrouped', groupAccepts: true });
    // 40 requests at once, two of them the same event: 39 new, one duplicate (the later of the two).
    const bodies = Array.from({ length: 40 }, (_, i) => `{"id":"g${Math.min(i, 38)}","message":2,"status":"sent"}`);
    // Each statement takes 30 ms longer, so the burst arrives while the first store is in flight (PGlite in the
    // same process would otherwise answer before the next request is parsed).
    const db = t.deps.database.db;
    const execute = db.execute;
    db.execute = ((query: Parameters<typeof execute>[0]) =>
      new Promise((r) => setTimeout(r, 30)).then(() => execute.call(db, query))) as typeof execute;
    const replies = await Promise.all(
      bodies.map((b) =>
        post('/v1/webhooks/testgrouped', b, { 'content-type': 'application/json', 'x-test-signature': hmac(b) }),
      ),
    ).finally(() => {
      db.execute = execute;
    });
    const answers = replies.map((r) => r.json());
    expect(replies.every((r) => r.statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.received === 1)).toHaveLength(39);
    expect(answers[38]).toEqual({ received: 1, duplicates: 0 });
    expect(answers[39]).toEqual({ received: 0, duplicates: 1 });
    // One statement a group: its rows share the statement's transaction time (one a request would give 39).
    const stored = await q<{ n: number; statements: number }>(
      `select count(*)::int as n, count(distinct received_at)::int as statements
         from webhook_events where provider = 'testgrouped'`,
    );
    expect(stored[0].n).toBe(39);
    expect(stored[0].statements).toBeLessThan(10);
    await settle();
  });
});
