/**
 * Demo sub-records (notes, a policy, a security, data capture) on a company's first contacts, so the detail page
 * shows something and tenant tests find another company's contact. If the company has no contacts yet (the demo
 * contacts seed runs before this one when present), three named sample contacts are created for its first agent.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { contactEvents, contacts, notes, policies, securities } from '../modules/contacts/schema.js';
import { carriers, statuses } from '../modules/lookups/schema.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

const SAMPLE_CONTACTS = [
  {
    firstName: 'Margaret',
    lastName: 'Whitfield',
    phone: '15025550143',
    state: 'KY',
    dateOfBirth: '1958-04-12',
    gender: 'female',
  },
  {
    firstName: 'Harold',
    lastName: 'Benson',
    phone: '16155550178',
    state: 'TN',
    dateOfBirth: '1955-11-03',
    gender: 'male',
  },
  {
    firstName: 'Rosa',
    lastName: 'Delgado',
    phone: '13055550112',
    state: 'FL',
    dateOfBirth: '1961-07-21',
    gender: 'female',
    language: 'spanish',
  },
];

export async function seedDemoRecords(db: Db, companyId: number) {
  let rows = await db
    .select({ id: contacts.id, ownerId: contacts.ownerId })
    .from(contacts)
    .where(eq(contacts.companyId, companyId))
    .orderBy(asc(contacts.id))
    .limit(3);
  if (!rows.length) {
    const [agent] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.companyId, companyId), eq(users.accountType, 'agent')))
      .orderBy(asc(users.id))
      .limit(1);
    const [status] = await db
      .select({ id: statuses.id })
      .from(statuses)
      .where(eq(statuses.companyId, companyId))
      .limit(1);
    rows = await db
      .insert(contacts)
      .values(
        SAMPLE_CONTACTS.map((c) => ({
          ...c,
          companyId,
          ownerId: agent?.id ?? null,
          statusId: status?.id ?? null,
          email: `${c.firstName.toLowerCase()}.${c.lastName.toLowerCase()}@example.net`,
        })),
      )
      .returning({ id: contacts.id, ownerId: contacts.ownerId });
    await db
      .insert(contactEvents)
      .values(rows.map((r) => ({ companyId, contactId: r.id, kind: 'created', data: { source: 'demo seed' } })));
  }
  const first = rows[0];
  const [humana] = await db
    .select({ id: carriers.id })
    .from(carriers)
    .where(and(eq(carriers.companyId, companyId), sql`lower(${carriers.name}) = 'humana'`));
  await db.insert(notes).values([
    {
      companyId,
      contactId: first.id,
      body: 'Turning 65 in the spring; wants to compare Advantage and Medigap.',
      authorId: first.ownerId,
    },
    {
      companyId,
      contactId: first.id,
      body: 'Takes two maintenance drugs; check Part D formulary.',
      authorId: first.ownerId,
    },
  ]);
  await db.insert(policies).values({
    companyId,
    contactId: first.id,
    carrierId: humana?.id ?? null,
    productType: 'medicare_advantage',
    planName: 'Humana Gold Plus HMO',
    policyNumber: 'H1036-001',
    premiumCents: 0,
    status: 'active',
    effectiveDate: '2026-01-01',
  });
  await db.insert(securities).values({
    companyId,
    contactId: first.id,
    kind: 'annuity',
    institution: 'Mutual of Omaha',
    accountLast4: '4821',
    valueCents: 12_500_000,
  });
}
