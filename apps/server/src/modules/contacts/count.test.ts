/**
 * PATCH /v1/contacts/count (DECIDED): the true number of contacts a scope matches, for every kind of scope the list
 * takes; and the sampled estimate's arithmetic (only ever answered within its stated margin).
 */
import { ContactsScope } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { countScope, estimateFromSample, estimateScope, exactCountSql, MAX_MARGIN } from './count.js';
import { resolveScope, rowsOf } from './list-scope.js';
import { authFor } from './test-helpers.js';

let t: TestApp;
let admin: Client;
let manager: Client;
let agent: Client;
const count = (c: Client, body: Record<string, unknown> = {}) => c.patch('/v1/contacts/count', body);

/** Walks the list with its cursor: the number of rows a person could page through. */
async function walk(c: Client, body: Record<string, unknown>) {
  let n = 0;
  let cursor: string | null = null;
  do {
    const res: any = await c.patch('/v1/contacts', { ...body, limit: 500, cursor });
    expect(res.status).toBe(200);
    n += res.body.data.length;
    cursor = res.body.meta.next_cursor;
  } while (cursor);
  return n;
}

beforeAll(async () => {
  t = await createTestApp();
  [admin, manager, agent] = await Promise.all(['admin', 'manager', 'agent'].map((r) => signIn(t.app, DEMO(r))));
});
afterAll(() => t.close());

describe('PATCH /v1/contacts/count', () => {
  const scopes: Array<[string, () => Client, Record<string, unknown>]> = [
    ['agent, whole book', () => agent, {}],
    ['admin, whole book', () => admin, {}],
    ['manager, downline view', () => manager, { contact_group: 'downline' }],
    ['manager, all downline', () => manager, { all_downline: true }],
    ['admin, search', () => admin, { q: 'son' }],
    ['admin, two-letter search', () => admin, { q: 'ar' }],
    ['admin, deleted view', () => admin, { contact_group: 'deleted' }],
    ['admin, filters', () => admin, { type: 'client', search: [{ field: 'state', value: ['FL', 'TX'] }] }],
  ];
  for (const [name, who, body] of scopes) {
    it(`is exact and equals the rows of the list: ${name}`, async () => {
      const res = await count(who(), body);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ count: await walk(who(), body), exact: true, margin: null });
      expect(res.body.count).toBeGreaterThan(0);
    });
  }

  it('ignores paging in the body and refuses what the list refuses', async () => {
    const all = (await count(agent, {})).body.count;
    expect((await count(agent, { page: 3, limit: 5 })).body.count).toBe(all);
    expect((await count(agent, { contact_group: 'downline' })).status).toBe(403);
    expect((await count(agent, { pool_id: 999_999 })).status).toBe(404);
    expect((await count(agent, { order_field: 'nope' })).status).toBe(422);
  });

  it('needs a session', async () => {
    const anon = new (agent.constructor as new (app: unknown) => Client)(t.app);
    expect((await count(anon, {})).status).toBe(401);
  });
});

describe('the sampled estimate', () => {
  it('is a binomial proportion of the id span, with its 99% margin', () => {
    // 7,400 of 20,000 draws over a span of a million ids: about 370,000, within +-2.4%.
    const e = estimateFromSample(7400, 20_000, 1_000_000);
    expect(e.count).toBe(370_000);
    expect(e.margin).toBeGreaterThan(0.02);
    expect(e.margin).toBeLessThan(0.03);
    // A rare match (800 hits) is too loose to answer (the route counts exactly instead).
    expect(estimateFromSample(800, 20_000, 1_000_000).margin).toBeGreaterThan(0.03);
    expect(estimateFromSample(0, 20_000, 1_000_000).margin).toBe(Number.POSITIVE_INFINITY);
  });

  it('lands within its margin of the true count, for a whole book and a search', async () => {
    for (const [who, body] of [
      ['admin', {}],
      ['admin', { q: 'son' }],
      ['manager', { all_downline: true }],
    ] as const) {
      const auth = await authFor(t, DEMO(who));
      const r = await resolveScope(t.database.db, auth, ContactsScope.parse(body));
      const est = await estimateScope(t.database.db, r, 20_000, 7);
      const [{ n }] = await rowsOf<{ n: number }>(t.database.db, exactCountSql(r.where));
      expect(n).toBeGreaterThan(0);
      expect(Math.abs(est.count - n), JSON.stringify({ body, est, n })).toBeLessThanOrEqual(Math.ceil(est.margin * n));
    }
  });

  // Only the PostgreSQL server has the budget (PGlite counts exactly, always). A sleep in the set condition makes
  // the exact count overrun it; the sample reads the row condition, which has none.
  it.runIf(Boolean(process.env.TEST_DATABASE_URL))(
    'past the budget: a close estimate says so; a loose one is replaced by the exact count',
    async () => {
      const slow = async (who: string) => {
        const r = await resolveScope(t.database.db, await authFor(t, DEMO(who)), ContactsScope.parse({}));
        const [{ n }] = await rowsOf<{ n: number }>(t.database.db, exactCountSql(r.where));
        return { n, r: { ...r, where: sql`${r.where} and pg_sleep(0.002) is not null` } };
      };
      const whole = await slow('admin');
      const est = await countScope(t.database, whole.r);
      expect(est.exact).toBe(false);
      expect(est.margin).toBeGreaterThan(0);
      expect(est.margin).toBeLessThanOrEqual(MAX_MARGIN);
      expect(Math.abs(est.count - whole.n)).toBeLessThanOrEqual(Math.ceil(est.margin! * whole.n));
      // The agent's book is a small share of the ids: a sample cannot be within 3%, so the count is exact.
      const own = await slow('agent');
      expect(await countScope(t.database, own.r)).toEqual({ count: own.n, exact: true, margin: null });
    },
  );
});
