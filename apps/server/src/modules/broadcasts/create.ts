/**
 * Creating a broadcast: the preview (who would receive it, who is removed and why) and the snapshot of recipients,
 * taken in the request's transaction together with the broadcast row and its durable job, so an accepted broadcast
 * exists whole or not at all. The sending is the job's (job.ts).
 */
import crypto from 'node:crypto';
import {
  type BroadcastChannel,
  type BroadcastPreview,
  type ConsentPurpose,
  REMOVAL_REASONS,
  type RemovalReason,
  removalReasonLabel,
} from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import { affectedRows, type Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { conflict, invalid } from '../../platform/http/errors.js';
import { consentRowsSql, countConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { resolveSelection, type SelectionBody } from '../contacts/selection.js';
import { BROADCAST_JOB } from './job.js';
import { type BroadcastRow, broadcasts } from './schema.js';

/** A second identical broadcast within this window is taken for a second click. */
export const DUPLICATE_WINDOW_MINUTES = 10;

export interface BroadcastAsk {
  channel: BroadcastChannel;
  purpose: ConsentPurpose;
  products?: readonly string[];
}

export function removedList(counts: Partial<Record<RemovalReason, number>>, channel: BroadcastChannel) {
  return REMOVAL_REASONS.filter((r) => counts[r]).map((reason) => ({
    reason,
    label: removalReasonLabel(reason, channel),
    count: counts[reason] ?? 0,
  }));
}

export async function previewBroadcast(
  db: Db,
  auth: AuthContext,
  body: SelectionBody & BroadcastAsk,
): Promise<BroadcastPreview> {
  const sel = await resolveSelection(db, auth, body);
  const ask = {
    companyId: auth.company.id,
    channel: body.channel,
    purpose: body.purpose,
    senderId: auth.user.id,
    products: body.products,
  };
  const { allowed, removed } = await countConsent(db, ask, sel.idsSql);
  const sample = await rowsOf<{ id: number; number: number; name: string; reason: RemovalReason }>(
    db,
    sql`select c.id, c.number, nullif(trim(c.first_name || ' ' || c.last_name), '') as name, v.reason
      from (${consentRowsSql(ask, sel.idsSql)}) v join contacts c on c.id = v.contact_id
      where v.reason is not null order by c.last_name, c.first_name, c.id limit 20`,
  );
  const total = allowed + Object.values(removed).reduce((a, b) => a + (b ?? 0), 0);
  return {
    channel: body.channel,
    total,
    receive: allowed,
    removed: removedList(removed, body.channel),
    removed_sample: sample.map((r) => ({
      id: Number(r.id),
      number: Number(r.number),
      name: r.name ?? `Contact #${r.number}`,
      reason: r.reason,
      label: removalReasonLabel(r.reason, body.channel),
    })),
  };
}

export interface NewBroadcast extends BroadcastAsk {
  companyId: number;
  userId: number;
  content: Record<string, unknown>;
  title: string;
  triggerId?: number | null;
  /** Not before this time; null or absent: now. */
  sendAt?: Date | null;
  /** The selection as given, for the record. */
  selection: Record<string, unknown>;
  /** Yields `contact_id` and `sender_id` for every recipient (already within the caller's reach). */
  recipientsSql: SQL;
  /** Refuse a second identical broadcast (a second click) within DUPLICATE_WINDOW_MINUTES. */
  fingerprint?: string;
  /** At most one broadcast per key and company (a campaign trigger's run of a day). */
  dedupeKey?: string;
}

/** A user's broadcast over their selection: the recipients are the contacts they chose, within their reach. */
export async function selectionRecipients(db: Db, auth: AuthContext, body: SelectionBody) {
  const sel = await resolveSelection(db, auth, body);
  return {
    recipientsSql: sql`select s.id as contact_id, ${auth.user.id}::int as sender_id from (${sel.idsSql}) s`,
    selection: sel.describe,
  };
}

export function fingerprintOf(parts: Record<string, unknown>) {
  return crypto.createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/**
 * Inserts the broadcast, its recipients and its job in one transaction. Answers null when `dedupeKey` already ran
 * (a trigger's day), 409 on a second click.
 */
export async function createBroadcast(deps: Deps, b: NewBroadcast): Promise<BroadcastRow | null> {
  if (b.sendAt && b.sendAt.getTime() < Date.now() - 60_000) throw invalid('send_at', 'is in the past');
  const db = deps.database.db;
  let jobId = 0;
  const row = await db.transaction(async (tx) => {
    if (b.fingerprint) {
      // Two clicks arriving together: the second waits for the first's commit, then finds it.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`broadcast:${b.fingerprint}`}))`);
      const [dup] = await rowsOf<{ id: number; created_at: string }>(
        tx,
        sql`select id, created_at from broadcasts where company_id = ${b.companyId} and fingerprint = ${b.fingerprint}
          and status <> 'cancelled' and created_at > now() - make_interval(mins => ${DUPLICATE_WINDOW_MINUTES})
          order by id desc limit 1`,
      );
      if (dup) {
        throw conflict(
          'broadcast',
          `This broadcast was already sent to these contacts a moment ago (broadcast #${dup.id}); it goes out once.`,
        );
      }
    }
    const [inserted] = await tx
      .insert(broadcasts)
      .values({
        companyId: b.companyId,
        userId: b.userId,
        channel: b.channel,
        purpose: b.purpose,
        products: [...(b.products ?? [])],
        content: b.content,
        title: b.title,
        triggerId: b.triggerId ?? null,
        selection: b.selection,
        sendAt: b.sendAt ?? null,
        fingerprint: b.fingerprint ?? null,
        dedupeKey: b.dedupeKey ?? null,
      })
      .onConflictDoNothing()
      .returning();
    if (!inserted) return null;
    // One row per contact: `distinct on` rather than `on conflict do nothing`, which checked each of 100,000 rows
    // against the index it had just written (~0.12 s more in the request, bench/README.md). The count from the
    // command's row count, not from returning every row.
    const res = await tx.execute(
      sql`insert into broadcast_recipients (broadcast_id, contact_id, sender_id)
        select distinct on (r.contact_id) ${inserted.id}::bigint, r.contact_id, r.sender_id from (${b.recipientsSql}) r`,
    );
    const n = affectedRows(res);
    if (n === 0) throw invalid('ids', 'the selection has no contacts');
    const [final] = await tx.update(broadcasts).set({ total: n }).where(sql`id = ${inserted.id}`).returning();
    jobId = await deps.jobs.enqueue(
      BROADCAST_JOB,
      { id: inserted.id },
      {
        db: tx,
        companyId: b.companyId,
        uniqueKey: `broadcast:${inserted.id}`,
        runAt: b.sendAt ?? undefined,
        // A broadcast resumes from its rows; give it room to survive several restarts.
        maxAttempts: 25,
      },
    );
    return final;
  });
  if (jobId) deps.jobs.poke(jobId);
  return row;
}
