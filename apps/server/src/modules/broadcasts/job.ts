/**
 * The durable job that sends a broadcast. Each turn takes a batch of recipients whose turn has come, asks consent
 * for them at that moment (checkConsent), records the removed with their reason, hands the allowed to the channel
 * (which sends once per recipient, idempotently, through the provider's shared throttle) and records each outcome
 * together with the broadcast's counters in one transaction. A killed process leaves rows `pending` or `sending`:
 * the next run takes them again, and the channel does not send twice what the provider already took.
 */
import { BROADCASTS_CHANNEL } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { withQueueScans } from '../../platform/db/queue-scans.js';
import type { Deps } from '../../platform/deps.js';
import type { JobContext } from '../../platform/jobs/queue.js';
import { publishLive } from '../../platform/live/publish.js';
import { checkConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { broadcastChannels, type OutgoingRecipient, type SendOutcome } from './channels.js';
import { broadcastStream, loadBroadcast, presentBroadcast } from './presenter.js';
import type { BroadcastRow } from './schema.js';

export const BROADCAST_JOB = 'broadcasts.send';
/** Recipients per turn: one consent query, one write of outcomes. */
const BATCH = 500;
/** A temporary failure is tried again this many times, waiting longer each time. */
const MAX_ATTEMPTS = 6;
const retryDelayMs = (attempts: number) => Math.min(60_000, 1_000 * 2 ** attempts);
/** Progress frames at most this often (a 100k broadcast would otherwise send 200). */
const PROGRESS_MS = 500;

interface Pending {
  contact_id: number;
  sender_id: number;
  attempts: number;
}

export function broadcastJob(deps: Deps) {
  const db = deps.database.db;
  const channels = broadcastChannels(deps);

  async function publish(id: number) {
    const b = await loadBroadcast(db, id);
    if (b)
      await publishLive(deps.bus, BROADCASTS_CHANNEL, broadcastStream(b.user_id), {
        type: 'broadcast',
        broadcast: presentBroadcast(b),
      });
  }

  return async function run(ctx: JobContext) {
    const id = Number(ctx.job.payload.id);
    const [first] = await rowsOf<{ channel: string }>(db, sql`select channel from broadcasts where id = ${id}`);
    if (!first) return;
    const lanes = Math.max(1, channels.get(first.channel)?.lanes ?? 1);
    const progress = { last: 0 };
    // Each lane ends when its share has nothing left to send now or later (or the broadcast stopped running). A lane
    // that fails stops the others at their next batch, and the job ends only once none is still sending.
    const stop = new AbortController();
    const onAbort = () => stop.abort();
    ctx.signal.addEventListener('abort', onAbort, { once: true });
    const results = await Promise.allSettled(
      Array.from({ length: lanes }, (_, lane) =>
        runLane(ctx, stop.signal, id, { lane, lanes }, progress).catch((err) => {
          stop.abort();
          throw err;
        }),
      ),
    );
    ctx.signal.removeEventListener('abort', onAbort);
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    const done = await db.execute(
      sql`update broadcasts set status = 'completed', finished_at = now() where id = ${id} and status = 'running'
        returning id`,
    );
    if (done.rows.length) await publish(id);
  };

  async function runLane(
    ctx: JobContext,
    signal: AbortSignal,
    id: number,
    { lane, lanes }: { lane: number; lanes: number },
    progress: { last: number },
  ) {
    // One lane: no filter, the statements stay as they were. Several: each reads only its share.
    const share = lanes > 1 ? sql`and contact_id % ${lanes} = ${lane}` : sql``;
    for (;;) {
      if (signal.aborted) throw new Error('stopped');
      const [b] = await rowsOf<BroadcastRow & Record<string, unknown>>(
        db,
        sql`update broadcasts set status = 'running', started_at = coalesce(started_at, now())
          where id = ${id} and status in ('scheduled', 'running') returning *`,
      );
      if (!b) return; // cancelled, finished, or gone
      const broadcast = toRow(b);
      const channel = channels.get(broadcast.channel);
      if (!channel) throw new Error(`no broadcast channel ${broadcast.channel}`);
      // Index scans only: each recipient sent leaves dead 'pending' and 'sending' entries (db/queue-scans.ts). One
      // ordered scan per status, each stopping at BATCH rows: `status in (...)` ordered by contact_id read and
      // sorted every recipient still pending on every batch (a 100,000-recipient broadcast: ~10,000 entries a batch).
      const ready = (status: string) =>
        sql`(select contact_id, sender_id, attempts from broadcast_recipients
            where broadcast_id = ${id} and status = ${status} and (retry_at is null or retry_at <= now()) ${share}
            order by contact_id limit ${BATCH})`;
      const batch = await withQueueScans(db, (tx) =>
        rowsOf<Pending>(tx, sql`${ready('pending')} union all ${ready('sending')} order by contact_id limit ${BATCH}`),
      );
      if (!batch.length) {
        const [{ next }] = await withQueueScans(db, (tx) =>
          rowsOf<{ next: string | null }>(
            tx,
            sql`select min(retry_at) as next from broadcast_recipients
              where broadcast_id = ${id} and status in ('pending', 'sending') ${share}`,
          ),
        );
        if (next) {
          // Only retries wait: sleep until the first is due (the heartbeat keeps the job ours meanwhile).
          await sleep(Math.max(50, Math.min(5_000, new Date(next).getTime() - Date.now())), signal);
          continue;
        }
        return;
      }
      await turn(broadcast, batch, channel, ctx);
      await ctx.checkpoint({ last_contact_id: Number(batch[batch.length - 1].contact_id) });
      if (Date.now() - progress.last > PROGRESS_MS) {
        progress.last = Date.now();
        await publish(id);
      }
    }
  }

  async function turn(
    broadcast: BroadcastRow,
    batch: Pending[],
    channel: NonNullable<ReturnType<typeof channels.get>>,
    ctx: JobContext,
  ) {
    const bySender = new Map<number, Pending[]>();
    for (const r of batch) {
      const list = bySender.get(Number(r.sender_id)) ?? [];
      list.push(r);
      bySender.set(Number(r.sender_id), list);
    }
    const removed: Array<{ id: number; reason: string; address: string | null; basis: string }> = [];
    const allowed: OutgoingRecipient[] = [];
    for (const [senderId, rows] of bySender) {
      const verdicts = await checkConsent(db, {
        companyId: broadcast.companyId,
        channel: broadcast.channel as 'email' | 'sms',
        purpose: broadcast.purpose as 'marketing',
        senderId,
        products: broadcast.products,
        contactIds: rows.map((r) => Number(r.contact_id)),
      });
      const attempts = new Map(rows.map((r) => [Number(r.contact_id), Number(r.attempts)]));
      for (const v of verdicts) {
        if (v.allowed && v.address) {
          allowed.push({
            contactId: v.contactId,
            senderId,
            address: v.address,
            basis: v.basis,
            attempts: attempts.get(v.contactId) ?? 0,
          });
        } else removed.push({ id: v.contactId, reason: v.reason ?? 'no_address', address: v.address, basis: v.basis });
      }
    }
    if (allowed.length) {
      await db.execute(
        sql`update broadcast_recipients r set status = 'sending', address = v.address, basis = v.basis,
            attempts = r.attempts + 1, updated_at = now()
          from unnest(${sql.param(allowed.map((a) => a.contactId))}::bigint[], ${sql.param(allowed.map((a) => a.address))}::text[],
            ${sql.param(allowed.map((a) => a.basis))}::text[]) as v(id, address, basis)
          where r.broadcast_id = ${broadcast.id} and r.contact_id = v.id`,
      );
    }
    const { key, rule } = channel.throttle();
    const outcomes: SendOutcome[] = allowed.length
      ? await channel.send({
          broadcast,
          recipients: allowed,
          take: (n) => ctx.throttle(key, rule, n),
          signal: ctx.signal,
        })
      : [];
    const attemptsOf = new Map(allowed.map((a) => [a.contactId, a.attempts + 1]));
    const sent = outcomes.filter((o) => o.outcome === 'sent').map((o) => o.contactId);
    const failed = outcomes
      .filter(
        (o) => o.outcome === 'failed' || (o.outcome === 'retry' && (attemptsOf.get(o.contactId) ?? 0) >= MAX_ATTEMPTS),
      )
      .map((o) => o.contactId);
    const retry = outcomes
      .filter((o) => o.outcome === 'retry' && (attemptsOf.get(o.contactId) ?? 0) < MAX_ATTEMPTS)
      .map((o) => ({ id: o.contactId, at: new Date(Date.now() + retryDelayMs(attemptsOf.get(o.contactId) ?? 1)) }));
    const waiting = outcomes
      .filter((o) => o.outcome === 'wait')
      // Never sooner than a second from now: a wait already due would be taken again at once, in a loop.
      .map((o) => ({
        id: o.contactId,
        at: new Date(Math.max(o.until?.getTime() ?? Date.now() + 5_000, Date.now() + 1_000)).toISOString(),
      }));
    await db.transaction(async (tx) => {
      const moved = async (ids: number[], status: string) => {
        if (!ids.length) return 0;
        const res = await tx.execute(
          sql`update broadcast_recipients set status = ${status}, updated_at = now(), retry_at = null
            where broadcast_id = ${broadcast.id} and contact_id = any(${sql.param(ids)}::bigint[])
              and status in ('pending', 'sending') returning contact_id`,
        );
        return res.rows.length;
      };
      let removedN = 0;
      if (removed.length) {
        const res = await tx.execute(
          sql`update broadcast_recipients r set status = 'removed', reason = v.reason, address = v.address,
              basis = v.basis, updated_at = now()
            from unnest(${sql.param(removed.map((x) => x.id))}::bigint[], ${sql.param(removed.map((x) => x.reason))}::text[],
              ${sql.param(removed.map((x) => x.address))}::text[], ${sql.param(removed.map((x) => x.basis))}::text[])
              as v(id, reason, address, basis)
            where r.broadcast_id = ${broadcast.id} and r.contact_id = v.id and r.status in ('pending', 'sending')
            returning r.contact_id`,
        );
        removedN = res.rows.length;
      }
      const sentN = await moved(sent, 'sent');
      const failedN = await moved(failed, 'failed');
      if (retry.length) {
        await tx.execute(
          sql`update broadcast_recipients r set status = 'pending', retry_at = v.at, updated_at = now()
            from unnest(${sql.param(retry.map((x) => x.id))}::bigint[], ${sql.param(retry.map((x) => x.at.toISOString()))}::timestamptz[])
              as v(id, at)
            where r.broadcast_id = ${broadcast.id} and r.contact_id = v.id and r.status in ('pending', 'sending')`,
        );
      }
      if (waiting.length) {
        // Not an attempt: the answer is pending with the provider (asked again in a few seconds), or the channel
        // holds the recipient until a time (a text in the recipient's quiet hours waits for their morning).
        await tx.execute(
          sql`update broadcast_recipients r set status = 'pending', attempts = greatest(0, attempts - 1),
              retry_at = v.at, updated_at = now()
            from unnest(${sql.param(waiting.map((x) => x.id))}::bigint[], ${sql.param(waiting.map((x) => x.at))}::timestamptz[])
              as v(id, at)
            where r.broadcast_id = ${broadcast.id} and r.contact_id = v.id and r.status in ('pending', 'sending')`,
        );
      }
      await tx.execute(
        sql`update broadcasts set sent = sent + ${sentN}, removed = removed + ${removedN}, failed = failed + ${failedN}
          where id = ${broadcast.id}`,
      );
    });
  }
}

function toRow(r: Record<string, unknown>): BroadcastRow {
  const date = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string));
  return {
    id: Number(r.id),
    companyId: Number(r.company_id),
    userId: Number(r.user_id),
    channel: String(r.channel),
    status: String(r.status),
    purpose: String(r.purpose),
    products: (r.products as string[]) ?? [],
    content: (typeof r.content === 'string' ? JSON.parse(r.content) : r.content) as Record<string, unknown>,
    title: String(r.title),
    triggerId: r.trigger_id === null ? null : Number(r.trigger_id),
    selection: (typeof r.selection === 'string' ? JSON.parse(r.selection) : r.selection) as Record<string, unknown>,
    sendAt: date(r.send_at),
    total: Number(r.total),
    sent: Number(r.sent),
    removed: Number(r.removed),
    failed: Number(r.failed),
    fingerprint: (r.fingerprint as string) ?? null,
    dedupeKey: (r.dedupe_key as string) ?? null,
    error: (r.error as string) ?? null,
    createdAt: date(r.created_at)!,
    startedAt: date(r.started_at),
    finishedAt: date(r.finished_at),
    cancelledAt: date(r.cancelled_at),
    cancelledBy: r.cancelled_by === null ? null : Number(r.cancelled_by),
  };
}

function sleep(ms: number, signal: AbortSignal) {
  return new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(t);
        reject(new Error('stopped'));
      },
      { once: true },
    );
  });
}
