/** Small factories for the contact tests: user ids by demo email, contacts created through the API. */
import type { ContactDetail } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { Client, TestApp } from '../../../test/harness.js';
import { buildAuthContext } from '../../platform/auth/context.js';
import { companies, users } from '../../platform/db/schema.js';

export async function userId(t: TestApp, email: string): Promise<number> {
  const [u] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (!u) throw new Error(`no user ${email}`);
  return u.id;
}

/** Creates a contact through POST /v1/contacts and answers its detail (asserting 201). */
export async function newContact(client: Client, body: Record<string, unknown> = {}) {
  const res = await client.post('/v1/contacts', { first_name: 'Test', last_name: 'Person', ...body });
  if (res.status !== 201) throw new Error(`create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as ContactDetail;
}

/** The AuthContext of a demo user, for tests that call the list's SQL builders directly. */
export async function authFor(t: TestApp, email: string) {
  const [row] = await t.database.db
    .select({ user: users, company: companies })
    .from(users)
    .innerJoin(companies, eq(companies.id, users.companyId))
    .where(eq(users.email, email));
  return buildAuthContext(row.user, row.company, null);
}
