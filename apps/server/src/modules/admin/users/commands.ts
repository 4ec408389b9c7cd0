/** Writes on managed users. Each takes the caller's context, checks reach and values (policy.ts), and is audited. */
import {
  type CreateUserBody,
  can,
  type DeleteUserBody,
  type Role,
  rolesForAccountType,
  type UpdateUserBody,
} from '@harbor/shared';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthContext } from '../../../platform/auth/context.js';
import { invalidateAuth } from '../../../platform/auth/invalidation.js';
import { assertAcceptablePassword } from '../../../platform/auth/password-policy.js';
import { hashPassword } from '../../../platform/auth/passwords.js';
import { apiKeys } from '../../../platform/auth/schema.js';
import { endUserSessions } from '../../../platform/auth/sessions.js';
import { type UserRow, users } from '../../../platform/db/schema.js';
import { forbidden, invalid } from '../../../platform/http/errors.js';
import { reachOf } from '../../../platform/reach.js';
import { assertAssignable, assertNotSelf, assertReferences, assertUnique, targetInReach } from './policy.js';
import { userRemovals } from './schema.js';

/** Expands a chosen set through the account-type mapping (sub_admin brings admin, pool_holder brings basic). */
export function expandRoles(chosen: readonly Role[]): Role[] {
  return [...new Set(chosen.flatMap((r) => rolesForAccountType(r)))];
}

/** The account type a set of roles stands for: the chosen role that is not only implied by another. */
export function accountTypeOf(roles: readonly Role[]): Role {
  if (roles.includes('sub_admin')) return 'sub_admin';
  if (roles.includes('pool_holder')) return 'pool_holder';
  const order: Role[] = ['admin', 'bu_admin', 'regional_manager', 'manager', 'district_manager', 'field_manager'];
  return order.find((r) => roles.includes(r)) ?? roles.find((r) => r !== 'basic') ?? roles[0];
}

function profileValues(body: UpdateUserBody): Partial<UserRow> {
  const map: Record<string, keyof UserRow> = {
    first_name: 'firstName',
    last_name: 'lastName',
    email: 'email',
    username: 'username',
    manager_id: 'managerId',
    business_unit_id: 'businessUnitId',
    position_title: 'positionTitle',
    office_location_id: 'officeLocationId',
    timezone: 'timezone',
    about_me: 'aboutMe',
    relationship_manager: 'relationshipManager',
    change_password: 'changePassword',
    two_fa_required: 'twoFaRequired',
  };
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (value !== undefined && map[key]) out[map[key]] = value;
  return out as Partial<UserRow>;
}

export async function createUser(app: FastifyInstance, req: FastifyRequest, auth: AuthContext, body: CreateUserBody) {
  const db = app.deps.database.db;
  const parsed = body as CreateUserBody & { change_password: boolean };
  const roles = expandRoles([parsed.account_type]);
  assertAssignable(auth, [parsed.account_type], 'account_type');
  // Below company level the new user must land inside the caller's reach, or the caller would lose sight of them.
  const level = reachOf(auth);
  const values = { ...parsed };
  if (level === 'downline' && values.manager_id == null) values.manager_id = auth.user.id;
  if (level !== 'company' && values.business_unit_id === undefined) values.business_unit_id = auth.user.businessUnitId;
  if (level === 'business_unit' && values.business_unit_id == null && values.manager_id == null) {
    throw invalid('business_unit_id', "can't be blank");
  }
  const username = values.username ?? values.email.split('@')[0].replace(/[^a-zA-Z0-9._-]/g, '');
  await assertUnique(db, { email: values.email, username });
  await assertReferences(db, auth, values);
  assertAcceptablePassword(values.password, {
    email: values.email,
    username,
    firstName: values.first_name,
    lastName: values.last_name,
  });
  const passwordHash = await hashPassword(values.password);
  const id = await db.transaction(async (t) => {
    const [row] = await t
      .insert(users)
      .values({
        ...profileValues({ ...values, username }),
        companyId: auth.company.id,
        number: `pending-${crypto.randomUUID()}`,
        email: values.email,
        username,
        passwordHash,
        firstName: values.first_name,
        lastName: values.last_name,
        accountType: parsed.account_type,
        roles,
        basic: roles.includes('basic'),
        changePassword: parsed.change_password,
      })
      .returning({ id: users.id });
    // Ids are global and never reused, so the number derived from one is unique in every company.
    await t
      .update(users)
      .set({ number: `U-${100_000 + row.id}` })
      .where(eq(users.id, row.id));
    return row.id;
  });
  await app.deps.audit.record(
    { event: 'user_created', companyId: auth.company.id, userId: id, actorId: auth.user.id, data: { roles } },
    req,
  );
  return id;
}

export async function updateUser(
  app: FastifyInstance,
  req: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: UpdateUserBody,
) {
  const db = app.deps.database.db;
  const target = await targetInReach(db, auth, id);
  // The email is where password resets go: whoever changes it can take the account. Only admins may.
  const emailChanges = body.email !== undefined && body.email.toLowerCase() !== target.email.toLowerCase();
  if (emailChanges && !can(auth.subject, 'admin.manage')) {
    throw forbidden("Only an admin can change another user's email.");
  }
  await assertUnique(db, { email: body.email, username: body.username }, target.id);
  await assertReferences(db, auth, body, target.id);
  const values = profileValues(body);
  if (Object.keys(values).length === 0) return;
  await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, target.id));
  invalidateAuth({ users: [target.id] });
  await app.deps.audit.record(
    {
      event: 'user_updated',
      companyId: auth.company.id,
      userId: target.id,
      actorId: auth.user.id,
      data: { fields: Object.keys(body) },
    },
    req,
  );
}

export async function setRoles(
  app: FastifyInstance,
  req: FastifyRequest,
  auth: AuthContext,
  id: number,
  chosen: Role[],
) {
  const db = app.deps.database.db;
  const target = await targetInReach(db, auth, id);
  assertNotSelf(auth, target, 'change the roles of');
  assertAssignable(auth, chosen);
  const roles = expandRoles(chosen);
  await db
    .update(users)
    .set({ roles, accountType: accountTypeOf(roles), basic: roles.includes('basic'), updatedAt: new Date() })
    .where(eq(users.id, target.id));
  invalidateAuth({ users: [target.id] });
  await app.deps.audit.record(
    {
      event: 'user_roles_changed',
      companyId: auth.company.id,
      userId: target.id,
      actorId: auth.user.id,
      data: { from: target.roles, to: roles },
    },
    req,
  );
}

export async function setPaid(app: FastifyInstance, req: FastifyRequest, auth: AuthContext, id: number, paid: boolean) {
  const db = app.deps.database.db;
  const target = await targetInReach(db, auth, id);
  await db.update(users).set({ paid, updatedAt: new Date() }).where(eq(users.id, target.id));
  invalidateAuth({ users: [target.id] });
  await app.deps.audit.record(
    { event: 'paid_membership_changed', companyId: auth.company.id, userId: id, actorId: auth.user.id, data: { paid } },
    req,
  );
}

/**
 * Soft-deletes a user: their sessions end and API keys stop at once, their direct reports move up to their upline
 * (the tree stays whole), and the answer about their contacts is stored for the contacts area to apply.
 */
export async function deleteUser(
  app: FastifyInstance,
  req: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: DeleteUserBody,
) {
  const db = app.deps.database.db;
  const target = await targetInReach(db, auth, id);
  assertNotSelf(auth, target, 'delete');
  const transferTo = body.contacts_action === 'transfer' ? body.transfer_to_user_id! : null;
  if (transferTo !== null) {
    if (transferTo === target.id) throw invalid('transfer_to_user_id', 'cannot be the user being deleted');
    await assertReferences(db, auth, { manager_id: transferTo }).catch(() => {
      throw invalid('transfer_to_user_id', 'is not a user you may give contacts to');
    });
  }
  const now = new Date();
  await db.transaction(async (t) => {
    await t.update(users).set({ deletedAt: now, updatedAt: now }).where(eq(users.id, target.id));
    await t
      .update(users)
      .set({ managerId: target.managerId, updatedAt: now })
      .where(and(eq(users.managerId, target.id), eq(users.companyId, auth.company.id)));
    await t
      .update(apiKeys)
      .set({ revokedAt: now })
      .where(and(eq(apiKeys.userId, target.id), isNull(apiKeys.revokedAt)));
    // The contacts go where the admin said, in one statement, each with its timeline entry.
    await t.execute(sql`
      with moved as (
        update contacts set owner_id = ${transferTo}, updated_at = now()
        where company_id = ${auth.company.id} and owner_id = ${target.id}
        returning id
      )
      insert into contact_events (company_id, contact_id, kind, data, actor_id)
      select ${auth.company.id}, id, 'owner_changed',
        ${JSON.stringify({ from_user_id: target.id, to_user_id: transferTo, reason: 'user_deleted' })}::jsonb,
        ${auth.user.id}
      from moved`);
    await t.insert(userRemovals).values({
      companyId: auth.company.id,
      userId: target.id,
      removedById: auth.user.id,
      contactsAction: body.contacts_action,
      transferToUserId: transferTo,
      appliedAt: now,
    });
    await endUserSessions(t, target.id);
  });
  // Again after the commit (a session read in between would hold the old row), and for the whole company: the
  // deleted user's reports have a new manager.
  invalidateAuth({ companies: [auth.company.id] });
  await app.deps.audit.record(
    {
      event: 'user_deleted',
      companyId: auth.company.id,
      userId: target.id,
      actorId: auth.user.id,
      data: { contacts_action: body.contacts_action, transfer_to_user_id: transferTo },
    },
    req,
  );
}
