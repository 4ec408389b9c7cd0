/**
 * Who may act on which user, and with which values. Reach (company / business unit / downline) comes from
 * platform/reach.ts; on top of it: nobody acts on a user who outranks them, nobody hands out a role outside their
 * list (shared `assignableRoles`), and every referenced record (upline, unit, office) must be one the caller may use.
 */
import { assignableRoles, type Role, roleLabel, type Variant } from '@harbor/shared';
import { and, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { AuthContext } from '../../../platform/auth/context.js';
import type { Db } from '../../../platform/db/client.js';
import { businessUnits, type UserRow, users } from '../../../platform/db/schema.js';
import { isInDownline } from '../../../platform/downline.js';
import { forbidden, invalid } from '../../../platform/http/errors.js';
import { outranks, reachCondition, reachOf } from '../../../platform/reach.js';
import { officeLocations } from '../../office-locations/schema.js';

/** The user `id` if the caller may act on them; 403 otherwise (the pipeline already answered 404 across tenants). */
export async function targetInReach(db: Db, auth: AuthContext, id: number): Promise<UserRow> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(reachCondition(auth), eq(users.id, id)));
  if (!row || outranks(auth.user.roles as Role[], row.roles as Role[])) throw forbidden();
  return row;
}

export function assertNotSelf(auth: AuthContext, target: UserRow, what: string) {
  if (target.id === auth.user.id) throw forbidden(`You cannot ${what} yourself.`);
}

export function assignableFor(auth: AuthContext): Role[] {
  return assignableRoles(auth.user.roles as Role[], auth.company.variant as Variant, auth.features);
}

export function roleOptions(auth: AuthContext) {
  return assignableFor(auth).map((r) => ({ value: r, label: roleLabel(r, auth.company.variant as Variant) }));
}

export function assertAssignable(auth: AuthContext, roles: readonly Role[], field = 'roles') {
  const allowed = assignableFor(auth);
  const refused = roles.filter((r) => !allowed.includes(r));
  if (refused.length) throw invalid(field, `includes a role you may not assign: ${refused.join(', ')}`);
}

/** Business units the caller may place users in: every unit for company admins, managers their own, agents none. */
export async function manageableBusinessUnits(db: Db, auth: AuthContext) {
  const mine = auth.user.businessUnitId;
  const level = reachOf(auth);
  if (level === 'own' || (level !== 'company' && !mine)) return [];
  return db
    .select({ id: businessUnits.id, number: businessUnits.number, name: businessUnits.name })
    .from(businessUnits)
    .where(
      and(eq(businessUnits.companyId, auth.company.id), level === 'company' ? undefined : eq(businessUnits.id, mine!)),
    )
    .orderBy(businessUnits.number);
}

interface References {
  manager_id?: number | null;
  business_unit_id?: number | null;
  office_location_id?: number | null;
}

/**
 * Checks the records a create or update points at. The upline must be the caller or someone they reach (so a
 * manager can only hang people under their own tree), and never the user themselves or anyone below them (no
 * cycles). Ids of another company fail the same way as missing ones.
 */
export async function assertReferences(db: Db, auth: AuthContext, body: References, targetId?: number) {
  if (body.manager_id != null) {
    const managerId = body.manager_id;
    const [m] = await db
      .select({ id: users.id })
      .from(users)
      .where(
        and(
          eq(users.id, managerId),
          eq(users.companyId, auth.company.id),
          isNull(users.deletedAt),
          or(eq(users.id, auth.user.id), reachCondition(auth)),
        ),
      );
    if (!m) throw invalid('manager_id', 'is not a user you may assign as upline');
    if (targetId !== undefined && (await isInDownline(db, auth.company.id, targetId, managerId))) {
      throw invalid('manager_id', 'cannot be the user or someone below them');
    }
  }
  if (body.business_unit_id != null) {
    const allowed = await manageableBusinessUnits(db, auth);
    if (!allowed.some((b) => b.id === body.business_unit_id)) {
      throw invalid('business_unit_id', 'is not a business unit you manage');
    }
  }
  if (body.office_location_id != null) {
    const [o] = await db
      .select({ id: officeLocations.id })
      .from(officeLocations)
      .where(
        and(
          eq(officeLocations.id, body.office_location_id),
          eq(officeLocations.companyId, auth.company.id),
          isNull(officeLocations.deletedAt),
        ),
      );
    if (!o) throw invalid('office_location_id', 'is not an office of your company');
  }
}

/** Email and username are unique across the product (they sign in); `exceptId` is the user being edited. */
export async function assertUnique(db: Db, fields: { email?: string; username?: string }, exceptId?: number) {
  for (const field of ['email', 'username'] as const) {
    const value = fields[field];
    if (!value) continue;
    const column = field === 'email' ? users.email : users.username;
    const [clash] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${column}) = ${value.toLowerCase()}`, exceptId ? ne(users.id, exceptId) : undefined));
    if (clash) throw invalid(field, 'has already been taken');
  }
}
