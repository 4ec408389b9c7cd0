/**
 * Demo calendar: for each agent and manager of a company, a week of events around the day the demo is seeded (an
 * overdue call back, today's follow-ups, appointments later in the week), some tied to the user's contacts, so the
 * calendar and the today queue show something and tenant tests find another company's event.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { contacts } from '../modules/contacts/schema.js';
import { calendarEvents } from '../modules/events/schema.js';
import { soaRequests } from '../modules/soa/schema.js';
import { hashToken, newToken } from '../platform/auth/tokens.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

const HOUR = 3_600_000;

/** [title, type, hours from the start of the seeding hour, length in hours, tied to a contact] */
const PLAN: Array<[string, string, number, number, boolean]> = [
  ['Call back about drug list', 'call_back', -26, 0.25, true],
  ['Follow up on quote', 'follow_up', 1, 0.5, true],
  ['Send enrollment packet', 'task', 3, 0.5, false],
  ['Plan review', 'appointment', 50, 1, true],
  ['Team meeting', 'meeting', 74, 1, false],
  ['Birthday card', 'birthday', 98, 0.5, true],
];

export async function seedDemoEvents(db: Db, companyId: number) {
  const people = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.accountType, ['agent', 'manager'])))
    .orderBy(asc(users.id));
  const base = Math.floor(Date.now() / HOUR) * HOUR;
  for (const person of people) {
    const own = await db
      .select({ id: contacts.id })
      .from(contacts)
      .where(and(eq(contacts.companyId, companyId), eq(contacts.ownerId, person.id)))
      .orderBy(asc(contacts.id))
      .limit(PLAN.length);
    const rows = PLAN.map(([title, type, at, hours, tied], i) => {
      const start = new Date(base + at * HOUR);
      return {
        companyId,
        userId: person.id,
        contactId: tied && own.length ? own[i % own.length].id : null,
        type,
        title,
        startsAt: start,
        endsAt: new Date(start.getTime() + hours * HOUR),
        dueAt: start,
        createdBy: person.id,
      };
    });
    await db.insert(calendarEvents).values(rows);
  }
}

/**
 * One completed scope of appointment per company (signed three days before the demo was seeded), on the first
 * agent's first contact: the SOA list shows a finished request and tenant tests find another company's. Its link is
 * spent, so no token is kept.
 */
export async function seedDemoSoa(db: Db, companyId: number) {
  const [agent] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.companyId, companyId), eq(users.accountType, 'agent')))
    .orderBy(asc(users.id))
    .limit(1);
  if (!agent) return;
  const [contact] = await db
    .select({ id: contacts.id, first: contacts.firstName, last: contacts.lastName })
    .from(contacts)
    .where(and(eq(contacts.companyId, companyId), eq(contacts.ownerId, agent.id)))
    .orderBy(asc(contacts.id))
    .limit(1);
  if (!contact) return;
  const signedAt = new Date(Date.now() - 72 * HOUR);
  await db.insert(soaRequests).values({
    companyId,
    userId: agent.id,
    contactId: contact.id,
    tokenHash: hashToken(newToken()),
    tokenSealed: '',
    channel: 'link',
    productsOffered: ['medicare_advantage', 'part_d', 'medigap'],
    status: 'completed',
    expiresAt: new Date(signedAt.getTime() + 14 * 24 * HOUR),
    products: ['medicare_advantage', 'part_d'],
    signatureName: `${contact.first} ${contact.last}`.trim(),
    signedAt,
    signedIp: '203.0.113.7',
    signedUserAgent: 'demo',
    completedAt: new Date(signedAt.getTime() + 48 * HOUR),
  });
}
