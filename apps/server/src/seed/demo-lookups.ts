/**
 * Demo lookups for both demo companies: statuses, agent-flow statuses in groups, sources, carriers, API vendors,
 * tags, groups and pools (with holders). Names are stable: the demo contacts seed refers to them by name.
 */
import { and, eq, inArray } from 'drizzle-orm';
import { tags } from '../modules/contacts/schema.js';
import {
  agentflowStatuses,
  agentflowStatusGroups,
  apiVendors,
  carriers,
  groups,
  poolHolders,
  pools,
  sources,
  statuses,
} from '../modules/lookups/schema.js';
import type { Db } from '../platform/db/client.js';
import { users } from '../platform/db/schema.js';

export const DEMO_STATUSES = [
  { name: 'New', color: 'blue' },
  { name: 'Contacted', color: 'teal' },
  { name: 'Appointment Set', color: 'orange' },
  { name: 'Sold', color: 'green' },
  { name: 'Not Interested', color: 'gray' },
] as const;
export const DEMO_AGENTFLOW: Record<string, string[]> = {
  Prospecting: ['Needs Call', 'Left Voicemail', 'Follow Up'],
  Enrollment: ['Quote Sent', 'Application Submitted', 'Enrolled'],
};
export const DEMO_SOURCES = ['Referral', 'Website', 'Facebook Ad', 'Direct Mail', 'Seminar', 'Lead Vendor'];
export const DEMO_CARRIERS = [
  { name: 'Humana', naic: '73288' },
  { name: 'Aetna', naic: '60054' },
  { name: 'UnitedHealthcare', naic: '79413' },
  { name: 'Cigna', naic: '67369' },
  { name: 'Mutual of Omaha', naic: '71412' },
  { name: 'Wellcare', naic: null },
];
export const DEMO_API_VENDORS = [
  { vendorName: 'SeniorLeads Direct', vendorType: 'lead' },
  { vendorName: 'MedicareQuote Live', vendorType: 'live_transfer' },
];
export const DEMO_TAGS = [
  { name: 'T65', color: 'purple' },
  { name: 'Hot Lead', color: 'red' },
  { name: 'Spanish Speaker', color: 'yellow' },
  { name: 'Needs Part D', color: 'teal' },
  { name: 'Referral Partner', color: 'green' },
];
export const DEMO_GROUPS = ['Turning 65', 'Annual Review', 'Seminar Attendees'];
/** Pool name -> roles (of that company's demo users) that hold it. */
export const DEMO_POOLS: Record<string, string[]> = {
  'Shared Leads': ['agent', 'telemarketer', 'pool_holder'],
  'Unassigned Web Leads': ['manager'],
};

/** Seeds one company's lookups; `userIdsByRole` names the holders of the demo pools. */
export async function seedDemoLookups(db: Db, companyId: number) {
  await db.insert(statuses).values(DEMO_STATUSES.map((s, i) => ({ companyId, ...s, position: i })));
  for (const [i, [group, names]] of Object.entries(DEMO_AGENTFLOW).entries()) {
    const [g] = await db.insert(agentflowStatusGroups).values({ companyId, name: group, position: i }).returning();
    await db
      .insert(agentflowStatuses)
      .values(names.map((name, j) => ({ companyId, groupId: g.id, name, position: j })));
  }
  await db.insert(sources).values(DEMO_SOURCES.map((name) => ({ companyId, name })));
  await db.insert(carriers).values(DEMO_CARRIERS.map((c) => ({ companyId, ...c })));
  await db.insert(apiVendors).values(DEMO_API_VENDORS.map((v) => ({ companyId, ...v })));
  await db.insert(tags).values(DEMO_TAGS.map((t) => ({ companyId, ...t })));
  await db.insert(groups).values(DEMO_GROUPS.map((name) => ({ companyId, name })));
  for (const [name, roles] of Object.entries(DEMO_POOLS)) {
    const [pool] = await db.insert(pools).values({ companyId, name }).returning();
    const holders = await db
      .select({ id: users.id, email: users.email })
      .from(users)
      .where(and(eq(users.companyId, companyId), inArray(users.accountType, roles)));
    // Only the first user of each role (the fixed demo users), not e.g. the new-hire agent.
    const seen = new Set<string>();
    const ids = holders
      .filter((h) => {
        const role = h.email.split('@')[0];
        if (!roles.includes(role) || seen.has(role)) return false;
        seen.add(role);
        return true;
      })
      .map((h) => h.id);
    if (ids.length) await db.insert(poolHolders).values(ids.map((userId) => ({ poolId: pool.id, userId })));
  }
}
