/**
 * Webhooks in (docs/decisions/webhooks-in.md): `POST /v1/webhooks/{provider}` (and `/{provider}/{topic}`), public
 * and CSRF-free, for signed provider callbacks. The raw body is kept for the signature check; the provider's verify
 * function (registered by its integration) answers the events it proves, or refuses; each event is stored once per
 * provider event id (a duplicate is answered 200 and dropped); the request answers at once and a durable job per
 * provider drains what is pending, in batches: up to BATCH events a transaction that does their work and marks them
 * processed (a provider with `handleMany` does a batch's work in set-based statements), so a burst of callbacks
 * costs a few statements per batch, not a job and a transaction per callback. The platform knows no provider.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Database, Db } from '../db/client.js';
import { queueScansIn, withQueueScans } from '../db/queue-scans.js';
import { HttpError, notFound } from '../http/errors.js';
import type { JobQueue } from '../jobs/queue.js';

/** What a verify function gets: the bytes exactly as sent, and the public URL the provider signed (Twilio). */
export interface WebhookRequest {
  provider: string;
  topic: string | null;
  rawBody: Buffer;
  headers: IncomingHttpHeaders;
  /** The public URL of this request, as the provider called it (APP_URL + path and query). */
  url: string;
}

export interface VerifiedEvent {
  /** The provider's id of the event: the deduplication key (unique per provider). */
  id: string;
  type: string;
  companyId?: number | null;
  payload: Record<string, unknown>;
}

export interface StoredWebhookEvent extends Required<VerifiedEvent> {
  rowId: number;
  provider: string;
  receivedAt: Date;
}

export interface WebhookProvider {
  /** The path segment: /v1/webhooks/{name}. */
  name: string;
  /** Proves the request came from the provider and answers its events; throws `WebhookRefused` otherwise. */
  verify(req: WebhookRequest): VerifiedEvent[] | Promise<VerifiedEvent[]>;
  /** The work, in the durable job, inside the transaction that marks the event processed. */
  handle(event: StoredWebhookEvent, tx: Db): Promise<void>;
  /**
   * The work of a batch at once (set-based), inside the transaction that marks them processed; without it each
   * event goes through `handle` in that transaction. When a batch throws, its events are worked again one by one
   * through `handle`, each in a transaction of its own, so one bad event does not hold back the others.
   */
  handleMany?(events: StoredWebhookEvent[], tx: Db): Promise<BatchResult | undefined>;
  /** The body the provider expects back (Twilio: TwiML); default `{ received, duplicates }` as JSON. */
  respond?(result: { received: number; duplicates: number }): { contentType: string; body: string };
  /** This provider's jobs at once per process (default 4: the work is I/O). */
  concurrency?: number;
  /**
   * Requests that arrive while one of this provider's stores is in flight wait and go together in the next statement.
   * For providers that post one event a request in bursts (Twilio: 1,000 call statuses a second); not for those that
   * batch their events themselves (SendGrid), whose posts then queue behind each other for nothing (bench/email.ts).
   */
  groupAccepts?: boolean;
}

export interface BatchResult {
  /** Events whose work could not be done yet (row id -> why): not marked processed, tried again after a backoff. */
  failed?: Map<number, string>;
  /** Runs once the batch has committed (live notifications of what it changed). */
  afterCommit?: () => void;
}

/** A request that does not prove itself: answered with `status` and logged, nothing stored. */
export class WebhookRefused extends Error {
  constructor(
    message: string,
    readonly status: 400 | 401 | 403 = 400,
  ) {
    super(message);
  }
}

const jobName = (provider: string) => `webhooks.${provider}`;
/** Events stored per statement at most when requests are grouped. */
const ACCEPT_BATCH = 500;

interface WaitingAccept {
  events: VerifiedEvent[];
  resolve: (r: { received: number; duplicates: number }) => void;
  reject: (err: unknown) => void;
}

/** Events a drain takes per transaction. */
const BATCH = 200;
/** Attempts at an event's work before it is left, with its error, for a person. */
const MAX_ATTEMPTS = 8;
/** Events of `provider` ready to work: not processed, attempts left, their backoff over. */
const ready = (provider: string) =>
  sql`provider = ${provider} and processed_at is null and attempts < ${MAX_ATTEMPTS}
      and (retry_at is null or retry_at <= now())`;

type Row = Record<string, unknown>;
const stored = (p: WebhookProvider, r: Row): StoredWebhookEvent => ({
  rowId: Number(r.id),
  provider: p.name,
  id: String(r.event_id),
  type: String(r.type),
  companyId: r.company_id === null ? null : Number(r.company_id),
  payload: (typeof r.payload === 'string' ? JSON.parse(r.payload) : r.payload) as Record<string, unknown>,
  receivedAt: new Date(r.received_at as string),
});
const PARAM = z.string().regex(/^[a-z0-9_-]{1,40}$/);

export class WebhookRegistry {
  private providers = new Map<string, WebhookProvider>();

  constructor(
    private readonly database: Database,
    private readonly jobs: JobQueue,
  ) {}

  register(p: WebhookProvider) {
    if (!PARAM.safeParse(p.name).success) throw new Error(`bad webhook provider name ${p.name}`);
    if (this.providers.has(p.name)) throw new Error(`webhook provider ${p.name} registered twice`);
    this.providers.set(p.name, p);
    // The job's payload (older jobs carry their events' ids) does not matter: every run drains what is ready.
    this.jobs.register(jobName(p.name), (ctx) => this.drain(p, ctx.releaseKey), {
      concurrency: p.concurrency ?? 4,
    });
  }

  get(name: string) {
    return this.providers.get(name);
  }

  /**
   * Stores what is new, queues its job, and answers how many were new and how many were seen before. One statement
   * (events and their job in one data-modifying CTE); with `groupAccepts`, requests that arrive while a store is in
   * flight go together in the next one, so a callback burst costs a round trip a batch, not a request
   * (bench/voice.ts). An event sent twice in one batch is new for the first request only.
   */
  async accept(p: WebhookProvider, events: VerifiedEvent[]): Promise<{ received: number; duplicates: number }> {
    if (!p.groupAccepts) {
      const stored = await this.store(p, events);
      return { received: stored.size, duplicates: events.length - stored.size };
    }
    return new Promise((resolve, reject) => {
      const queue = this.waiting.get(p.name) ?? [];
      queue.push({ events, resolve, reject });
      this.waiting.set(p.name, queue);
      if (!this.storing.has(p.name)) void this.storeWaiting(p);
    });
  }

  private waiting = new Map<string, WaitingAccept[]>();
  private storing = new Set<string>();

  private async storeWaiting(p: WebhookProvider) {
    this.storing.add(p.name);
    try {
      for (;;) {
        const queue = this.waiting.get(p.name) ?? [];
        if (!queue.length) return;
        // At most ACCEPT_BATCH events a statement (whole requests: one may be larger alone).
        let take = 0;
        for (let n = 0; take < queue.length && (take === 0 || n + queue[take].events.length <= ACCEPT_BATCH); take++) {
          n += queue[take].events.length;
        }
        const batch = queue.splice(0, take);
        try {
          const stored = await this.store(
            p,
            batch.flatMap((b) => b.events),
          );
          for (const b of batch) {
            let received = 0;
            for (const e of b.events) if (stored.delete(e.id)) received++;
            b.resolve({ received, duplicates: b.events.length - received });
          }
        } catch (err) {
          for (const b of batch) b.reject(err);
        }
      }
    } finally {
      this.storing.delete(p.name);
    }
  }

  /** One statement: the new events and their drain job; answers the ids stored. */
  private async store(p: WebhookProvider, events: VerifiedEvent[]) {
    const values = sql.join(
      events.map(
        (e) =>
          sql`(${p.name}, ${e.id}, ${e.type}, ${e.companyId ?? null}::bigint, ${JSON.stringify(e.payload)}::jsonb)`,
      ),
      sql`, `,
    );
    const job = this.jobs.insertFrom(
      jobName(p.name),
      // One queued drain per provider: while one waits, new events join it (a running drain frees the key).
      sql`select '{}'::jsonb as payload, ${p.name} as unique_key from e having count(*) > 0`,
      { companyId: events[0].companyId ?? null, maxAttempts: 8 },
    );
    const res = await this.database.db.execute<{ ids: unknown; job: number | null }>(
      sql`with e as (insert into webhook_events (provider, event_id, type, company_id, payload) values ${values}
            on conflict (provider, event_id) do nothing returning event_id),
          j as (${job})
          select (select coalesce(json_agg(event_id), '[]') from e) as ids, (select id from j) as job`,
    );
    const { ids, job: jobId } = res.rows[0];
    if (jobId) this.jobs.poke(Number(jobId));
    // json (not text[]): node-postgres and PGlite both parse it into an array.
    return new Set((typeof ids === 'string' ? JSON.parse(ids) : ids) as string[]);
  }

  /**
   * The job: batches of ready events until fewer than a full batch is left, then a run queued for the earliest
   * backoff still pending. Its key is freed first, so events that arrive meanwhile queue a run of their own.
   */
  private async drain(p: WebhookProvider, releaseKey: () => Promise<void>) {
    await releaseKey();
    while ((await this.batch(p)) === BATCH) {}
    const res = await withQueueScans(this.database.db, (tx) =>
      tx.execute<{ at: string | null }>(
        sql`select min(retry_at) as at from webhook_events
            where provider = ${p.name} and processed_at is null and attempts < ${MAX_ATTEMPTS} and retry_at > now()`,
      ),
    );
    const at = res.rows[0]?.at;
    if (at) await this.jobs.enqueue(jobName(p.name), {}, { uniqueKey: `${p.name}:retry`, runAt: new Date(at) });
  }

  /** One batch in one transaction (skipping events another drain holds); answers how many it took. */
  private async batch(p: WebhookProvider): Promise<number> {
    let rows: Row[] = [];
    try {
      const after = await this.database.db.transaction(async (tx) => {
        await queueScansIn(tx);
        rows = (
          await tx.execute<Row>(
            sql`select * from webhook_events where ${ready(p.name)} order by id limit ${BATCH} for update skip locked`,
          )
        ).rows;
        if (!rows.length) return undefined;
        const events = rows.map((r) => stored(p, r));
        let result: BatchResult = {};
        if (p.handleMany) result = (await p.handleMany(events, tx)) ?? {};
        else for (const e of events) await p.handle(e, tx);
        const failed = result.failed ?? new Map<number, string>();
        const done = events.filter((e) => !failed.has(e.rowId)).map((e) => e.rowId);
        if (done.length) {
          await tx.execute(
            sql`update webhook_events set processed_at = now(), error = null where id = any(${sql.param(done)}::bigint[])`,
          );
        }
        if (failed.size)
          await this.failed(
            tx,
            [...failed].map(([id, error]) => ({ id, error })),
          );
        return result.afterCommit;
      });
      after?.();
    } catch (err) {
      if (!rows.length) throw err;
      // One event's failure aborted the batch: each on its own now.
      for (const r of rows) await this.one(p, Number(r.id));
    }
    return rows.length;
  }

  /** One event in its own transaction; a failure is recorded on it with its backoff. */
  private async one(p: WebhookProvider, id: number) {
    try {
      await this.database.db.transaction(async (tx) => {
        const res = await tx.execute<Row>(
          sql`select * from webhook_events where id = ${id} and processed_at is null for update`,
        );
        if (!res.rows[0]) return; // done meanwhile
        await p.handle(stored(p, res.rows[0]), tx);
        await tx.execute(sql`update webhook_events set processed_at = now(), error = null where id = ${id}`);
      });
    } catch (err) {
      await this.failed(this.database.db, [{ id, error: (err as Error).message ?? String(err) }]);
    }
  }

  /** Records failed attempts: the error, one more attempt, and a backoff of 2^attempts seconds. */
  private async failed(db: Db, list: Array<{ id: number; error: string }>) {
    const rows = JSON.stringify(list.map((f) => ({ id: f.id, error: f.error.slice(0, 1000) })));
    await db.execute(
      sql`update webhook_events w set error = f.error, attempts = w.attempts + 1,
            retry_at = now() + make_interval(secs => power(2, w.attempts + 1))
          from jsonb_to_recordset(${rows}::jsonb) as f(id bigint, error text) where w.id = f.id`,
    );
  }
}

/**
 * The ingestion routes. Their own plugin scope keeps every body raw (a Buffer, whatever its type), so the
 * signature is checked over the exact bytes; nothing else in the app sees this parser.
 */
export async function registerWebhookRoutes(app: FastifyInstance, registry: WebhookRegistry) {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 1024 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    const config = {
      access: 'public' as const,
      csrf: false,
      // Providers deliver in bursts from a few addresses (1,000 call-status callbacks a second at peak).
      rateLimit: { name: 'webhooks', max: 300_000, windowMs: 60_000 },
    };
    const schema = { tags: ['webhooks'], summary: 'Signed provider callback (Stripe, Twilio, SendGrid, ...)' };
    const handler = (req: FastifyRequest, reply: FastifyReply) => ingest(app, registry, req, reply);
    scope.post('/v1/webhooks/:provider', { config, schema }, handler);
    scope.post('/v1/webhooks/:provider/:topic', { config, schema }, handler);
  });
}

async function ingest(app: FastifyInstance, registry: WebhookRegistry, req: FastifyRequest, reply: FastifyReply) {
  const params = req.params as { provider: string; topic?: string };
  const p = PARAM.safeParse(params.provider).success ? registry.get(params.provider) : undefined;
  if (!p) throw notFound('provider');
  const rawBody = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
  let events: VerifiedEvent[];
  try {
    events = await p.verify({
      provider: p.name,
      topic: params.topic ?? null,
      rawBody,
      headers: req.headers,
      url: new URL(req.url, app.deps.config.appUrl).toString(),
    });
  } catch (err) {
    const refused = err instanceof WebhookRefused ? err : new WebhookRefused('could not be verified');
    // A logged refusal, never a 5xx: a forged or mangled callback is the sender's problem.
    req.log.warn({ provider: p.name, reason: (err as Error).message }, 'webhook refused');
    throw new HttpError(refused.status, { signature: [refused.message] });
  }
  const result = events.length ? await registry.accept(p, events) : { received: 0, duplicates: 0 };
  const custom = p.respond?.(result);
  if (custom) return reply.code(200).type(custom.contentType).send(custom.body);
  return reply.code(200).send(result);
}
