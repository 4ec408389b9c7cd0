/**
 * Texts cut off mid-send (docs/decisions/sms-interrupted-sends.md): a row left `sending` is settled with the carrier
 * (the loopback answers Twilio's message fetch and list), never simply sent again: adopted when the carrier has it,
 * followed to its status when only the callbacks were lost, sent once more only when the carrier never took it (and
 * the person may still be texted), with one debit throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp, until } from '../../../test/harness.js';
import { MessagingError } from '../../integrations/twilio/messaging.js';
import { newContact } from '../contacts/test-helpers.js';
import { topUp } from '../wallet/test-helpers.js';
import { reconcileStale } from './reconcile.js';
import { sendThrough } from './test-helpers.js';

let t: TestApp;
let agent: Client;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

const taken = (e164: string) =>
  t.deps.messaging
    .carrier!.acceptedMessages()
    .filter((m) => m.to === e164)
    .map((m) => m.sid);
const row = async (id: number) =>
  (await q<{ sid: string | null; status: string }>('select sid, status from sms_messages where id = $1', [id]))[0];
const debits = async (id: number) =>
  (await q('select 1 from ledger_transactions where idempotency_key = $1', [`sms:${id}`])).length;
/** As a process killed mid-send leaves it, ten minutes ago. */
const cutOff = (id: number, keepSid = false) =>
  q(
    `update sms_messages set status = 'sending', ${keepSid ? '' : 'sid = null,'} updated_at = now() - interval '10 minutes'
     where id = $1`,
    [id],
  );

async function text(phone: string, body: string, opts: { lost?: boolean } = {}) {
  const c = await newContact(agent, { first_name: 'Rita', last_name: `Cut ${phone.slice(-4)}`, phone });
  // No answer from the carrier (a timeout): it is not known whether it took the text.
  const lost = opts.lost ? new MessagingError('socket hang up', null, true, true) : undefined;
  return { contact: c, id: Number((await sendThrough(t, agent, c, body, lost)).id) };
}

beforeAll(async () => {
  t = await createTestApp();
  agent = await signIn(t.app, DEMO('agent'));
  await q(`update users set max_plus_active = true, max_plus_plan = 'premium' where email = $1`, [DEMO('agent')]);
  await topUp(agent, 1_000);
  // The every-minute job leaves these tests' rows to them (it would settle them first, at a minute's turn).
  t.deps.config.sms.reconcileAfterMs = 24 * 3_600_000;
});
/** What the job does, for rows `sending` for over 5 minutes. */
const reconcile = () => reconcileStale(t.deps, { olderThanMs: 5 * 60_000 });
afterAll(() => t.close());

describe('texts cut off mid-send', () => {
  it('adopts the message the carrier took when its sid was never stored, and follows it to delivered', async () => {
    const { id } = await text('1-813-555-0301', 'Adopt me');
    await until(async () => (await row(id)).status === 'delivered', 'delivered');
    const [sid] = taken('+18135550301');
    await cutOff(id);
    expect(await reconcile()).toMatchObject({ adopted: 1 });
    expect(await row(id)).toEqual({ sid, status: 'delivered' });
    expect(taken('+18135550301')).toHaveLength(1);
    expect(await debits(id)).toBe(1);
  });

  it('follows a stored sid whose status callbacks were lost', async () => {
    const { id } = await text('1-813-555-0302', 'Follow me');
    await until(async () => (await row(id)).status === 'delivered', 'delivered');
    await cutOff(id, true);
    expect(await reconcile()).toMatchObject({ advanced: 1 });
    expect((await row(id)).status).toBe('delivered');
  });

  it('sends once more a text the carrier never took, with its one debit, and leaves a recent one alone', async () => {
    const { id } = await text('1-813-555-0304', 'Never taken', { lost: true });
    expect(await row(id)).toEqual({ sid: null, status: 'sending' });
    expect(taken('+18135550304')).toHaveLength(0);
    // Younger than SMS_RECONCILE_AFTER_MS: its answer may still come.
    expect(await reconcile()).toMatchObject({ resent: 0, adopted: 0 });
    await cutOff(id);
    expect(await reconcile()).toMatchObject({ resent: 1 });
    const [sid] = taken('+18135550304');
    expect(sid).toBeTruthy();
    await until(async () => (await row(id)).status === 'delivered', 'delivered');
    expect((await row(id)).sid).toBe(sid);
    // Again: nothing left to settle, nothing sent twice.
    await q(`update sms_messages set updated_at = now() - interval '10 minutes' where id = $1`, [id]);
    expect(await reconcile()).toMatchObject({ resent: 0, adopted: 0, advanced: 0 });
    expect(taken('+18135550304')).toHaveLength(1);
    expect(await debits(id)).toBe(1);
  });

  it('does not send again to a person who opted out meanwhile: the text fails', async () => {
    const { id, contact } = await text('1-813-555-0305', 'Too late', { lost: true });
    const out = await agent.post('/v1/sms/update_permission', { contact_id: contact.id, status: 'opted_out' });
    expect(out.status).toBe(200);
    await cutOff(id);
    expect(await reconcile()).toMatchObject({ failed: 1 });
    expect(await row(id)).toEqual({ sid: null, status: 'failed' });
    expect(taken('+18135550305')).toHaveLength(0);
    expect(await debits(id)).toBe(1);
  });
});
