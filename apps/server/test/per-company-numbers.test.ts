/**
 * Issue 15: contact numbers (the number in /contacts/{number}) were one global sequence, so a company could count
 * another's new contacts from the gaps between its own. They are now counted per company.
 */
import { and, eq, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts } from '../src/modules/contacts/schema.js';
import { companies } from '../src/platform/db/schema.js';
import { createTestApp, DEMO, RECRUIT, signIn, type TestApp } from './harness.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function companyId(number: string) {
  return (await t.database.db.select().from(companies).where(eq(companies.number, number)))[0].id;
}
async function highest(company: number) {
  const [row] = await t.database.db
    .select({ n: max(contacts.number) })
    .from(contacts)
    .where(eq(contacts.companyId, company));
  return Number(row.n);
}

describe('contact numbers', () => {
  it('are counted per company: another company creating contacts does not move ours', async () => {
    const insurance = await companyId('C-1001');
    const recruiting = await companyId('C-1002');
    const agent = await signIn(t.app, DEMO('agent'));
    const other = await signIn(t.app, RECRUIT('agent'));
    const ours = await highest(insurance);
    const first = await agent.post('/v1/contacts', { first_name: 'Ada', last_name: 'One', phone: '(502) 555-0101' });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.number).toBeGreaterThan(ours);
    // The other company adds three contacts meanwhile...
    for (const i of [1, 2, 3]) {
      const res = await other.post('/v1/contacts', { first_name: 'Zed', last_name: `Other ${i}` });
      expect(res.status).toBe(201);
    }
    // ...and our next number is still the next of ours: nothing to count them by.
    const second = await agent.post('/v1/contacts', { first_name: 'Ada', last_name: 'Two' });
    expect(second.body.number).toBe(first.body.number + 1);
    // Both books start at the same first number.
    const [firstOfTheirs] = await t.database.db
      .select({ n: contacts.number })
      .from(contacts)
      .where(and(eq(contacts.companyId, recruiting)))
      .orderBy(contacts.number)
      .limit(1);
    expect(firstOfTheirs.n).toBe(100001);
  });

  it('name your own contact in a URL even where another company uses the same number', async () => {
    const agent = await signIn(t.app, DEMO('admin'));
    const res = await agent.get('/v1/contacts/100001');
    expect(res.status).toBe(200);
    const [mine] = await t.database.db
      .select()
      .from(contacts)
      .where(and(eq(contacts.number, 100001), eq(contacts.companyId, await companyId('C-1001'))));
    expect(res.body.id).toBe(mine.id);
  });
});
