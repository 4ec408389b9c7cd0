/**
 * The broadcast machinery with a recording channel standing in for SMS: preview (who receives, who is removed and
 * why), the snapshot, consent asked again at send time, exactly one send per recipient across temporary failures and
 * a crash in the middle of a batch, cancel, and who may see a broadcast.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, RECRUIT, signIn, type TestApp } from '../../../test/harness.js';
import { authFor, newContact, userId } from '../contacts/test-helpers.js';
import { broadcastChannels, type OutgoingRecipient } from './channels.js';
import { createBroadcast, selectionRecipients } from './create.js';

let t: TestApp;
let agent: Client;
let manager: Client;
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);

/** What the fake provider took, per contact; `failOnce` answers retry the first time; `crashAfter` throws once. */
const taken = new Map<number, number>();
const failOnce = new Set<number>();
const failAlways = new Set<number>();
let crashOnce = false;

beforeAll(async () => {
  t = await createTestApp();
  [agent, manager] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('manager'))]);
  broadcastChannels(t.deps).register(
    {
      channel: 'sms',
      throttle: () => ({ key: 'test-sms', rule: { perSecond: 10_000 } }),
      async send({ recipients, take }) {
        await take(recipients.length);
        const out = recipients.map((r: OutgoingRecipient) => {
          if (failAlways.has(r.contactId)) return { contactId: r.contactId, outcome: 'failed' as const };
          if (failOnce.delete(r.contactId)) return { contactId: r.contactId, outcome: 'retry' as const };
          // Idempotent per recipient, as a real channel must be: a second hand-over of a taken message is not a send.
          if (!taken.has(r.contactId)) taken.set(r.contactId, 1);
          return { contactId: r.contactId, outcome: 'sent' as const };
        });
        if (crashOnce) {
          crashOnce = false;
          throw new Error('worker killed after the provider took the batch');
        }
        return out;
      },
    },
    { replace: true },
  );
});
afterAll(() => t.close());

async function contactsWithConsent(n: number, prefix: string) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const c = await newContact(agent, {
      first_name: `${prefix}${i}`,
      last_name: 'Broadcast',
      phone: `813-555-${String(2000 + i + prefix.length * 37).slice(-4)}`,
    });
    await agent.post(`/v1/contacts/${c.number}/consent`, {
      channels: ['sms'],
      status: 'allowed',
      note: 'Texted START',
    });
    out.push(c);
  }
  return out;
}

async function start(ids: number[], extra: Record<string, unknown> = {}) {
  const auth = await authFor(t, DEMO('agent'));
  const { recipientsSql, selection } = await selectionRecipients(t.database.db, auth, { ids });
  return createBroadcast(t.deps, {
    companyId: auth.company.id,
    userId: auth.user.id,
    channel: 'sms',
    purpose: 'marketing',
    content: { text: 'AEP starts soon' },
    title: 'AEP reminder',
    selection,
    recipientsSql,
    ...extra,
  });
}

describe('preview', () => {
  it('counts who receives it and who is removed and why, naming some of those removed', async () => {
    const [a, b, c] = await contactsWithConsent(3, 'Pv');
    const out = await newContact(agent, { first_name: 'Olive', last_name: 'Out', phone: '813-555-3001' });
    await agent.post(`/v1/contacts/${out.number}/consent`, { channels: ['sms'], status: 'opted_out' });
    const none = await newContact(agent, { first_name: 'Nora', last_name: 'Nophone' });
    const res = await agent.post('/v1/broadcasts/preview', {
      channel: 'sms',
      ids: [a.id, b.id, c.id, out.id, none.id],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ total: 5, receive: 3 });
    expect(res.body.removed).toEqual([
      { reason: 'opted_out', label: 'Opted out', count: 1 },
      { reason: 'no_address', label: 'No phone number', count: 1 },
    ]);
    expect(res.body.removed_sample.map((r: any) => r.name).sort()).toEqual(['Nora Nophone', 'Olive Out']);
  });

  it('refuses a selection outside the caller’s reach or another company’s scope with a 404, and an empty one with a 422', async () => {
    const theirs = await newContact(manager, { first_name: 'Manager', last_name: 'Own' });
    expect((await agent.post('/v1/broadcasts/preview', { channel: 'sms', ids: [theirs.id] })).status).toBe(404);
    const [other] = await q<{ id: number }>('select id from users where email = $1', [RECRUIT('agent')]);
    const foreign = await manager.post('/v1/broadcasts/preview', {
      channel: 'sms',
      all: true,
      contacts_scope: { downline_user_id: other.id },
    });
    expect(foreign.status).toBe(404);
    expect((await agent.post('/v1/broadcasts/preview', { channel: 'sms', ids: [] })).status).toBe(422);
    expect((await agent.post('/v1/broadcasts/preview', { channel: 'fax', ids: [1] })).status).toBe(422);
  });
});

describe('sending', () => {
  it('sends once per allowed recipient across temporary failures and a crash, and records every outcome', async () => {
    const list = await contactsWithConsent(6, 'Sd');
    const out = await newContact(agent, { first_name: 'Oscar', last_name: 'Out', phone: '813-555-3002' });
    failOnce.add(list[0].id);
    failAlways.add(list[1].id);
    crashOnce = true;
    const b = await start([...list.map((c) => c.id), out.id]);
    expect(b).toMatchObject({ status: 'scheduled', total: 7 });
    // Consent is asked when the turn comes: this opt-out, after the broadcast was accepted, still counts.
    await agent.post(`/v1/contacts/${out.number}/consent`, { channels: ['sms'], status: 'opted_out', source: 'reply' });
    await t.deps.jobs.drain(120_000);
    const got = (await agent.get(`/v1/broadcasts/${b!.id}`)).body;
    expect(got).toMatchObject({ status: 'completed', total: 7, sent: 5, removed: 1, failed: 1, processed: 7 });
    expect(got.removed_reasons).toEqual([{ reason: 'opted_out', label: 'Opted out', count: 1 }]);
    for (const c of list.filter((_, i) => i !== 1)) expect(taken.get(c.id)).toBe(1);
    expect(taken.has(out.id)).toBe(false);
    const removed = (await agent.get(`/v1/broadcasts/${b!.id}/recipients?status=removed`)).body.data;
    expect(removed).toEqual([
      expect.objectContaining({
        contact: expect.objectContaining({ id: out.id }),
        reason: 'opted_out',
        basis: 'opted_out:reply',
      }),
    ]);
    const sent = (await agent.get(`/v1/broadcasts/${b!.id}/recipients?status=sent`)).body.data;
    expect(sent[0]).toMatchObject({ basis: 'allowed:agent', address: expect.stringMatching(/^1813555/) });
  });

  it('refuses a send_at in the past and a second click, and sends nothing twice', async () => {
    const [c] = await contactsWithConsent(1, 'Dup');
    await expect(start([c.id], { sendAt: new Date(Date.now() - 3_600_000) })).rejects.toMatchObject({
      statusCode: 422,
    });
    const first = await start([c.id], { fingerprint: `test:${c.id}` });
    await expect(start([c.id], { fingerprint: `test:${c.id}` })).rejects.toMatchObject({ statusCode: 409 });
    await t.deps.jobs.drain(60_000);
    expect((await q('select count(*)::int n from broadcasts where fingerprint = $1', [`test:${c.id}`]))[0].n).toBe(1);
    expect(taken.get(c.id)).toBe(1);
    expect(first).not.toBeNull();
  });
});

describe('cancel and visibility', () => {
  it('cancels a scheduled broadcast so nobody receives it; a second cancel is a 409', async () => {
    const [c] = await contactsWithConsent(1, 'Cx');
    const b = await start([c.id], { sendAt: new Date(Date.now() + 3_600_000) });
    const res = await agent.post(`/v1/broadcasts/${b!.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'cancelled', sent: 0 });
    expect((await agent.post(`/v1/broadcasts/${b!.id}/cancel`)).status).toBe(409);
    await t.database.db.execute(sql`update jobs set run_after = now() where payload->>'id' = ${String(b!.id)}`);
    t.deps.jobs.poke();
    await t.deps.jobs.drain(60_000);
    expect(taken.has(c.id)).toBe(false);
    const rows = await q('select status from broadcast_recipients where broadcast_id = $1', [b!.id]);
    expect(rows).toEqual([{ status: 'cancelled' }]);
  });

  it('shows a broadcast to its sender and their managers, to nobody else', async () => {
    const [c] = await contactsWithConsent(1, 'Vis');
    const b = await start([c.id], { sendAt: new Date(Date.now() + 3_600_000) });
    expect((await manager.get(`/v1/broadcasts/${b!.id}`)).status).toBe(200);
    const list = (await agent.get('/v1/broadcasts?channel=sms')).body;
    expect(list.data.map((x: any) => x.id)).toContain(b!.id);
    const other = await signIn(t.app, DEMO('telemarketer'));
    expect((await other.get(`/v1/broadcasts/${b!.id}`)).status).toBe(404);
    expect((await other.post(`/v1/broadcasts/${b!.id}/cancel`)).status).toBe(404);
    expect(await userId(t, DEMO('agent'))).toBe(b!.userId);
  });
});
