/**
 * Builds the Fastify application from wired dependencies: plugins, the route pipeline, the OpenAPI document, every
 * area's routes, the live connection and the built web app. main.ts and the tests both call this.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { modules } from './modules/index.js';
import type { Deps } from './platform/deps.js';
import { installBodyLimits, JSON_BODY_LIMIT } from './platform/http/body-limit.js';
import { installErrorHandler } from './platform/http/errors.js';
import { openApiTransform } from './platform/http/multipart-docs.js';
import { installPipeline } from './platform/http/pipeline.js';
import { installSecurityHeaders } from './platform/http/security-headers.js';
import { registerCable } from './platform/live/cable.js';
import { ChannelRegistry } from './platform/live/channels.js';
import { TenantRegistry } from './platform/tenancy.js';
import { registerWebhookRoutes } from './platform/webhooks/ingress.js';

declare module 'fastify' {
  interface FastifyInstance {
    tenants: TenantRegistry;
  }
}

export async function buildApp(deps: Deps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.config.logLevel },
    trustProxy: process.env.TRUST_PROXY === '1',
    bodyLimit: JSON_BODY_LIMIT,
    // Random request ids; never echo a client-chosen one into logs.
    genReqId: () => crypto.randomUUID(),
  });
  app.decorate('deps', deps);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installSecurityHeaders(app, deps.config);
  installBodyLimits(app);

  await app.register(cookie);
  // Before any route (and before static files, which bring their own .br/.gz): JSON over 1 kB goes out compressed,
  // at levels chosen for speed, since it is compressed on every request; up to 256 kB in one call rather than through
  // a zlib stream (the plugin's default on two cores stops at 8 kB): a month of calendar events (115 kB) cost ~1 ms
  // of CPU less a reply that way, the event loop held under a millisecond (bench/README.md). Compressed request
  // bodies are refused (none of our clients sends them, and inflating them would be a way around the body limit).
  await app.register(compress, {
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 4 },
    syncThreshold: 256 * 1024,
    globalDecompression: false,
  });
  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  const tenants = new TenantRegistry();
  installPipeline(app, deps.limiter, tenants);

  await app.register(swagger, {
    openapi: {
      info: { title: 'Harbor API', version: '1.0.0', description: 'Multi-tenant CRM for insurance agents.' },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'harbor_session' } },
      },
    },
    transform: openApiTransform,
  });
  await app.register(async (docs) => {
    // The docs UI is a plugin's set of static routes: public by declaration, like every other route, and not limited
    // (static files, like the web app's).
    docs.addHook('onRoute', (r) => {
      r.config = { ...(r.config ?? {}), access: 'public', rateLimit: false };
    });
    await docs.register(swaggerUi, { routePrefix: '/v1/docs' });
  });
  app.get('/v1/openapi.json', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  const channels = new ChannelRegistry();
  app.decorate('tenants', tenants);
  for (const mod of modules) await app.register(async (scope) => mod.register(scope, { channels, tenants }));
  registerCable(app, channels);
  await registerWebhookRoutes(app, deps.webhooks);
  // The loopback processor posts its signed webhooks to our own route, through the whole pipeline.
  deps.payments.loopback?.setWebhookTarget(async (body, headers) => {
    const res = await app.inject({ method: 'POST', url: '/v1/webhooks/stripe', headers, payload: body });
    return res.statusCode;
  });

  await serveWeb(app, deps.config.webDist);
  return app;
}

/** Hashed build output (`assets/name-<hash>.js`) never changes under its name: cache it for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The built web app from the same process; any non-API path falls back to index.html (client-side routing). Files
 * are served precompressed (the build writes .br and .gz beside them, scripts/build-web.mjs), hashed ones cached
 * for a year, the shell page revalidated on every load so a deploy is picked up at once.
 */
async function serveWeb(app: FastifyInstance, dist: string) {
  const indexFile = path.join(dist, 'index.html');
  const hasWeb = fs.existsSync(indexFile);
  // Read once: the shell page is small and the same for every client-side route.
  const indexHtml = hasWeb ? fs.readFileSync(indexFile, 'utf8') : '';
  if (hasWeb) {
    await app.register(async (web) => {
      // Public and never rate limited: one page load is a dozen files, and an office shares one address.
      web.addHook('onRoute', (r) => {
        r.config = { ...(r.config ?? {}), access: 'public', rateLimit: false };
      });
      await web.register(fastifyStatic, {
        root: dist,
        wildcard: false,
        index: false,
        preCompressed: true,
        cacheControl: false,
        setHeaders(reply, file) {
          const rel = path.relative(dist, file).split(path.sep).join('/');
          const policy = rel.startsWith('assets/')
            ? IMMUTABLE
            : rel.startsWith('index.html')
              ? 'no-cache'
              : 'public, max-age=3600';
          reply.header('cache-control', policy);
        },
      });
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0];
    const isApi = url.startsWith('/v1') || url.startsWith('/auth/') || url === '/cable';
    if (isApi || !hasWeb || req.method !== 'GET') {
      return reply.code(404).send({ errors: { path: [`No route for ${req.method} ${url}`] } });
    }
    return reply.code(200).header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(indexHtml);
  });
}
