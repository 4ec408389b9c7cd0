/**
 * Refunds of texts the carrier never took (docs/decisions/sms-refunds.md): a send the carrier refused, or one the
 * reconciler finds it never had, is failed with its debit reversed exactly once (key `reversal:sms:<id>`) and its
 * plan units released, and the message says so; a text the carrier took and later reported undelivered keeps its
 * charge.
 */
import twilio from 'twilio';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp, until } from '../../../test/harness.js';
import { MessagingError } from '../../integrations/twilio/messaging.js';
import { newContact } from '../contacts/test-helpers.js';
import { checkSmsAllocation } from '../usage-plans/enforcement.js';
import { grantPlan } from '../usage-plans/test-helpers.js';
import { balance, entriesOf, topUp } from '../wallet/test-helpers.js';
import { reconcileStale } from './reconcile.js';
import { failUntaken } from './refund.js';
import { sendThrough } from './test-helpers.js';

let t: TestApp;
let agent: Client;
let agentId: number;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
/** Cents a segment on the agent's plan (the demo seed's, which takes precedence over the one granted here). */
let PRICE = 0;

const row = async (id: number) =>
  (
    await q<{ sid: string | null; status: string; charged_cents: number; refunded_cents: number }>(
      'select sid, status, charged_cents, refunded_cents from sms_messages where id = $1',
      [id],
    )
  )[0];
const used = async () =>
  Number(
    (
      await q<{ n: number }>(`select coalesce(sum(quantity), 0) as n from usage_totals where user_id = $1`, [agentId])
    )[0].n,
  );
const reversals = async (id: number) => entriesOf(t.database.db, `reversal:sms:${id}`);
/** The thread as the inbox reads it. */
const shown = async (contactId: number, id: number) => {
  const res = await agent.post('/v1/sms/fetch_messages', { contact_id: contactId });
  expect(res.status).toBe(200);
  return (res.body.data as Array<{ id: number; status: string; refunded_cents: number }>).find((m) => m.id === id)!;
};

/** Sends through the route, with the carrier answering `fail` (thrown from the port's send) instead of taking it. */
async function text(phone: string, body: string, fail?: MessagingError) {
  const c = await newContact(agent, { first_name: 'Ruth', last_name: `Refund ${phone.slice(-4)}`, phone });
  const sent = await sendThrough(t, agent, c, body, fail);
  return { contact: c, id: Number(sent.id), body: sent };
}

beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
  const [u] = await q<{ id: number; company_id: number }>(
    `update users set max_plus_active = true, max_plus_plan = 'premium' where email = $1 returning id, company_id`,
    [DEMO('agent')],
  );
  agentId = Number(u.id);
  await grantPlan(t.database.db, {
    companyId: Number(u.company_id),
    userId: agentId,
    product: 'sms',
    allocation: 100,
    unitPrice: 4,
  });
  await topUp(agent, 1_000);
  PRICE = (await checkSmsAllocation(t.database.db, { companyId: Number(u.company_id), userId: agentId })).unitPrice!;
  expect(PRICE).toBeGreaterThan(0);
  t.deps.config.sms.reconcileAfterMs = 24 * 3_600_000;
});
afterAll(() => t.close());

describe('refunds of texts the carrier never took', () => {
  it('refunds a send the carrier refused outright, once, and the message shows it', async () => {
    const before = await balance(agent);
    const usedBefore = await used();
    const refused = new MessagingError("The 'To' number is not a valid phone number.", 21211, false);
    const { id, contact, body } = await text('1-813-555-0401', 'Refused', refused);
    expect(body).toMatchObject({ status: 'failed', refunded_cents: PRICE, error_code: 21211 });
    expect(await row(id)).toMatchObject({ sid: null, status: 'failed', charged_cents: PRICE, refunded_cents: PRICE });
    expect(await balance(agent)).toBe(before);
    expect(await used()).toBe(usedBefore);
    expect(await entriesOf(t.database.db, `sms:${id}`)).toBe(2);
    expect(await reversals(id)).toBe(2);
    expect(await shown(Number(contact.id), id)).toMatchObject({ status: 'failed', refunded_cents: PRICE });
    // Settling it again gives nothing more back.
    expect(await failUntaken(t.deps, id, { message: 'again' })).toBe(false);
    expect(await reversals(id)).toBe(2);
    expect(await balance(agent)).toBe(before);
  });

  it('refunds a text the reconciler finds the carrier never had, after its last hand-off', async () => {
    const lost = new MessagingError('socket hang up', null, true, true);
    const { id, contact } = await text('1-813-555-0402', 'Never had', lost);
    expect(await row(id)).toMatchObject({ sid: null, status: 'sending', charged_cents: PRICE });
    const before = await balance(agent);
    await q(`update sms_messages set send_attempts = 6, updated_at = now() - interval '10 minutes' where id = $1`, [
      id,
    ]);
    expect(await reconcileStale(t.deps, { olderThanMs: 5 * 60_000 })).toMatchObject({ failed: 1 });
    expect(await row(id)).toMatchObject({ status: 'failed', refunded_cents: PRICE });
    expect(await balance(agent)).toBe(before + PRICE);
    expect(await shown(Number(contact.id), id)).toMatchObject({ refunded_cents: PRICE });
    expect(await reconcileStale(t.deps, { olderThanMs: 5 * 60_000 })).toMatchObject({ failed: 0 });
    expect(await reversals(id)).toBe(2);
  });

  it('refunds a text not sent again because the person opted out meanwhile', async () => {
    const lost = new MessagingError('socket hang up', null, true, true);
    const { id, contact } = await text('1-813-555-0403', 'Too late', lost);
    expect(
      (await agent.post('/v1/sms/update_permission', { contact_id: contact.id, status: 'opted_out' })).status,
    ).toBe(200);
    const before = await balance(agent);
    await q(`update sms_messages set updated_at = now() - interval '10 minutes' where id = $1`, [id]);
    // Two reconcilers at once (two processes): one refund.
    const runs = await Promise.all([
      reconcileStale(t.deps, { olderThanMs: 5 * 60_000 }),
      reconcileStale(t.deps, { olderThanMs: 5 * 60_000 }),
    ]);
    expect(runs[0].failed + runs[1].failed).toBe(1);
    expect(await row(id)).toMatchObject({ status: 'failed', refunded_cents: PRICE });
    expect(await balance(agent)).toBe(before + PRICE);
    expect(await reversals(id)).toBe(2);
  });

  it('keeps the charge of a text the carrier took and later reported undelivered', async () => {
    const before = await balance(agent);
    const { id } = await text('1-813-555-0404', 'Taken');
    await until(async () => (await row(id)).status === 'delivered', 'delivered');
    const { sid } = await row(id);
    // Reset to sent, then the carrier's undelivered callback (signed, as Twilio posts it).
    await q(`update sms_messages set status = 'sent' where id = $1`, [id]);
    const params = { MessageSid: sid!, MessageStatus: 'undelivered', ErrorCode: '30003', AccountSid: 'AC1' };
    const url = 'http://localhost:3000/v1/webhooks/twilio/sms-status';
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/webhooks/twilio/sms-status',
      payload: new URLSearchParams(params).toString(),
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': twilio.getExpectedTwilioSignature(t.deps.messaging.port.authToken, url, params),
      },
    });
    expect(res.statusCode).toBe(200);
    await until(async () => (await row(id)).status === 'undelivered', 'undelivered');
    expect(await row(id)).toMatchObject({ charged_cents: PRICE, refunded_cents: 0 });
    expect(await balance(agent)).toBe(before - PRICE);
    expect(await reversals(id)).toBe(0);
    // A taken text is never failed-and-refunded by this path either.
    expect(await failUntaken(t.deps, id, { message: 'no' })).toBe(false);
  });
});
