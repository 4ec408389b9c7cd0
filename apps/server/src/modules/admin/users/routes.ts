/**
 * /v1/admin/users (crm-wallet-dialer-admin.md §7 "Admin back office") and /v1/business_units/manageable. Every route
 * reads and writes inside the caller's reach: admins the company, BU admins their unit, managers their downline.
 * Routes naming a user declare `tenant`, so another company's user is 404 before anything runs.
 */
import {
  AdminLoginBody,
  AdminUser,
  AdminUserList,
  AdminUsersQuery,
  BusinessUnits,
  CreateUserBody,
  DeleteUserBody,
  PaidMembershipBody,
  PoolHoldersQuery,
  type Role,
  SignedInReply,
  UpdateRolesBody,
  UpdateUserBody,
  UserOptions,
  UserQuickUpdateBody,
  UserRoles,
} from '@harbor/shared';
import { and, asc, eq, isNull, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AuthContext } from '../../../platform/auth/context.js';
import { users } from '../../../platform/db/schema.js';
import { authOf } from '../../../platform/http/pipeline.js';
import { reachCondition } from '../../../platform/reach.js';
import { startImpersonation } from '../../session/impersonate.js';
import { createUser, deleteUser, setPaid, setRoles, updateUser } from './commands.js';
import { manageableBusinessUnits, roleOptions, targetInReach } from './policy.js';
import { presentUserOption } from './presenter.js';
import { listUsers, loadPresentedUser } from './queries.js';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const tenant = { param: 'id', resource: 'user' };
const tags = ['admin'];

export function adminUsersRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  const rolesOf = (auth: AuthContext, u: { roles: string[]; accountType: string }) => ({
    roles: u.roles as Role[],
    account_type: u.accountType as Role,
    assignable: roleOptions(auth),
  });

  app.get(
    '/v1/admin/users',
    {
      config: { access: 'users.manage' },
      schema: {
        tags,
        summary: 'Users in reach: search (q), role and business unit filters, paging',
        querystring: AdminUsersQuery,
        response: { 200: AdminUserList },
      },
    },
    async (req) => listUsers(db, authOf(req), req.query),
  );

  app.post(
    '/v1/admin/users',
    {
      config: { access: 'users.manage' },
      schema: { tags, summary: 'Create a user', body: CreateUserBody, response: { 201: AdminUser } },
    },
    async (req, reply) => {
      const id = await createUser(scope, req, authOf(req), req.body);
      return reply.code(201).send(await loadPresentedUser(db, id));
    },
  );

  app.get(
    '/v1/admin/users/owners',
    {
      config: { access: 'users.manage' },
      schema: {
        tags,
        summary: 'Possible owners (the caller and everyone in reach), for pickers',
        response: { 200: UserOptions },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const rows = await db
        .select()
        .from(users)
        .where(or(eq(users.id, auth.user.id), reachCondition(auth)))
        .orderBy(asc(users.lastName), asc(users.firstName));
      return { data: rows.map(presentUserOption) };
    },
  );

  app.get(
    '/v1/admin/users/pool_holders',
    {
      config: { access: 'admin.manage' },
      schema: {
        tags,
        summary: 'Pool holders; with only_rm=true the relationship managers',
        querystring: PoolHoldersQuery,
        response: { 200: UserOptions },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const rows = await db
        .select()
        .from(users)
        .where(
          and(
            eq(users.companyId, auth.company.id),
            isNull(users.deletedAt),
            req.query.only_rm ? eq(users.relationshipManager, true) : sql`'pool_holder' = ANY(${users.roles})`,
          ),
        )
        .orderBy(asc(users.lastName), asc(users.firstName));
      return { data: rows.map(presentUserOption) };
    },
  );

  app.get(
    '/v1/admin/users/:id',
    {
      config: { access: 'users.manage', tenant },
      schema: { tags, summary: 'One user', params: IdParams, response: { 200: AdminUser } },
    },
    async (req) => {
      const target = await targetInReach(db, authOf(req), req.params.id);
      return loadPresentedUser(db, target.id);
    },
  );

  app.patch(
    '/v1/admin/users/:id',
    {
      config: { access: 'users.manage', tenant },
      schema: { tags, summary: 'Edit a user', params: IdParams, body: UpdateUserBody, response: { 200: AdminUser } },
    },
    async (req) => {
      await updateUser(scope, req, authOf(req), req.params.id, req.body);
      return loadPresentedUser(db, req.params.id);
    },
  );

  app.patch(
    '/v1/admin/users/:id/quick_update',
    {
      config: { access: 'users.manage', tenant },
      schema: {
        tags,
        summary: 'Change one field',
        params: IdParams,
        body: UserQuickUpdateBody,
        response: { 200: AdminUser },
      },
    },
    async (req) => {
      await updateUser(scope, req, authOf(req), req.params.id, req.body);
      return loadPresentedUser(db, req.params.id);
    },
  );

  app.delete(
    '/v1/admin/users/:id',
    {
      config: { access: 'users.manage', tenant },
      schema: {
        tags,
        summary: "Delete a user; the body says what happens to the user's contacts",
        params: IdParams,
        body: DeleteUserBody,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      await deleteUser(scope, req, authOf(req), req.params.id, req.body);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/v1/admin/users/:id/roles',
    {
      config: { access: 'users.manage', tenant },
      schema: {
        tags,
        summary: "A user's roles and the roles the caller may assign",
        params: IdParams,
        response: { 200: UserRoles },
      },
    },
    async (req) => {
      const auth = authOf(req);
      return rolesOf(auth, await targetInReach(db, auth, req.params.id));
    },
  );

  app.patch(
    '/v1/admin/users/:id/update_roles',
    {
      config: { access: 'users.manage', tenant },
      schema: { tags, summary: 'Set roles', params: IdParams, body: UpdateRolesBody, response: { 200: UserRoles } },
    },
    async (req) => {
      const auth = authOf(req);
      await setRoles(scope, req, auth, req.params.id, req.body.roles);
      return rolesOf(auth, await targetInReach(db, auth, req.params.id));
    },
  );

  app.post(
    '/v1/admin/users/:id/login',
    {
      config: { access: 'users.manage', tenant },
      schema: {
        tags,
        summary: 'Sign in as the user (login_as) or impersonate them; DELETE /v1/sessions returns',
        params: IdParams,
        body: AdminLoginBody,
        response: { 200: SignedInReply },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const target = await targetInReach(db, auth, req.params.id);
      return startImpersonation(scope, req, reply, auth, target, req.body.login_type);
    },
  );

  app.post(
    '/v1/admin/users/:id/paid_membership',
    {
      config: { access: 'admin.manage', tenant },
      schema: {
        tags,
        summary: 'Grant (or withdraw, paid=false) paid membership',
        params: IdParams,
        body: PaidMembershipBody,
        response: { 200: AdminUser },
      },
    },
    async (req) => {
      await setPaid(scope, req, authOf(req), req.params.id, req.body.paid);
      return loadPresentedUser(db, req.params.id);
    },
  );

  app.get(
    '/v1/business_units/manageable',
    {
      config: { access: 'authenticated' },
      schema: { tags, summary: 'Business units the caller may manage', response: { 200: BusinessUnits } },
    },
    async (req) => ({ data: await manageableBusinessUnits(db, authOf(req)) }),
  );
}
