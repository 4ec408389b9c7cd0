/**
 * Fixed demo data (issue 2): two companies, one user per role, a downline and two business units. Seeded only into
 * a new database when demo mode is on (the embedded default, or HARBOR_DEMO=1), so never into production by accident.
 */

import { type Role, rolesForAccountType } from '@harbor/shared';
import { count, eq } from 'drizzle-orm';
import { officeLocations } from '../modules/office-locations/schema.js';
import { hashPassword } from '../platform/auth/passwords.js';
import { apiKeys } from '../platform/auth/schema.js';
import { hashToken, newToken } from '../platform/auth/tokens.js';
import type { Db } from '../platform/db/client.js';
import { businessUnits, companies, users } from '../platform/db/schema.js';
import { seedDemoContacts } from './demo-contacts.js';
import { seedDemoEmail } from './demo-email.js';
import { seedDemoEvents, seedDemoSoa } from './demo-events.js';
import { seedDemoImports } from './demo-imports.js';
import { seedDemoLookups } from './demo-lookups.js';
import { seedDemoPlans } from './demo-plans.js';
import { seedDemoRecords } from './demo-records.js';
import { seedDemoSms } from './demo-sms.js';
import { seedDemoStore } from './demo-store.js';

export const DEMO_PASSWORD = 'harbor-demo-2026';

interface DemoUser {
  role: Role;
  first: string;
  last: string;
  manager?: Role;
  unit?: 'north' | 'south';
  email?: string;
  extra?: Partial<typeof users.$inferInsert>;
}

const INSURANCE: DemoUser[] = [
  { role: 'admin', first: 'Alicia', last: 'Grant' },
  { role: 'sub_admin', first: 'Samuel', last: 'Ortiz' },
  { role: 'bu_admin', first: 'Beatrice', last: 'Nolan', unit: 'north' },
  { role: 'regional_manager', first: 'Rafael', last: 'Mendes', unit: 'north' },
  { role: 'manager', first: 'Monica', last: 'Reyes', manager: 'regional_manager', unit: 'north' },
  { role: 'district_manager', first: 'Dennis', last: 'Hale', manager: 'regional_manager', unit: 'south' },
  { role: 'field_manager', first: 'Fiona', last: 'Park', manager: 'district_manager', unit: 'south' },
  { role: 'telemarketer', first: 'Tyler', last: 'Brooks', manager: 'manager', unit: 'north' },
  // A verified dialer number: with the seeded licence the softphone is enabled for her (spec §4).
  {
    role: 'agent',
    first: 'Angela',
    last: 'Diaz',
    manager: 'manager',
    unit: 'north',
    extra: { dialerVerifiedPhoneNumber: '+1-813-555-0142' },
  },
  { role: 'basic', first: 'Brian', last: 'Cole', manager: 'field_manager', unit: 'south' },
  // A new hire who has not yet accepted the terms, must change the temporary password and must set up two-factor:
  // the whole access guard, walkable by anyone trying the demo.
  {
    role: 'agent',
    first: 'Nadia',
    last: 'Hughes',
    manager: 'manager',
    unit: 'north',
    email: 'newhire@demo.harbor.test',
    extra: { tosAcceptedAt: null, changePassword: true, twoFaRequired: true },
  },
];

const RECRUITING: DemoUser[] = [
  { role: 'admin', first: 'Rita', last: 'Vance' },
  { role: 'manager', first: 'Marcus', last: 'Lee' },
  { role: 'agent', first: 'Ava', last: 'Chen', manager: 'manager' },
  { role: 'pool_holder', first: 'Paul', last: 'Stone', manager: 'manager' },
];

export async function seedDemoIfEmpty(db: Db): Promise<boolean> {
  const [{ n }] = await db.select({ n: count() }).from(companies);
  if (n > 0) return false;
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  await db.transaction(async (t) => {
    const [insurance, recruiting] = await t
      .insert(companies)
      .values([
        {
          number: 'C-1001',
          name: 'Harbor Demo Insurance',
          domainName: 'demo.harbor.test',
          variant: 'insurance',
          features: { regional_manager: true, basic_agent: true },
        },
        { number: 'C-1002', name: 'Harbor Demo Recruiting', domainName: 'recruit.harbor.test', variant: 'recruiting' },
      ])
      .returning();
    const units = await t
      .insert(businessUnits)
      .values([
        { companyId: insurance.id, number: 'BU-1', name: 'North Region' },
        { companyId: insurance.id, number: 'BU-2', name: 'South Region' },
      ])
      .returning();
    const unitIds = { north: units[0].id, south: units[1].id };
    await insertUsers(t, insurance.id, 'demo.harbor.test', INSURANCE, passwordHash, unitIds, 1000);
    await insertUsers(t, recruiting.id, 'recruit.harbor.test', RECRUITING, passwordHash, unitIds, 2000, false);
    await t.insert(officeLocations).values([
      {
        companyId: insurance.id,
        name: 'Head Office',
        officeType: 'main',
        city: 'Tampa',
        state: 'FL',
        zipCode: '33602',
      },
      { companyId: insurance.id, name: 'Riverside Branch', officeType: 'branch', city: 'Orlando', state: 'FL' },
      { companyId: recruiting.id, name: 'Recruiting HQ', officeType: 'main', city: 'Austin', state: 'TX' },
    ]);
    // One API key per company admin, so every area has a record to show; its token is random and never shown
    // (refresh it to get one).
    const admins = await t.select().from(users).where(eq(users.accountType, 'admin'));
    await t.insert(apiKeys).values(
      admins.map((a) => {
        const token = `hk_${newToken()}`;
        return {
          companyId: a.companyId,
          userId: a.id,
          name: 'Demo integration',
          tokenHash: hashToken(token),
          tokenPrefix: token.slice(0, 10),
        };
      }),
    );
    for (const c of [insurance, recruiting]) await seedDemoLookups(t, c.id);
    await seedDemoContacts(t, insurance.id, recruiting.id);
    // Demo contacts (when seeded) come before the records, which attach to each company's first contacts.
    for (const c of [insurance, recruiting]) await seedDemoRecords(t, c.id);
    await seedDemoImports(t, recruiting.id);
    for (const c of [insurance, recruiting]) await seedDemoEvents(t, c.id);
    for (const c of [insurance, recruiting]) await seedDemoSoa(t, c.id);
    await seedDemoPlans(t, insurance.id, {
      admin: 'admin@demo.harbor.test',
      manager: 'manager@demo.harbor.test',
      seats: 5,
      holders: [
        { email: 'agent@demo.harbor.test', sms: 500, dialer: 300 },
        { email: 'telemarketer@demo.harbor.test', sms: 300, dialer: 600 },
      ],
    });
    await seedDemoPlans(t, recruiting.id, {
      admin: 'admin@recruit.harbor.test',
      manager: 'manager@recruit.harbor.test',
      seats: 3,
      holders: [{ email: 'agent@recruit.harbor.test', sms: 400, dialer: 400 }],
    });
    for (const c of [insurance, recruiting]) await seedDemoEmail(t, c.id);
    await seedDemoSms(t, insurance.id, 'agent@demo.harbor.test', '18135550100');
    await seedDemoStore(t, insurance.id, recruiting.id);
  });
  return true;
}

async function insertUsers(
  db: Db,
  companyId: number,
  domain: string,
  list: DemoUser[],
  passwordHash: string,
  unitIds: { north: number; south: number },
  numberBase: number,
  useUnits = true,
) {
  const idByRole = new Map<Role, number>();
  // Insert in list order: every upline appears before the people who report to it.
  for (const [i, u] of list.entries()) {
    const email = u.email ?? `${u.role}@${domain}`;
    const [row] = await db
      .insert(users)
      .values({
        companyId,
        businessUnitId: useUnits && u.unit ? unitIds[u.unit] : null,
        managerId: u.manager ? (idByRole.get(u.manager) ?? null) : null,
        number: `U-${numberBase + i + 1}`,
        email,
        username: email.split('@')[0] === u.role ? `${u.role}.${domain.split('.')[0]}` : email.split('@')[0],
        passwordHash,
        firstName: u.first,
        lastName: u.last,
        accountType: u.role,
        roles: rolesForAccountType(u.role),
        basic: u.role === 'basic' || u.role === 'pool_holder',
        tosAcceptedAt: new Date('2026-01-15T00:00:00Z'),
        ...u.extra,
      })
      .returning({ id: users.id });
    if (!idByRole.has(u.role)) idByRole.set(u.role, row.id);
  }
}
