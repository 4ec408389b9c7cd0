/**
 * A search page has two forms in one statement (list.ts): matched first through the trigram index, or an ordered
 * walk testing each row; a probe of the matches picks one. Both must return exactly the same rows, on the first page
 * and after a cursor, whatever the order.
 */
import { ContactsScope } from '@harbor/shared';
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../../test/harness.js';
import { pageIdsSql } from './list.js';
import { encodeCursor, resolveScope, rowsOf } from './list-scope.js';
import { authFor } from './test-helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('search page forms', () => {
  for (const [who, q, order] of [
    ['admin', 'son', 'last_name'],
    ['admin', 'mar', 'first_name'],
    ['admin', 'mar ia', 'owner'],
    ['manager', 'ia', 'last_name'],
    ['manager', 'ez', 'status'],
    ['agent', 'an', 'created_at'],
    ['agent', 'ann', 'created_at'],
  ] as const) {
    it(`agree for ${who} searching "${q}" ordered by ${order}, page after page`, async () => {
      const auth = await authFor(t, DEMO(who));
      let cursor: string | undefined;
      let pages = 0;
      for (let page = 0; page < 3; page++) {
        const scope = ContactsScope.parse({ q, limit: 5, order_field: order, ...(cursor ? { cursor } : {}) });
        const r = await resolveScope(t.database.db, auth, scope);
        const walk = await rowsOf<Record<string, string>>(t.database.db, pageIdsSql(r, 0));
        const matched = await rowsOf<Record<string, string>>(t.database.db, pageIdsSql(r, 1_000_000));
        expect(matched.map((x) => String(x.id))).toEqual(walk.map((x) => String(x.id)));
        pages++;
        if (walk.length <= 5) break;
        const last = walk[4];
        cursor = encodeCursor({ f: order, o: r.dir, k: r.keys.map((_, i) => last[`k${i}`]), id: Number(last.id) });
      }
      expect(pages).toBeGreaterThan(0);
    });
  }
});

describe('one statement, one way', () => {
  // The probe's verdict is a one-time filter: the way not taken is never executed, whichever it is.
  it('runs only the branch the probe picks', async () => {
    const auth = await authFor(t, DEMO('admin'));
    const r = await resolveScope(t.database.db, auth, ContactsScope.parse({ q: 'son', limit: 5 }));
    const plan = async (probeLimit: number) => {
      const { sql: text, params } = new PgDialect().sqlToQuery(pageIdsSql(r, probeLimit));
      const rows = await t.database.query<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) ${text}`, params);
      return rows.map((x) => x['QUERY PLAN']).join('\n');
    };
    const matchedFirst = await plan(1_000_000);
    expect(matchedFirst).toMatch(
      /Index Only Scan using contacts_company_name[^\n]*\(never executed\)|Scan[^\n]*contacts_company_name[^\n]*never executed/,
    );
    const walk = await plan(0);
    expect(walk).toMatch(/Scan on matched[^\n]*\(never executed\)/);
  });
});
