/**
 * Loading one contact for a request, and the reach rules for what a caller may point a contact at (owner, pool,
 * group, status, ...). A contact the caller cannot see is 404, exactly like another company's.
 */
import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { users } from '../../platform/db/schema.js';
import { forbidden, HttpError, invalid, notFound } from '../../platform/http/errors.js';
import { reachesUserSql, reachOf } from '../../platform/reach.js';
import { asId } from '../../platform/tenancy.js';
import { agentflowStatuses, apiVendors, groups, poolHolders, pools, sources, statuses } from '../lookups/schema.js';
import { contacts, tags } from './schema.js';
import { visibleContactsSql } from './visibility.js';

export type ContactRow = typeof contacts.$inferSelect;

/** The contact with public number `raw`, if the caller may see it; `write` also refuses a deleted contact. */
export async function findVisibleContact(db: Db, auth: AuthContext, raw: string | number, write = false) {
  const n = typeof raw === 'number' ? raw : asId(raw);
  if (n === null) throw notFound('contact');
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, auth.company.id), eq(contacts.number, n), visibleContactsSql(auth)));
  if (!row) throw notFound('contact');
  if (write && row.deletedAt) throw new HttpError(422, { contact: ['is deleted; restore it before changing it'] });
  return row;
}

/** The contact with internal id `id`, if visible (for bodies that reference another contact). */
export async function findVisibleContactById(db: Db, auth: AuthContext, id: number) {
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.companyId, auth.company.id), eq(contacts.id, id), visibleContactsSql(auth)));
  return row ?? null;
}

/** Agents may only own contacts themselves; others may hand a contact to anyone within their reach. */
export async function assertOwnerAssignable(db: Db, auth: AuthContext, ownerId: number) {
  const reach = reachOf(auth);
  if (ownerId === auth.user.id) return;
  if (reach === 'own') throw forbidden('You can only assign contacts to yourself.');
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, ownerId),
        eq(users.companyId, auth.company.id),
        isNull(users.deletedAt),
        reachesUserSql(auth, users.id),
      ),
    );
  if (!row) throw invalid('owner_id', 'is not a user you can assign contacts to');
}

/** Non-admins may only put a contact into a pool they hold. */
export async function assertPoolAssignable(db: Db, auth: AuthContext, poolId: number) {
  const [pool] = await db
    .select({ id: pools.id })
    .from(pools)
    .where(and(eq(pools.id, poolId), eq(pools.companyId, auth.company.id)));
  if (!pool) throw invalid('pool_id', 'is not a pool of your company');
  if (reachOf(auth) === 'company') return;
  const [held] = await db
    .select({ poolId: poolHolders.poolId })
    .from(poolHolders)
    .where(and(eq(poolHolders.poolId, poolId), eq(poolHolders.userId, auth.user.id)));
  if (!held) throw invalid('pool_id', 'is not a pool you hold');
}

const REF_TABLES = {
  status_id: statuses,
  agentflow_status_id: agentflowStatuses,
  source_id: sources,
  api_vendor_id: apiVendors,
  group_id: groups,
} as const;
export type RefField = keyof typeof REF_TABLES;

/** Each given lookup id must belong to the caller's company; a foreign or unknown id is a 422 on that field. */
export async function assertRefs(db: Db, companyId: number, refs: Partial<Record<RefField, number | null>>) {
  for (const [field, value] of Object.entries(refs) as Array<[RefField, number | null | undefined]>) {
    if (value === null || value === undefined) continue;
    const table = REF_TABLES[field];
    const [row] = await db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, value), eq(table.companyId, companyId)));
    if (!row) throw invalid(field, 'does not exist');
  }
}

export async function assertTags(db: Db, companyId: number, tagIds: number[]) {
  if (!tagIds.length) return;
  const unique = [...new Set(tagIds)];
  const rows = await db
    .select({ id: tags.id })
    .from(tags)
    .where(and(eq(tags.companyId, companyId), inArray(tags.id, unique)));
  if (rows.length !== unique.length) throw invalid('tag_ids', 'contains a tag that does not exist');
}
