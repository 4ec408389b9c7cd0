/**
 * The signed-in user's own account (the part of the `users` area the foundation delivers): me, terms, time zone,
 * theme, password, two-factor. Every reply is the updated current user, so the browser swaps it in whole.
 */

import multipart from '@fastify/multipart';
import {
  CurrentUser,
  MAX_IMAGE_BYTES,
  QrReply,
  TwoFactorCodeBody,
  TwoFactorDisableBody,
  TwoFactorOnReply,
  Update2faBody,
  UpdatePasswordBody,
  UpdateThemeBody,
  UpdateTimezoneBody,
} from '@harbor/shared';
import { eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildAuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import { apiKeys } from '../../platform/auth/schema.js';
import type { Db } from '../../platform/db/client.js';
import { type UserRow, users } from '../../platform/db/schema.js';
import { authOf } from '../../platform/http/pipeline.js';
import { companyRowResolver } from '../../platform/tenancy.js';
import type { Module } from '../types.js';
import { accountRoutes } from './account-routes.js';
import { apiKeyRoutes } from './api-keys.js';
import { cachedBirthdays } from './birthdays.js';
import { favoriteRoutes } from './favorites.js';
import { imageRoutes } from './images.js';
import { presentCurrentUser } from './presenter.js';
import { recoveryCodeRoutes } from './recovery-codes.js';
import { changeOwnPassword, disableTwoFactor, enableTwoFactor, setOtpMethod, startTwoFactorSetup } from './security.js';
import { sendOtpRoute } from './send-otp.js';

const Me = { 200: CurrentUser };
const OnReply = { 200: TwoFactorOnReply };
const IdParams = z.object({ id: z.coerce.number().int().positive() });

export const usersModule: Module = {
  name: 'users',
  async register(scope: FastifyInstance, { tenants }) {
    // Profile pictures: at most two image parts and the text fields of the profile; the cap stops buffering early.
    await scope.register(multipart, { limits: { fileSize: MAX_IMAGE_BYTES, files: 2, fields: 12, parts: 14 } });
    const app = scope.withTypeProvider<ZodTypeProvider>();
    const db = scope.deps.database.db;
    const birthdays = cachedBirthdays(scope.deps.config.dashboardCacheMs);
    // A deleted user or a revoked key no longer exists for the routes that name it.
    tenants.register('user', companyRowResolver(users, { live: isNull(users.deletedAt) }));
    tenants.register('api_key', companyRowResolver(apiKeys, { live: isNull(apiKeys.revokedAt) }));

    /** Applies a change to the caller's own row and answers the fresh current user. */
    async function updateSelf(req: FastifyRequest, values: Partial<UserRow>) {
      const auth = authOf(req);
      const [user] = await db
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, auth.user.id))
        .returning();
      invalidateAuth({ users: [auth.user.id] });
      return presentCurrentUser(db, buildAuthContext(user, auth.company, auth.session));
    }

    app.get(
      '/v1/users/me',
      { config: { access: 'authenticated' }, schema: { tags: ['users'], summary: 'The current user', response: Me } },
      async (req) => presentCurrentUser(db, authOf(req), birthdays),
    );

    app.patch(
      '/v1/users/accept_tos',
      {
        config: { access: 'authenticated' },
        schema: { tags: ['users'], summary: 'Accept the terms of use', response: Me },
      },
      async (req) => updateSelf(req, { tosAcceptedAt: new Date() }),
    );

    app.patch(
      '/v1/users/update_timezone',
      {
        config: { access: 'account.self' },
        schema: { tags: ['users'], summary: 'Set the time zone', body: UpdateTimezoneBody, response: Me },
      },
      async (req) => updateSelf(req, { timezone: req.body.timezone }),
    );

    app.patch(
      '/v1/users/update_theme',
      {
        config: { access: 'account.self' },
        schema: { tags: ['users'], summary: 'Display preferences', body: UpdateThemeBody, response: Me },
      },
      async (req) => {
        const { font_size, primary_color, background } = req.body;
        return updateSelf(req, {
          ...(font_size && { fontSize: font_size }),
          ...(primary_color && { primaryColor: primary_color }),
          ...(background && { background }),
        });
      },
    );

    app.patch(
      '/v1/users/:id/update_password',
      {
        config: { access: 'account.self', tenant: { param: 'id', resource: 'user' }, securitySetting: true },
        schema: {
          tags: ['users'],
          summary: 'Change a password (your own; the current password is required)',
          params: IdParams,
          body: UpdatePasswordBody,
          response: Me,
        },
      },
      async (req) => {
        const auth = authOf(req);
        await changeOwnPassword(scope, req, req.params.id, req.body);
        return reloadMe(db, req, auth.user.id);
      },
    );

    app.patch(
      '/v1/users/two_factor/generate_qr',
      {
        config: { access: 'account.self', securitySetting: true },
        schema: {
          tags: ['users'],
          summary: 'Start two-factor setup: a new secret as a QR code (shown this once, to its owner)',
          response: { 200: QrReply },
        },
      },
      async (req) => startTwoFactorSetup(scope, authOf(req).user),
    );

    app.patch(
      '/v1/users/two_factor/enable',
      {
        config: { access: 'account.self', securitySetting: true },
        schema: {
          tags: ['users'],
          summary: 'Confirm setup with a code; turning two-factor on answers the recovery codes, this once',
          body: TwoFactorCodeBody,
          response: OnReply,
        },
      },
      async (req) => {
        const codes = await enableTwoFactor(scope, req, authOf(req).user, req.body.otp_code);
        return { ...(await reloadMe(db, req, authOf(req).user.id)), ...(codes && { recovery_codes: codes }) };
      },
    );

    app.patch(
      '/v1/users/two_factor/disable',
      {
        config: { access: 'account.self', securitySetting: true },
        schema: { tags: ['users'], summary: 'Turn two-factor off', body: TwoFactorDisableBody, response: Me },
      },
      async (req) => {
        await disableTwoFactor(scope, req, authOf(req), req.body.password);
        return reloadMe(db, req, authOf(req).user.id);
      },
    );

    app.patch(
      '/v1/users/update_2fa',
      {
        config: { access: 'account.self', securitySetting: true },
        schema: {
          tags: ['users'],
          summary:
            'Choose how codes arrive: authenticator app or email (turns two-factor on; then the reply carries the recovery codes, this once)',
          body: Update2faBody,
          response: OnReply,
        },
      },
      async (req) => {
        const codes = await setOtpMethod(scope, req, authOf(req).user, req.body.otp_method, req.body.password);
        return { ...(await reloadMe(db, req, authOf(req).user.id)), ...(codes && { recovery_codes: codes }) };
      },
    );

    sendOtpRoute(scope);
    recoveryCodeRoutes(scope);
    apiKeyRoutes(scope);
    accountRoutes(scope);
    imageRoutes(scope);
    favoriteRoutes(scope);
  },
};

async function reloadMe(db: Db, req: FastifyRequest, userId: number) {
  const auth = authOf(req);
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  return presentCurrentUser(db, buildAuthContext(user, auth.company, auth.session));
}
