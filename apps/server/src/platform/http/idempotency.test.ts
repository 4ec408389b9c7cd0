/**
 * Idempotency-Key in the pipeline, on a test route that "moves money" (a row per call): a replay answers the stored
 * status and body without running again; another body under the same key is 409; a duplicate that arrives while
 * the first runs is 409 with Retry-After; a 5xx releases the key; keys are per user and last 24 hours.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { invalid } from './errors.js';
import { removeExpiredIdempotencyKeys } from './idempotency.js';

let t: TestApp;
let agent: Client;
let manager: Client;
let release: () => void = () => {};
const q = <T = Record<string, any>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
const payments = async () => (await q<{ n: number }>('select count(*)::int as n from test_payments'))[0].n;

const Body = z.object({ amount: z.number().int(), to: z.string() });

beforeAll(async () => {
  t = await createTestApp({
    setup(app) {
      const handler = async (req: { body: unknown }, reply: { code(n: number): { send(b: unknown): unknown } }) => {
        const body = req.body as z.infer<typeof Body>;
        if (body.amount <= 0) throw invalid('amount', 'must be positive');
        if (body.amount === 13) throw new Error('the processor fell over');
        if (body.amount === 99) await new Promise<void>((r) => (release = r));
        const [row] = await q<{ id: number }>('insert into test_payments (amount) values ($1) returning id', [
          body.amount,
        ]);
        return reply.code(201).send({ payment_id: row.id, amount: body.amount, to: body.to });
      };
      app.post(
        '/v1/test/pay',
        { config: { access: 'authenticated', idempotent: true }, schema: { body: Body } },
        handler,
      );
      app.post(
        '/v1/test/pay_strict',
        { config: { access: 'authenticated', idempotent: 'required' }, schema: { body: Body } },
        handler,
      );
    },
  });
  await q('create table test_payments (id serial primary key, amount int not null)');
  [agent, manager] = await Promise.all([signIn(t.app, DEMO('agent')), signIn(t.app, DEMO('manager'))]);
});
afterAll(() => t.close());

const pay = (c: Client, key: string | null, body: Record<string, unknown>, path = '/v1/test/pay') =>
  c.request('POST', path, body, key === null ? {} : { 'idempotency-key': key });

describe('Idempotency-Key', () => {
  it('replays the stored answer to the same key and body, without paying twice', async () => {
    const first = await pay(agent, 'k-1', { amount: 500, to: 'wallet-7' });
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    // The same body with its keys in another order is the same request.
    const again = await pay(agent, 'k-1', { to: 'wallet-7', amount: 500 });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(await payments()).toBe(1);
    // No key: an ordinary request.
    expect((await pay(agent, null, { amount: 500, to: 'wallet-7' })).status).toBe(201);
    expect(await payments()).toBe(2);
  });

  it('answers 409 to the same key with another body or on another route', async () => {
    const other = await pay(agent, 'k-1', { amount: 501, to: 'wallet-7' });
    expect(other.status).toBe(409);
    expect(other.body).toEqual({ errors: { idempotency_key: ['was already used with a different request'] } });
    expect((await pay(agent, 'k-1', { amount: 500, to: 'wallet-7' }, '/v1/test/pay_strict')).status).toBe(409);
    expect(await payments()).toBe(2);
  });

  it('answers 409 with Retry-After to a duplicate that arrives while the first still runs', async () => {
    const slow = pay(agent, 'k-slow', { amount: 99, to: 'wallet-7' });
    await new Promise((r) => setTimeout(r, 200));
    const dup = await pay(agent, 'k-slow', { amount: 99, to: 'wallet-7' });
    expect(dup.status).toBe(409);
    expect(dup.headers['retry-after']).toBe('1');
    release();
    expect((await slow).status).toBe(201);
    const later = await pay(agent, 'k-slow', { amount: 99, to: 'wallet-7' });
    expect(later.headers['idempotent-replayed']).toBe('true');
    expect(await payments()).toBe(3);
  });

  it('stores a refusal (4xx) like any answer, and releases the key after a 5xx so a retry runs', async () => {
    const refused = await pay(agent, 'k-neg', { amount: -5, to: 'wallet-7' });
    expect(refused.status).toBe(422);
    const replay = await pay(agent, 'k-neg', { amount: -5, to: 'wallet-7' });
    expect(replay.status).toBe(422);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect((await pay(agent, 'k-boom', { amount: 13, to: 'wallet-7' })).status).toBe(500);
    expect(await q("select key from idempotency_keys where key = 'k-boom'")).toEqual([]);
  });

  it('keeps keys per user, demands one where required, refuses a malformed one', async () => {
    const mine = await pay(manager, 'k-1', { amount: 700, to: 'wallet-9' });
    expect(mine.status).toBe(201);
    expect(mine.headers['idempotent-replayed']).toBeUndefined();
    const none = await pay(agent, null, { amount: 5, to: 'x' }, '/v1/test/pay_strict');
    expect(none.status).toBe(422);
    expect(none.body.errors.idempotency_key).toBeDefined();
    expect((await pay(agent, 'has space', { amount: 5, to: 'x' })).status).toBe(422);
    expect((await pay(agent, 'x'.repeat(256), { amount: 5, to: 'x' })).status).toBe(422);
  });

  it('forgets a key after 24 hours: the hourly job removes it, and a reused key runs again', async () => {
    await q("update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k-1'");
    const before = await payments();
    const reused = await pay(agent, 'k-1', { amount: 800, to: 'wallet-1' });
    expect(reused.status).toBe(201);
    expect(await payments()).toBe(before + 1);
    await q("update idempotency_keys set created_at = now() - interval '25 hours' where key = 'k-neg'");
    await removeExpiredIdempotencyKeys(t.database.db);
    expect(await q("select key from idempotency_keys where key = 'k-neg'")).toEqual([]);
    // The agent's renewed k-1 stays; the manager's k-1, aged with it above, went with the expired ones.
    expect(await q("select key from idempotency_keys where key = 'k-1'")).toHaveLength(1);
  });
});
