/**
 * Security headers on every response (API, web app, docs, errors, 404s), and source maps kept private outside
 * development. The policy is written for what Harbor serves: the built web app loads only its own scripts (no
 * inline script), Mantine sets inline styles, QR codes and previews are data:/blob: images, and the live channel
 * is a same-origin WebSocket. The Swagger UI at /v1/docs loads its scripts from files too, so one policy fits all.
 * See docs/decisions/security-headers.md.
 */
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "media-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/**
 * The policy for this server: the local voice lab's softphone speaks SIP over a WebSocket of its own (Kamailio,
 * VOICE_SIP_WS_URL), which `connect-src` then names; no other origin is ever added.
 */
export function contentSecurityPolicy(config: Config) {
  const ws = config.voice.sip?.wsUrl;
  if (!ws) return CONTENT_SECURITY_POLICY;
  const origin = new URL(ws).origin.replace(/^http/, 'ws');
  return CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${origin}`);
}

const ONE_YEAR_S = 31_536_000;

/** Environments where a developer may read source maps; everywhere else they are not served. */
const MAPS_ALLOWED = new Set<Config['environment']>(['development', 'test']);

export function installSecurityHeaders(app: FastifyInstance, config: Config) {
  const httpsApp = config.appUrl.startsWith('https:');
  const serveMaps = MAPS_ALLOWED.has(config.environment);
  const policy = contentSecurityPolicy(config);
  app.addHook('onRequest', async (req, reply) => {
    reply.headers({
      'content-security-policy': httpsApp ? `${policy}; upgrade-insecure-requests` : policy,
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      // The password-reset token travels in a URL: no page of ours may hand its address to another site.
      'referrer-policy': 'no-referrer',
      'cross-origin-opener-policy': 'same-origin',
      'permissions-policy': 'camera=(), geolocation=(), payment=(), microphone=(self)',
    });
    if (httpsApp || req.protocol === 'https') {
      reply.header('strict-transport-security', `max-age=${ONE_YEAR_S}; includeSubDomains`);
    }
    if (!serveMaps && req.url.split('?')[0].endsWith('.map')) {
      return reply.code(404).send({ errors: { path: [`No route for ${req.method} ${req.url.split('?')[0]}`] } });
    }
  });
}
