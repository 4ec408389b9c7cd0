/**
 * GET/PUT /v1/admin/feature_flags (System Admin): the company's flags and per-user overrides; GET /v1/admin/features:
 * the catalogue with the company's effective values (readable by every admin). resolveFeatures (shared) is the one
 * place both are combined, so the navigation and the server's route gates always agree.
 */
import {
  FEATURE_FLAGS,
  FEATURE_KEYS,
  FeatureFlagsReply,
  FeaturesReply,
  resolveFeatures,
  UpdateFeatureFlagsBody,
} from '@harbor/shared';
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import type { Db } from '../../platform/db/client.js';
import { companies, users } from '../../platform/db/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';

const definitions = FEATURE_FLAGS.map((f) => ({ key: f.key, label: f.label, default: f.default }));

async function present(db: Db, companyId: number) {
  const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
  const overridden = await db
    .select()
    .from(users)
    .where(and(eq(users.companyId, companyId), isNull(users.deletedAt), sql`${users.features} <> '{}'::jsonb`))
    .orderBy(asc(users.lastName), asc(users.firstName));
  return {
    flags: definitions,
    company: resolveFeatures(company.features),
    users: overridden.map((u) => ({
      user_id: u.id,
      name: `${u.firstName} ${u.lastName}`.trim(),
      email: u.email,
      overrides: u.features,
    })),
  };
}

/** Merges a change into stored flags; null removes a key (the company value, or the default, applies again). */
function merge(stored: Record<string, boolean>, change: Record<string, boolean | null | undefined>) {
  const out = { ...stored };
  for (const key of FEATURE_KEYS) {
    const v = change[key];
    if (v === null) delete out[key];
    else if (typeof v === 'boolean') out[key] = v;
  }
  return out;
}

async function update(app: FastifyInstance, auth: AuthContext, body: UpdateFeatureFlagsBody) {
  const db = app.deps.database.db;
  const userChanges = body.users ?? [];
  const wanted = [...new Set(userChanges.map((u) => u.user_id))];
  // One query checks the whole set: an id of another company (or unknown) fails the request as a whole.
  const found = wanted.length
    ? await db
        .select()
        .from(users)
        .where(and(inArray(users.id, wanted), eq(users.companyId, auth.company.id), isNull(users.deletedAt)))
    : [];
  if (found.length !== wanted.length) throw notFound('user');
  await db.transaction(async (t) => {
    if (body.company) {
      const [c] = await t.select().from(companies).where(eq(companies.id, auth.company.id)).for('update');
      await t
        .update(companies)
        .set({ features: merge(c.features, body.company) })
        .where(eq(companies.id, c.id));
    }
    for (const change of userChanges) {
      const row = found.find((u) => u.id === change.user_id)!;
      row.features = merge(row.features, change.overrides);
      await t.update(users).set({ features: row.features, updatedAt: new Date() }).where(eq(users.id, row.id));
    }
  });
  // Flags decide permissions: every cached session of the company or of these users is stale now.
  invalidateAuth(body.company ? { companies: [auth.company.id] } : { users: userChanges.map((c) => c.user_id) });
}

export function featureFlagsRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  app.get(
    '/v1/admin/feature_flags',
    {
      config: { access: 'admin.feature_flags' },
      schema: {
        tags: ['admin'],
        summary: 'Company flags and per-user overrides',
        response: { 200: FeatureFlagsReply },
      },
    },
    async (req) => present(db, authOf(req).company.id),
  );

  app.put(
    '/v1/admin/feature_flags',
    {
      config: { access: 'admin.feature_flags' },
      schema: {
        tags: ['admin'],
        summary: 'Switch company flags and per-user overrides (null removes an override)',
        body: UpdateFeatureFlagsBody,
        response: { 200: FeatureFlagsReply },
      },
    },
    async (req) => {
      const auth = authOf(req);
      await update(scope, auth, req.body);
      await scope.deps.audit.record(
        { event: 'feature_flags_changed', companyId: auth.company.id, userId: auth.user.id, data: req.body },
        req,
      );
      return present(db, auth.company.id);
    },
  );

  app.get(
    '/v1/admin/features',
    {
      config: { access: 'admin.manage' },
      schema: {
        tags: ['admin'],
        summary: "The flag catalog with the company's values",
        response: { 200: FeaturesReply },
      },
    },
    async (req) => {
      const [company] = await db
        .select()
        .from(companies)
        .where(eq(companies.id, authOf(req).company.id));
      const values = resolveFeatures(company.features);
      return { data: definitions.map((d) => ({ ...d, enabled: values[d.key] })) };
    },
  );
}
