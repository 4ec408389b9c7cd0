/**
 * The company's single sign-on provider (DECIDED routes, System Admin; docs/decisions/sso-connections.md):
 * GET shows it with the URIs to register at the provider, PUT creates or changes it (the secret is sealed and never
 * read back), DELETE removes it, POST .../check asks the provider for its discovery document so a typo shows now
 * rather than at someone's sign-in.
 */
import { ErrorBody, resolveFeatures, SsoCheckReply, SsoConnectionBody, SsoConnectionReply } from '@harbor/shared';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SsoError } from '../../integrations/sso/port.js';
import { companies } from '../../platform/db/schema.js';
import { HttpError, notFound } from '../../platform/http/errors.js';
import { authOf } from '../../platform/http/pipeline.js';
import { ssoConnections, ssoLogins } from '../session/schema.js';
import { ssoLogoutUri, ssoRedirectUri, toSsoConnection } from '../session/sso.js';

const tags = ['admin'];

export function ssoConnectionRoutes(scope: FastifyInstance) {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const { database, config, secrets, sso, audit } = scope.deps;
  const db = database.db;

  const find = async (companyId: number) =>
    (await db.select().from(ssoConnections).where(eq(ssoConnections.companyId, companyId)))[0];

  async function present(companyId: number): Promise<SsoConnectionReply> {
    const row = await find(companyId);
    const [company] = await db.select().from(companies).where(eq(companies.id, companyId));
    return {
      connection: row
        ? {
            issuer: row.issuer,
            client_id: row.clientId,
            has_client_secret: Boolean(row.clientSecretEnc),
            updated_at: row.updatedAt.toISOString(),
          }
        : null,
      redirect_uri: ssoRedirectUri(config.appUrl),
      backchannel_logout_uri: ssoLogoutUri(config.appUrl),
      enabled: resolveFeatures(company.features).single_sign_on,
    };
  }

  app.get(
    '/v1/admin/sso_connection',
    {
      config: { access: 'admin.sso' },
      schema: {
        tags,
        summary: "The company's OpenID Connect provider and the URIs to register there",
        response: { 200: SsoConnectionReply, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (req) => present(authOf(req).company.id),
  );

  app.put(
    '/v1/admin/sso_connection',
    {
      config: { access: 'admin.sso' },
      schema: {
        tags,
        summary: 'Set up or change the provider (issuer, client id, client secret; the secret may be left out)',
        body: SsoConnectionBody,
        response: { 200: SsoConnectionReply, 401: ErrorBody, 403: ErrorBody, 422: ErrorBody },
      },
    },
    async (req) => {
      const auth = authOf(req);
      const body = req.body;
      // Exactly as entered: an issuer is compared to the provider's own string, and some end in a slash (Auth0).
      const issuer = body.issuer;
      const existing = await find(auth.company.id);
      if (!existing && !body.client_secret) throw new HttpError(422, { client_secret: ["can't be blank"] });
      const sealed = body.client_secret ? secrets.seal(body.client_secret) : existing!.clientSecretEnc;
      await db
        .insert(ssoConnections)
        .values({ companyId: auth.company.id, issuer, clientId: body.client_id, clientSecretEnc: sealed })
        .onConflictDoUpdate({
          target: ssoConnections.companyId,
          set: { issuer, clientId: body.client_id, clientSecretEnc: sealed, updatedAt: new Date() },
        });
      await audit.record(
        {
          event: 'sso_connection_changed',
          companyId: auth.company.id,
          userId: auth.user.id,
          // Never the secret: only whether it changed.
          data: { issuer, client_id: body.client_id, secret_changed: Boolean(body.client_secret) },
        },
        req,
      );
      return present(auth.company.id);
    },
  );

  app.delete(
    '/v1/admin/sso_connection',
    {
      config: { access: 'admin.sso' },
      schema: {
        tags,
        summary: 'Remove the provider; people sign in with their passwords again',
        response: { 204: z.null(), 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req, reply) => {
      const auth = authOf(req);
      const existing = await find(auth.company.id);
      if (!existing) throw notFound('sso_connection');
      await db.transaction(async (tx) => {
        // Sessions already signed in stay; only their link to the provider (for back-channel logout) goes.
        await tx.delete(ssoLogins).where(eq(ssoLogins.connectionId, existing.id));
        await tx.delete(ssoConnections).where(eq(ssoConnections.id, existing.id));
      });
      await audit.record(
        { event: 'sso_connection_removed', companyId: auth.company.id, userId: auth.user.id, data: {} },
        req,
      );
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/admin/sso_connection/check',
    {
      config: { access: 'admin.sso' },
      schema: {
        tags,
        summary: 'Ask the provider for its discovery document with the stored settings; ok and what it said',
        response: { 200: SsoCheckReply, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody },
      },
    },
    async (req) => {
      const row = await find(authOf(req).company.id);
      if (!row) throw notFound('sso_connection');
      try {
        const conn = toSsoConnection(row, secrets);
        const url = new URL(await sso.authorizationUrl(conn, ssoRedirectUri(config.appUrl), await sso.newChecks()));
        return { ok: true, message: `The provider answered; people will sign in at ${url.origin}${url.pathname}` };
      } catch (err) {
        if (err instanceof SsoError) return { ok: false, message: `The provider did not answer: ${err.message}` };
        throw err;
      }
    },
  );
}
