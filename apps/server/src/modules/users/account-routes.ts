/**
 * The rest of the signed-in user's account (crm-wallet-dialer-admin.md §7 "Users and account"): profile, sign-in
 * identity, webpage, favourite users, dashboard, signups, signed-in addresses. Bodies are strict: roles, company,
 * flags or anyone else's id cannot ride along (mass assignment is a 422).
 */
import {
  AuthIpList,
  CurrentUser,
  IMAGE_KINDS,
  MAX_IMAGE_BYTES,
  Paging,
  positionTitlesFor,
  Signup,
  SignupBody,
  UpdateAccountBody,
  UpdateDashboardBody,
  UpdateProfileForm,
  UpdateProfileRequest,
  UpdateWebpageBody,
  type Variant,
} from '@harbor/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildAuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import { verifyPassword } from '../../platform/auth/passwords.js';
import { type UserRow, users } from '../../platform/db/schema.js';
import { forbidden, invalid } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { assertReferences, assertUnique, targetInReach } from '../admin/users/policy.js';
import { listAuthIps } from './account-queries.js';
import { replaceFavorites } from './favorites.js';
import { type ImageField, imageKey, type ReceivedImage, readProfileMultipart } from './images.js';
import { dashboardPreferences, presentCurrentUser } from './presenter.js';
import { signups } from './schema.js';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const userTenant = { param: 'id', resource: 'user' };
const tags = ['users'];
const Me = { 200: CurrentUser };

export function accountRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;
  const storage = scope.deps.storage;

  async function me(req: FastifyRequest) {
    const auth = authOf(req);
    const [user] = await db.select().from(users).where(eq(users.id, auth.user.id));
    return presentCurrentUser(db, buildAuthContext(user, auth.company, auth.session, auth.apiKey));
  }
  const setSelf = async (id: number, values: Partial<UserRow>) => {
    await db
      .update(users)
      .set({ ...values, updatedAt: new Date() })
      .where(eq(users.id, id));
    invalidateAuth({ users: [id] });
  };

  app.patch(
    '/v1/users/update_profile',
    {
      config: { access: 'account.self' },
      schema: {
        tags,
        summary: `Names, about me, position title, office; as multipart/form-data also the files personal_photo and logo (PNG, JPEG, GIF or WebP, at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB each)`,
        consumes: ['application/json', 'multipart/form-data'],
        // Optional because a multipart request carries its fields as parts, checked by readProfileMultipart.
        body: UpdateProfileRequest,
        multipart: UpdateProfileForm,
        response: Me,
      },
    },
    async (req) => {
      const auth = authOf(req);
      const { body: b, images } = req.isMultipart()
        ? await readProfileMultipart(req)
        : { body: req.body ?? {}, images: [] as ReceivedImage[] };
      if (b.position_title && !positionTitlesFor(auth.company.variant as Variant).includes(b.position_title)) {
        throw invalid('position_title', 'is not offered by your company');
      }
      await assertReferences(db, auth, { office_location_id: b.office_location_id });
      // Blobs first, under fresh keys: the row then points at them in one update, and the replaced ones go after.
      const stored: Partial<Record<ImageField, string | null>> = {};
      for (const img of images) {
        const key = imageKey(auth.company.id, auth.user.id, img);
        await storage.put(key, img.data, IMAGE_KINDS[img.kind]);
        stored[img.field] = key;
      }
      if (b.personal_photo === null && !stored.personal_photo) stored.personal_photo = null;
      if (b.logo === null && !stored.logo) stored.logo = null;
      try {
        await setSelf(auth.user.id, {
          ...(b.first_name !== undefined && { firstName: b.first_name }),
          ...(b.last_name !== undefined && { lastName: b.last_name }),
          ...(b.about_me !== undefined && { aboutMe: b.about_me }),
          ...(b.position_title !== undefined && { positionTitle: b.position_title }),
          ...(b.office_location_id !== undefined && { officeLocationId: b.office_location_id }),
          ...(stored.personal_photo !== undefined && { personalPhoto: stored.personal_photo }),
          ...(stored.logo !== undefined && { logo: stored.logo }),
        });
      } catch (err) {
        for (const key of Object.values(stored)) if (key) await storage.delete(key);
        throw err;
      }
      const replaced = [
        stored.personal_photo !== undefined ? auth.user.personalPhoto : null,
        stored.logo !== undefined ? auth.user.logo : null,
      ];
      for (const old of replaced) if (old?.startsWith('users/')) await storage.delete(old);
      return me(req);
    },
  );

  app.patch(
    '/v1/users/:id',
    {
      config: { access: 'account.self', tenant: userTenant, securitySetting: true },
      schema: {
        tags,
        summary: 'Your sign-in identity (username, email; a new email needs the current password)',
        params: IdParams,
        body: UpdateAccountBody,
        response: Me,
      },
    },
    async (req) => {
      const auth = authOf(req);
      if (req.params.id !== auth.user.id) throw forbidden();
      const { username, email, current_password } = req.body;
      if (email && email !== auth.user.email.toLowerCase()) {
        if (!current_password || !(await verifyPassword(auth.user.passwordHash, current_password))) {
          throw invalid('current_password', 'is incorrect');
        }
      }
      await assertUnique(db, { email, username }, auth.user.id);
      await setSelf(auth.user.id, { ...(email && { email }), ...(username && { username }) });
      return me(req);
    },
  );

  app.patch(
    '/v1/users/:id/update_webpage',
    {
      config: { access: 'marketing_profile.use', feature: 'marketing_profile', tenant: userTenant },
      schema: {
        tags,
        summary: 'Public webpage settings (yours, or of a user you manage)',
        params: IdParams,
        body: UpdateWebpageBody,
        response: Me,
      },
    },
    async (req) => {
      const auth = authOf(req);
      const target = req.params.id === auth.user.id ? auth.user : await targetInReach(db, auth, req.params.id);
      const { subdomain, ...rest } = req.body;
      if (subdomain) {
        const [clash] = await db
          .select({ id: users.id })
          .from(users)
          .where(and(sql`lower(${users.webpageSubdomain}) = ${subdomain}`, ne(users.id, target.id)));
        if (clash) throw invalid('subdomain', 'has already been taken');
      }
      await setSelf(target.id, {
        ...(subdomain !== undefined && { webpageSubdomain: subdomain }),
        webpage: { ...target.webpage, ...rest },
      });
      return me(req);
    },
  );

  app.patch(
    '/v1/users/dashboard',
    {
      config: { access: 'account.self' },
      schema: { tags, summary: 'Dashboard preferences and favorite users', body: UpdateDashboardBody, response: Me },
    },
    async (req) => {
      const auth = authOf(req);
      const { favorite_user_ids, ...prefs } = req.body;
      if (favorite_user_ids) await replaceFavorites(db, auth, favorite_user_ids);
      if (Object.keys(prefs).length) {
        await setSelf(auth.user.id, { dashboard: { ...dashboardPreferences(auth.user), ...prefs } });
      }
      return me(req);
    },
  );

  app.post(
    '/v1/users/signups',
    {
      config: { access: 'authenticated', rateLimit: { name: 'signups', max: 30, windowMs: 60_000 } },
      schema: { tags, summary: 'Propose a person to join the company', body: SignupBody, response: { 201: Signup } },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const b = req.body;
      const [row] = await db
        .insert(signups)
        .values({
          companyId: auth.company.id,
          sponsorId: auth.user.id,
          firstName: b.first_name,
          lastName: b.last_name,
          email: b.email,
          phone: b.phone ?? null,
          note: b.note ?? null,
        })
        .returning();
      return reply.code(201).send({
        id: row.id,
        first_name: row.firstName,
        last_name: row.lastName,
        email: row.email,
        phone: row.phone,
        note: row.note,
        status: row.status,
        sponsor: { id: auth.user.id, name: `${auth.user.firstName} ${auth.user.lastName}`.trim() },
        created_at: row.createdAt.toISOString(),
      });
    },
  );

  app.get(
    '/v1/users/auth_ips',
    {
      config: { access: 'account.self' },
      schema: { tags, summary: 'Addresses you signed in from', querystring: Paging, response: { 200: AuthIpList } },
    },
    async (req) => listAuthIps(db, authOf(req).user.id, req.query.page, req.query.limit),
  );
}
