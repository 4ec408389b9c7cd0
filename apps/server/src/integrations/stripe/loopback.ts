/**
 * The loopback processor (docs/decisions/loopback-processor.md): a small in-process HTTP server on 127.0.0.1 that
 * speaks the subset of Stripe's REST API Harbor uses (customers, payment methods, payment intents, refunds), in
 * Stripe's own wire format (form-encoded requests, `{ error: {...} }` answers, `Idempotency-Key`), so the real
 * `stripe` client drives it through its host/port/protocol options. Every change it makes is announced as an event
 * signed exactly as Stripe signs webhooks (`Stripe-Signature: t=<time>,v1=<HMAC-SHA256>`) and delivered to Harbor's
 * webhook route, retried with back-off like Stripe does, so the real signature check runs.
 */
import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Emitted, invalidRequest, LoopbackState, type Params, StripeApiError } from './loopback-state.js';

/** Delivers one signed webhook; answers the HTTP status the endpoint gave. */
export type WebhookTarget = (body: string, headers: Record<string, string>) => Promise<number>;

export interface LoopbackOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  port?: number;
  /** Delays of the redeliveries after a failed delivery (Stripe retries for days; here: seconds). */
  retryDelaysMs?: number[];
}

/** Stripe's form encoding, `a[b][0]=x`, back into objects and arrays. */
export function parseForm(body: string): Params {
  const out: Params = {};
  for (const [rawKey, value] of new URLSearchParams(body)) {
    const path = rawKey.replace(/\]/g, '').split('[');
    let node = out as Record<string, unknown>;
    for (let i = 0; i < path.length - 1; i++) {
      node[path[i]] ??= {};
      node = node[path[i]] as Record<string, unknown>;
    }
    node[path[path.length - 1]] = value;
  }
  return out;
}

export class LoopbackProcessor {
  readonly state = new LoopbackState();
  private server: http.Server | null = null;
  private target: WebhookTarget | null = null;
  private readonly idempotency = new Map<string, { hash: string; status: number; body: string }>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly inflight = new Set<Promise<void>>();
  /** Events not delivered yet because no target was set (deliveries wait for the app to be ready). */
  private readonly waiting: string[] = [];
  private closed = false;
  port = 0;

  constructor(private readonly opts: LoopbackOptions) {}

  static async start(opts: LoopbackOptions) {
    const p = new LoopbackProcessor(opts);
    await p.listen();
    return p;
  }

  private async listen() {
    this.server = http.createServer((req, res) => void this.serve(req, res));
    await new Promise<void>((resolve) => this.server!.listen(this.opts.port ?? 0, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  /** Where webhooks go: Harbor's own `POST /v1/webhooks/stripe` (set once the app is built). */
  setWebhookTarget(target: WebhookTarget) {
    this.target = target;
    for (const body of this.waiting.splice(0)) this.deliver(body, 0);
  }

  /**
   * What a browser's card form calls (Stripe.js's part): creates a payment method from the card with the
   * publishable key. The number is read once, never kept.
   */
  tokenize(card: { number: string; exp_month: number; exp_year: number; cvc: string }) {
    return this.state.createPaymentMethod({
      type: 'card',
      card: { number: card.number, exp_month: String(card.exp_month), exp_year: String(card.exp_year), cvc: card.cvc },
    });
  }

  async close() {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    await Promise.allSettled([...this.inflight]);
    if (this.server) await new Promise<void>((resolve) => this.server!.close(() => resolve()));
  }

  private async serve(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const requestId = `req_${crypto.randomBytes(10).toString('hex')}`;
    const send = (status: number, payload: unknown, replayed = false) => {
      res.writeHead(status, {
        'content-type': 'application/json',
        'request-id': requestId,
        ...(replayed ? { 'idempotent-replayed': 'true' } : {}),
      });
      res.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (auth !== this.opts.secretKey) {
      return send(401, {
        error: { type: 'invalid_request_error', message: `Invalid API Key provided: ${(auth ?? '').slice(0, 8)}***` },
      });
    }
    const method = req.method ?? 'GET';
    const url = new URL(req.url ?? '/', 'http://loopback');
    const key = req.headers['idempotency-key'];
    const ikey = method === 'POST' && typeof key === 'string' ? key : null;
    const hash = crypto.createHash('sha256').update(`${method} ${url.pathname}\n${body}`).digest('hex');
    if (ikey) {
      const seen = this.idempotency.get(ikey);
      if (seen && seen.hash !== hash) {
        return send(400, {
          error: {
            type: 'idempotency_error',
            message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${ikey}' if you meant to execute a different request.`,
          },
        });
      }
      if (seen) return send(seen.status, seen.body, true);
    }
    const events: Emitted[] = [];
    let status = 200;
    let payload: string;
    try {
      const result = this.route(method, url.pathname, parseForm(method === 'GET' ? url.search.slice(1) : body), (e) =>
        events.push(e),
      );
      payload = JSON.stringify(result);
    } catch (err) {
      const e = err instanceof StripeApiError ? err : new StripeApiError(500, { type: 'api_error', message: 'error' });
      status = e.status;
      payload = JSON.stringify({ error: { ...e.body, request_log_url: null } });
    }
    if (ikey && status !== 500) this.idempotency.set(ikey, { hash, status, body: payload });
    send(status, payload);
    for (const e of events) this.emit(e, requestId, ikey);
  }

  private route(method: string, path: string, p: Params, emit: (e: Emitted) => void): unknown {
    const s = this.state;
    const parts = path.split('/').filter(Boolean);
    if (parts[0] !== 'v1')
      throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, undefined, undefined, 404);
    const [, kind, id, action] = parts;
    switch (`${method} ${kind}${id ? '/:id' : ''}${action ? `/${action}` : ''}`) {
      case 'POST customers':
        return s.createCustomer(p);
      case 'GET customers/:id':
        return s.customer(id);
      case 'POST payment_methods':
        return s.createPaymentMethod(p);
      case 'GET payment_methods/:id':
        return s.method(id);
      case 'POST payment_methods/:id/attach':
        return s.attach(id, p);
      case 'POST payment_intents':
        return s.createIntent(p, emit);
      case 'GET payment_intents/:id':
        return s.intent(id);
      case 'POST payment_intents/:id/confirm':
        return s.confirmIntent(id, p, emit);
      case 'POST payment_intents/:id/cancel':
        return s.cancelIntent(id, emit);
      case 'POST refunds':
        return s.createRefund(p, emit);
      default:
        throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, undefined, undefined, 404);
    }
  }

  /** Wraps the object in an event, signs it, and delivers it after the answer has gone out. */
  private emit(e: Emitted, requestId: string, idempotencyKey: string | null) {
    const event = {
      id: `evt_${crypto.randomBytes(12).toString('base64url')}`,
      object: 'event',
      api_version: '2026-10-28.endive',
      created: Math.floor(Date.now() / 1000),
      data: { object: e.object },
      livemode: false,
      pending_webhooks: 1,
      request: { id: requestId, idempotency_key: idempotencyKey },
      type: e.type,
    };
    const body = JSON.stringify(event);
    if (!this.target) this.waiting.push(body);
    else this.deliver(body, 0);
  }

  /** Signs as Stripe does: v1 = HMAC-SHA256 over "<timestamp>.<body>" with the endpoint's secret. */
  sign(body: string, timestamp = Math.floor(Date.now() / 1000)) {
    const v1 = crypto.createHmac('sha256', this.opts.webhookSecret).update(`${timestamp}.${body}`).digest('hex');
    return `t=${timestamp},v1=${v1}`;
  }

  private deliver(body: string, attempt: number) {
    if (this.closed || !this.target) return;
    const target = this.target;
    const run = (async () => {
      let ok = false;
      try {
        const status = await target(body, {
          'content-type': 'application/json; charset=utf-8',
          'stripe-signature': this.sign(body),
          'user-agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks)',
        });
        ok = status >= 200 && status < 300;
      } catch {
        ok = false;
      }
      const delays = this.opts.retryDelaysMs ?? [1_000, 5_000, 30_000, 120_000];
      if (!ok && attempt < delays.length && !this.closed) {
        const t = setTimeout(() => {
          this.timers.delete(t);
          this.deliver(body, attempt + 1);
        }, delays[attempt]);
        t.unref();
        this.timers.add(t);
      }
    })();
    this.inflight.add(run);
    void run.finally(() => this.inflight.delete(run));
  }
}
