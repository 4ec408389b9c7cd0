/**
 * The live connection at /cable, speaking the cable protocol of routes.md "Non-HTTP interfaces": welcome on open,
 * ping every 3 s, subscribe -> confirm_subscription / reject_subscription, data frames {identifier, message}, and a
 * `validate_stream` action. It authenticates by the session cookie (the route pipeline) and checks Origin.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import { findSession, SESSION_COOKIE } from '../auth/sessions.js';
import { forbidden } from '../http/errors.js';
import type { ChannelRegistry } from './channels.js';

const PING_MS = 3_000;
const REVALIDATE_MS = 30_000;

export function originAllowed(req: FastifyRequest, allowed: string[]): boolean {
  const origin = req.headers.origin;
  if (!origin) return false;
  try {
    const host = new URL(origin).host;
    return host === req.headers.host || allowed.includes(origin);
  } catch {
    return false;
  }
}

export function registerCable(app: FastifyInstance, channels: ChannelRegistry) {
  app.get(
    '/cable',
    {
      websocket: true,
      config: { access: 'authenticated' },
      schema: { hide: true },
      preValidation: async (req) => {
        if (!originAllowed(req, app.deps.config.allowedOrigins)) throw forbidden('Origin not allowed');
      },
    },
    (socket: WebSocket, req: FastifyRequest) => serve(app, channels, socket, req),
  );
}

function serve(app: FastifyInstance, channels: ChannelRegistry, socket: WebSocket, req: FastifyRequest) {
  const auth = req.auth!;
  const { bus, database, config } = app.deps;
  const subs = new Map<string, () => Promise<void>>();
  const send = (frame: unknown) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame));
  };

  send({ type: 'welcome' });
  const ping = setInterval(() => send({ type: 'ping', message: Math.floor(Date.now() / 1000) }), PING_MS);
  // A session ended elsewhere (sign-out, password reset) must not keep receiving data.
  const token = req.cookies[SESSION_COOKIE];
  const revalidate = setInterval(async () => {
    const still = token ? await findSession(database.db, config, token).catch(() => null) : null;
    if (still?.session.state !== 'active') socket.close(4401, 'unauthorized');
  }, REVALIDATE_MS);

  socket.on('message', (raw) => {
    // A failing frame (a database error in a channel) costs that frame, never the process.
    handle(raw).catch((error) => req.log.warn({ err: error }, 'cable frame failed'));
  });

  async function handle(raw: unknown) {
    let frame: { command?: string; identifier?: string; data?: string };
    try {
      frame = JSON.parse(String(raw));
    } catch {
      return;
    }
    const identifier = frame.identifier ?? '';
    let params: Record<string, unknown>;
    try {
      params = JSON.parse(identifier);
    } catch {
      return send({ type: 'reject_subscription', identifier });
    }
    const channel = channels.get(String(params.channel ?? ''));
    const stream = channel?.streamFor(auth, params) ?? null;
    if (frame.command === 'subscribe') {
      if (!stream) return send({ type: 'reject_subscription', identifier });
      if (!subs.has(identifier)) {
        subs.set(identifier, await bus.subscribe(stream, (message) => send({ identifier, message })));
      }
      send({ type: 'confirm_subscription', identifier });
      try {
        for (const message of (await channel?.catchUp?.(auth, params)) ?? []) send({ identifier, message });
      } catch (error) {
        // Catching up is a courtesy; live messages still flow if it fails.
        req.log.warn({ err: error, channel: params.channel }, 'live catch-up failed');
      }
      return;
    }
    if (frame.command === 'unsubscribe') {
      await subs.get(identifier)?.();
      subs.delete(identifier);
      return;
    }
    if (frame.command === 'message') {
      let data: { action?: string } = {};
      try {
        data = JSON.parse(frame.data ?? '{}');
      } catch {
        /* an unreadable action is ignored like an unknown one */
      }
      if (data.action === 'validate_stream') {
        send({ identifier, message: { action: 'validate_stream', valid: Boolean(stream) && subs.has(identifier) } });
      }
    }
  }

  socket.on('close', () => {
    clearInterval(ping);
    clearInterval(revalidate);
    for (const off of subs.values()) void off();
    subs.clear();
  });
}
