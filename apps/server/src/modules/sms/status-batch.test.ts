/**
 * Status callbacks worked in batches (status-batch.ts) through the signed webhook route: callbacks of many texts,
 * repeated three times and shuffled, arrive while no worker runs, then one drain moves every text to its final
 * status in set-based statements: one stored event per (sid, status), no status backwards, a 30006 records a
 * landline, and a callback for a sid not stored yet is tried again until the sid appears.
 */
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp, until } from '../../../test/harness.js';

let t: TestApp;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const URL_PATH = '/v1/webhooks/twilio/sms-status';

const post = (params: Record<string, string>) =>
  t.app.inject({
    method: 'POST',
    url: URL_PATH,
    payload: new URLSearchParams(params).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(
        t.deps.messaging.port.authToken,
        `http://localhost:3000${URL_PATH}`,
        params,
      ),
    },
  });

let companyId: number;
let userId: number;
async function stored(sid: string, phone: string) {
  await q(
    `insert into sms_messages (company_id, user_id, direction, from_phone, to_phone, body, status, sid)
     values ($1, $2, 'outbound', '18135550100', $3, 'Hi', 'sending', $4)`,
    [companyId, userId, phone, sid],
  );
}

beforeAll(async () => {
  t = await createTestApp();
  const [u] = await q<{ id: number; company_id: number }>('select id, company_id from users where email = $1', [
    DEMO('agent'),
  ]);
  userId = Number(u.id);
  companyId = Number(u.company_id);
});
afterAll(() => t.close());

describe('SMS status callbacks in batches', () => {
  it('moves 40 texts forward from shuffled, repeated callbacks in one drain; records a landline', async () => {
    const sids = Array.from({ length: 40 }, (_, i) => `SMbatch${i}`);
    for (const [i, sid] of sids.entries()) await stored(sid, `1813555${String(7000 + i)}`);
    const last = (i: number) => (i === 0 ? ['undelivered', '30006'] : ['delivered', '']);
    const calls = sids.flatMap((sid, i) =>
      ['queued', 'sent', last(i)[0]].map((status) => ({
        MessageSid: sid,
        MessageStatus: status,
        AccountSid: 'AC1',
        ...(status === 'undelivered' ? { ErrorCode: last(i)[1] } : {}),
      })),
    );
    const all = [...calls, ...calls, ...calls].sort(() => Math.random() - 0.5);
    await t.deps.jobs.stop();
    for (const c of all) expect((await post(c)).statusCode).toBe(200);
    t.deps.jobs.start();
    await t.deps.jobs.drain();
    const statuses = await q<{ status: string; n: number }>(
      `select status, count(*)::int as n from sms_messages where sid like 'SMbatch%' group by status order by status`,
    );
    expect(statuses).toEqual([
      { status: 'delivered', n: 39 },
      { status: 'undelivered', n: 1 },
    ]);
    const events = await q<{ n: number; pairs: number; open: number }>(
      `select count(*)::int as n, count(distinct event_id)::int as pairs,
         count(*) filter (where processed_at is null)::int as open
       from webhook_events where event_id like 'SMbatch%'`,
    );
    expect(events).toEqual([{ n: 120, pairs: 120, open: 0 }]);
    const [m0] = await q(`select error_code, error_message from sms_messages where sid = 'SMbatch0'`);
    expect(m0).toMatchObject({ error_code: 30006 });
    expect(await q(`select line_type from phone_verifications where phone = '18135557000'`)).toEqual([
      { line_type: 'landline' },
    ]);
    // A late "sent" moves nothing back.
    await post({ MessageSid: 'SMbatch5', MessageStatus: 'sending', AccountSid: 'AC1' });
    await t.deps.jobs.drain();
    expect((await q(`select status from sms_messages where sid = 'SMbatch5'`))[0].status).toBe('delivered');
  });

  it('tries a callback for a sid not stored yet again, and moves the text once it is', async () => {
    expect((await post({ MessageSid: 'SMlate', MessageStatus: 'delivered', AccountSid: 'AC1' })).statusCode).toBe(200);
    await until(
      async () => (await q(`select 1 from webhook_events where event_id = 'SMlate:delivered' and attempts > 0`)).length,
      'a failed attempt',
    );
    const [e] = await q(`select processed_at, error from webhook_events where event_id = 'SMlate:delivered'`);
    expect(e).toMatchObject({ processed_at: null, error: 'MessageSid is not stored yet' });
    await stored('SMlate', '18135557999');
    await until(
      async () => (await q(`select status from sms_messages where sid = 'SMlate'`))[0].status === 'delivered',
      'the retry',
      20_000,
    );
  });
});
