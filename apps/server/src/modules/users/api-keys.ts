/**
 * /v1/users/api_keys: the caller's own keys. The token appears in exactly two replies (create, refresh_token) and is
 * stored only as a hash. Another user's key is 404 like another company's (the pipeline's tenant check covers the
 * company; `ownKey` the owner). Every write is a security setting (config.securitySetting): refused while
 * impersonating, so an impersonation cannot outlive its session through a credential planted in the user's name, and
 * refused to API keys, so a key cannot mint its successors.
 */
import { ApiKey, ApiKeyBody, ApiKeyList, ApiKeyWithToken } from '@harbor/shared';
import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { newApiKeyToken } from '../../platform/auth/api-keys.js';
import type { AuthContext } from '../../platform/auth/context.js';
import { apiKeys } from '../../platform/auth/schema.js';
import { notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { listApiKeys, presentApiKey } from './account-queries.js';

const IdParams = z.object({ id: z.coerce.number().int().positive() });
const tenant = { param: 'id', resource: 'api_key' };
const tags = ['users'];

export function apiKeyRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const db = scope.deps.database.db;

  async function ownKey(auth: AuthContext, id: number) {
    const [row] = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, auth.user.id), isNull(apiKeys.revokedAt)));
    if (!row) throw notFound('api_key');
    return row;
  }

  app.get(
    '/v1/users/api_keys',
    {
      config: { access: 'account.self' },
      schema: {
        tags,
        summary: 'Your API keys (never their tokens)',
        response: { 200: ApiKeyList },
      },
    },
    async (req) => ({ data: await listApiKeys(db, authOf(req).user.id) }),
  );

  app.post(
    '/v1/users/api_keys',
    {
      config: { access: 'account.self', securitySetting: true },
      schema: {
        tags,
        summary: 'Create a key; the reply shows its token this once',
        body: ApiKeyBody,
        response: { 201: ApiKeyWithToken },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const { token, tokenHash, tokenPrefix } = newApiKeyToken();
      const [row] = await db
        .insert(apiKeys)
        .values({ companyId: auth.company.id, userId: auth.user.id, name: req.body.name, tokenHash, tokenPrefix })
        .returning();
      await scope.deps.audit.record(
        { event: 'api_key_created', companyId: auth.company.id, userId: auth.user.id, data: { api_key_id: row.id } },
        req,
      );
      return reply.code(201).send({ ...presentApiKey(row), token });
    },
  );

  app.get(
    '/v1/users/api_keys/:id',
    {
      config: { access: 'account.self', tenant },
      schema: { tags, summary: 'One of your keys', params: IdParams, response: { 200: ApiKey } },
    },
    async (req) => presentApiKey(await ownKey(authOf(req), req.params.id)),
  );

  app.patch(
    '/v1/users/api_keys/:id',
    {
      config: { access: 'account.self', tenant, securitySetting: true },
      schema: { tags, summary: 'Rename a key', params: IdParams, body: ApiKeyBody, response: { 200: ApiKey } },
    },
    async (req) => {
      const key = await ownKey(authOf(req), req.params.id);
      const [row] = await db.update(apiKeys).set({ name: req.body.name }).where(eq(apiKeys.id, key.id)).returning();
      return presentApiKey(row);
    },
  );

  app.patch(
    '/v1/users/api_keys/:id/refresh_token',
    {
      config: { access: 'account.self', tenant, securitySetting: true },
      schema: {
        tags,
        summary: 'Replace the token (the old one stops at once); the reply shows the new token this once',
        params: IdParams,
        response: { 200: ApiKeyWithToken },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const key = await ownKey(auth, req.params.id);
      const { token, tokenHash, tokenPrefix } = newApiKeyToken();
      const [row] = await db
        .update(apiKeys)
        .set({ tokenHash, tokenPrefix, lastUsedAt: null })
        .where(eq(apiKeys.id, key.id))
        .returning();
      await scope.deps.audit.record(
        { event: 'api_key_refreshed', companyId: auth.company.id, userId: auth.user.id, data: { api_key_id: key.id } },
        req,
      );
      return { ...presentApiKey(row), token };
    },
  );

  app.delete(
    '/v1/users/api_keys/:id',
    {
      config: { access: 'account.self', tenant, securitySetting: true },
      schema: {
        tags,
        summary: 'Revoke a key (refused from the next request on)',
        params: IdParams,
        response: { 204: z.null() },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const key = await ownKey(auth, req.params.id);
      await db.update(apiKeys).set({ revokedAt: new Date() }).where(eq(apiKeys.id, key.id));
      await scope.deps.audit.record(
        { event: 'api_key_revoked', companyId: auth.company.id, userId: auth.user.id, data: { api_key_id: key.id } },
        req,
      );
      return reply.code(204).send(null);
    },
  );
}
