import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { agentflowStatuses, agentflowStatusGroups } from './schema.js';

/** Agent-flow statuses grouped as the pickers show them; `activeOnly` for everyone's list, all for the admin. */
export async function agentflowTree(db: Db, companyId: number, activeOnly: boolean) {
  const groupRows = await db
    .select()
    .from(agentflowStatusGroups)
    .where(eq(agentflowStatusGroups.companyId, companyId))
    .orderBy(asc(agentflowStatusGroups.position), asc(agentflowStatusGroups.name));
  const statusRows = await db
    .select()
    .from(agentflowStatuses)
    .where(and(eq(agentflowStatuses.companyId, companyId), activeOnly ? eq(agentflowStatuses.active, true) : undefined))
    .orderBy(asc(agentflowStatuses.position), asc(agentflowStatuses.name));
  const present = (s: (typeof statusRows)[number]) => ({
    id: s.id,
    name: s.name,
    group_id: s.groupId,
    position: s.position,
    active: s.active,
  });
  return {
    groups: groupRows.map((g) => ({
      id: g.id,
      name: g.name,
      position: g.position,
      statuses: statusRows.filter((s) => s.groupId === g.id).map(present),
    })),
    ungrouped: statusRows.filter((s) => s.groupId === null).map(present),
  };
}
