/**
 * Domain events (docs/decisions/outbox.md). An area defines its event types (`defineEvent`, a zod schema each) and
 * records them inside the transaction of the write (`recordEvent`); areas subscribe by name (the timeline, the live
 * channel, later campaigns, workflows and outbound webhooks). The platform knows no area and no event.
 *
 * Delivery is at least once, with per-subscriber idempotency: a subscriber's handler runs in a transaction that also
 * records its delivery row, so what it writes to the database happens once; what it sends outside (a live message,
 * an HTTP call) may repeat after a crash and must be harmless twice. Events are not ordered across a batch boundary
 * or between processes: subscribers compare and set (a status never moves backwards), they do not assume order.
 *
 * Durable and multi-process: the table is the queue. A dispatcher claims a batch with FOR UPDATE SKIP LOCKED and a
 * lease, so any number of processes share the work; one that dies mid-batch leaves the lease to run out.
 */
import { sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database, Db } from '../db/client.js';
import { withQueueScans } from '../db/queue-scans.js';

export interface EventType<P> {
  type: string;
  schema: z.ZodType<P>;
}

export interface DomainEvent<P = Record<string, unknown>> {
  id: number;
  type: string;
  companyId: number | null;
  actorId: number | null;
  payload: P;
  createdAt: Date;
}

export type Subscriber<P> = (event: DomainEvent<P>, tx: Db) => Promise<void>;

export function defineEvent<P extends Record<string, unknown>>(type: string, schema: z.ZodType<P>): EventType<P> {
  return { type, schema };
}

/**
 * Records that something happened, in the caller's transaction. The payload is checked against the event's schema:
 * a wrong shape fails the write (and its test), never a subscriber later.
 */
export async function recordEvent<P>(
  db: Db,
  ev: EventType<P>,
  e: { companyId: number | null; actorId?: number | null; payload: P },
): Promise<number> {
  const payload = ev.schema.parse(e.payload);
  const res = await db.execute<{ id: number }>(
    sql`insert into domain_events (company_id, type, payload, actor_id)
        values (${e.companyId}, ${ev.type}, ${JSON.stringify(payload)}::jsonb, ${e.actorId ?? null}) returning id`,
  );
  return Number(res.rows[0].id);
}

export interface OutboxOptions {
  pollMs?: number;
  batch?: number;
  /** Attempts before the subscribers still failing are given up on (their delivery rows say `dead`). */
  maxAttempts?: number;
  leaseMs?: number;
}

interface Row {
  id: number;
  type: string;
  company_id: number | null;
  actor_id: number | null;
  payload: unknown;
  created_at: string | Date;
  attempts: number;
}

export class Outbox {
  private subscribers = new Map<
    string,
    Array<{ name: string; schema: z.ZodType<unknown>; handle: Subscriber<unknown> }>
  >();
  private names = new Set<string>();
  private stopped = true;
  private wake: (() => void) | null = null;
  /** A poke that came while a batch was being dispatched: look again before sleeping. */
  private poked = false;
  private loopDone: Promise<void> = Promise.resolve();
  private readonly pollMs: number;
  private readonly batch: number;
  private readonly maxAttempts: number;
  private readonly leaseMs: number;

  constructor(
    private readonly database: Database,
    opts: OutboxOptions = {},
  ) {
    this.pollMs = opts.pollMs ?? 250;
    this.batch = opts.batch ?? 100;
    this.maxAttempts = opts.maxAttempts ?? 8;
    this.leaseMs = opts.leaseMs ?? 60_000;
  }

  /** `name` identifies the subscriber in delivery rows: keep it stable across releases. */
  subscribe<P>(ev: EventType<P>, name: string, handle: Subscriber<P>) {
    if (this.names.has(name)) throw new Error(`event subscriber ${name} registered twice`);
    this.names.add(name);
    const list = this.subscribers.get(ev.type) ?? [];
    list.push({ name, schema: ev.schema as z.ZodType<unknown>, handle: handle as Subscriber<unknown> });
    this.subscribers.set(ev.type, list);
  }

  /** After the recording transaction committed: dispatch now rather than at the next poll. */
  poke() {
    this.poked = true;
    this.wake?.();
  }

  start() {
    if (!this.stopped) return;
    this.stopped = false;
    this.loopDone = this.loop();
  }

  async stop() {
    this.stopped = true;
    this.poke();
    await this.loopDone;
  }

  /** Dispatches until nothing is due within 30 s, retries included (tests and benches); answers how many it handled. */
  async drain(timeoutMs = 30_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    let total = 0;
    while (Date.now() < until) {
      const n = await this.dispatchOnce();
      total += n;
      if (n === 0) {
        const [{ due }] = await this.database.query<{ due: number }>(
          `select count(*)::int as due from domain_events
           where dispatched_at is null and next_attempt_at <= now() + interval '30 seconds'`,
        );
        if (due === 0) return total;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    throw new Error('outbox did not drain in time');
  }

  private async loop() {
    while (!this.stopped) {
      let n = 0;
      this.poked = false;
      try {
        n = await this.dispatchOnce();
      } catch (err) {
        console.error('outbox dispatcher error', (err as Error).message);
      }
      if (n === this.batch || this.poked || this.stopped) continue; // more is waiting, or time to go
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, this.pollMs);
        function done() {
          clearTimeout(timer);
          resolve();
        }
        this.wake = done;
      });
      this.wake = null;
    }
  }

  /** Claims one batch of due events and delivers each to its subscribers. */
  async dispatchOnce(): Promise<number> {
    // Index scans only: every dispatched event leaves a dead entry in the pending index (db/queue-scans.ts).
    const claimed = await withQueueScans(this.database.db, (tx) =>
      tx.execute<Row & Record<string, unknown>>(
        sql`update domain_events set locked_until = now() + ${`${this.leaseMs} milliseconds`}::interval,
              attempts = attempts + 1
            where id in (select id from domain_events
                         where dispatched_at is null and next_attempt_at <= now()
                           and (locked_until is null or locked_until < now())
                         order by id limit ${this.batch} for update skip locked)
            returning id, type, company_id, actor_id, payload, created_at, attempts`,
      ),
    );
    const rows = claimed.rows.sort((a, b) => Number(a.id) - Number(b.id));
    if (rows.length === 0) return 0;
    const ids = rows.map((r) => Number(r.id));
    const done = await this.database.db.execute<{ event_id: number; subscriber: string }>(
      sql`select event_id, subscriber from domain_event_deliveries where event_id = any(${sql.param(ids)}::bigint[])`,
    );
    const had = new Set(done.rows.map((d) => `${d.event_id}:${d.subscriber}`));
    for (const row of rows) await this.deliver(row, had);
    return rows.length;
  }

  private async deliver(row: Row, had: Set<string>) {
    const db = this.database.db;
    const id = Number(row.id);
    const failed: Array<{ name: string; error: string }> = [];
    for (const sub of this.subscribers.get(row.type) ?? []) {
      if (had.has(`${id}:${sub.name}`)) continue;
      try {
        const event: DomainEvent<unknown> = {
          id,
          type: row.type,
          companyId: row.company_id === null ? null : Number(row.company_id),
          actorId: row.actor_id === null ? null : Number(row.actor_id),
          payload: sub.schema.parse(typeof row.payload === 'string' ? JSON.parse(row.payload) : row.payload),
          createdAt: new Date(row.created_at),
        };
        await db.transaction(async (tx) => {
          const mine = await tx.execute(
            sql`insert into domain_event_deliveries (subscriber, event_id) values (${sub.name}, ${id})
                on conflict do nothing returning event_id`,
          );
          if (mine.rows.length === 0) return; // another dispatcher delivered it meanwhile
          await sub.handle(event, tx);
        });
      } catch (err) {
        failed.push({ name: sub.name, error: ((err as Error).message ?? String(err)).slice(0, 1000) });
      }
    }
    if (failed.length === 0) {
      await db.execute(sql`update domain_events set dispatched_at = now(), locked_until = null where id = ${id}`);
      return;
    }
    const error = failed.map((f) => `${f.name}: ${f.error}`).join('; ');
    if (Number(row.attempts) >= this.maxAttempts) {
      // Given up: the failing subscribers' rows say so (with the error), and the event stops being retried.
      await db.transaction(async (tx) => {
        for (const f of failed) {
          await tx.execute(
            sql`insert into domain_event_deliveries (subscriber, event_id, status, error)
                values (${f.name}, ${id}, 'dead', ${f.error}) on conflict do nothing`,
          );
        }
        await tx.execute(
          sql`update domain_events set dispatched_at = now(), locked_until = null, last_error = ${error} where id = ${id}`,
        );
      });
      console.error(`event ${id} (${row.type}) given up for ${failed.map((f) => f.name).join(', ')}: ${error}`);
      return;
    }
    const backoffMs = Math.min(2 ** Number(row.attempts) * 500, 10 * 60_000);
    await db.execute(
      sql`update domain_events set locked_until = null, last_error = ${error},
            next_attempt_at = now() + ${`${backoffMs} milliseconds`}::interval where id = ${id}`,
    );
  }
}
