/**
 * Transfers' live notifications, the first user of the domain-event outbox: when an attempt finishes, fails or is
 * reverted, the job records `transfer.attempt_changed` in the same transaction; this subscriber tells the person who
 * started it, on their NotificationsChannel, in the shared shape the browser parses (TransferAttemptMessage). The
 * message is built from the attempt as it is when delivered, so a late or repeated delivery still says the truth.
 */
import { NOTIFICATIONS_CHANNEL, type TransferAttemptMessage } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../platform/db/client.js';
import { defineEvent, recordEvent } from '../../platform/events/outbox.js';
import { userStream } from '../../platform/live/channels.js';
import { publishLive } from '../../platform/live/publish.js';
import { rowsOf } from '../contacts/list-scope.js';

export const TransferAttemptChanged = defineEvent(
  'transfer.attempt_changed',
  z.object({ attempt_id: z.number().int().positive() }),
);

export async function recordTransferChange(tx: Db, a: { id: number; company_id: number }, actorId: number | null) {
  await recordEvent(tx, TransferAttemptChanged, {
    companyId: a.company_id,
    actorId,
    payload: { attempt_id: a.id },
  });
}

interface Current {
  /** The company's own transfer number: what people see and the page's ?attempt= names. */
  id: number;
  created_by: number | null;
  status: TransferAttemptMessage['status'];
  reverting: boolean;
  reverted: boolean;
  processed: number;
  total: number;
  error: string | null;
  target: string | null;
}

const plural = (n: number) => `${n.toLocaleString('en-US')} contact${n === 1 ? '' : 's'}`;

export function transferMessage(a: Current): TransferAttemptMessage {
  const to = a.target ?? 'the new owner';
  const base = {
    type: 'transfer_attempt' as const,
    id: a.id,
    status: a.status,
    reverting: a.reverting,
    reverted: a.reverted,
    processed: a.processed,
    total: a.total,
    link: `/contacts/transfers?attempt=${a.id}`,
  };
  if (a.reverted) {
    return { ...base, title: 'Transfer reverted', body: `Transfer #${a.id}: contacts moved back from ${to}.` };
  }
  if (a.error?.startsWith('revert failed')) {
    return { ...base, title: 'Revert failed', body: `Transfer #${a.id} could not be reverted: ${a.error}` };
  }
  if (a.status === 'failed') {
    return {
      ...base,
      title: 'Transfer failed',
      body: `${plural(a.processed)} of ${a.total.toLocaleString('en-US')} moved to ${to} before it stopped. Resume or revert it.`,
    };
  }
  return { ...base, title: 'Transfer complete', body: `${plural(a.processed)} moved to ${to}.` };
}

export function registerTransferLive(app: FastifyInstance) {
  const { events, bus } = app.deps;
  events.subscribe(TransferAttemptChanged, 'transfers.notify_starter', async (e, tx) => {
    const [a] = await rowsOf<Current>(
      tx,
      sql`select a.number as id, a.created_by, a.status, a.reverting, a.reverted, a.processed, a.total, a.error,
            coalesce(nullif(trim(concat_ws(' ', u.first_name, u.last_name)), ''), 'Pool: ' || p.name) as target
          from transfer_attempts a
          left join users u on u.id = a.to_user_id
          left join pools p on p.id = a.to_pool_id
          where a.id = ${e.payload.attempt_id} and a.company_id = ${e.companyId}`,
    );
    if (!a?.created_by) return;
    const current = { ...a, processed: Number(a.processed), total: Number(a.total) };
    await publishLive(bus, NOTIFICATIONS_CHANNEL, userStream(Number(a.created_by)), transferMessage(current));
  });
}
