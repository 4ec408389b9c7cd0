/**
 * A search page has two forms (list.ts pageRows): the planner's, and matched-first for when the planner's runs past
 * its budget. Both must return exactly the same rows, on the first page and after a cursor.
 */
import { ContactsScope } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../../test/harness.js';
import { buildAuthContext } from '../../platform/auth/context.js';
import { companies, users } from '../../platform/db/schema.js';
import { pageQueries } from './list.js';
import { encodeCursor, resolveScope, rowsOf } from './list-scope.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function authFor(email: string) {
  const [row] = await t.database.db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.email, email));
  return buildAuthContext(row.user, row.company, null);
}

describe('search page forms', () => {
  for (const [who, q, order] of [
    ['admin', 'son', 'last_name'],
    ['admin', 'mar', 'first_name'],
    ['manager', 'ia', 'last_name'],
    ['agent', 'an', 'created_at'],
  ] as const) {
    it(`agree for ${who} searching "${q}" ordered by ${order}, page after page`, async () => {
      const auth = await authFor(DEMO(who));
      let cursor: string | undefined;
      for (let page = 0; page < 3; page++) {
        const scope = ContactsScope.parse({ q, limit: 5, order_field: order, ...(cursor ? { cursor } : {}) });
        const r = await resolveScope(t.database.db, auth, scope);
        const forms = pageQueries(r);
        const planner = await rowsOf<Record<string, string>>(t.database.db, forms.page);
        if (q.length < 3) {
          expect(forms.matchFirst).toBeNull();
          return;
        }
        const matched = await rowsOf<Record<string, string>>(t.database.db, forms.matchFirst!);
        expect(matched.map((x) => String(x.id))).toEqual(planner.map((x) => String(x.id)));
        if (planner.length <= 5) return;
        const last = planner[4];
        cursor = encodeCursor({ f: order, o: r.dir, k: r.keys.map((_, i) => last[`k${i}`]), id: Number(last.id) });
      }
    });
  }
});
