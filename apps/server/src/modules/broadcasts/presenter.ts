/** The only shape of a broadcast that leaves the server (Broadcast of @harbor/shared), and who may see one. */
import { type Broadcast, type BroadcastChannel, type RemovalReason, removalReasonLabel } from '@harbor/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/auth/context.js';
import type { Db } from '../../platform/db/client.js';
import { notFound } from '../../platform/http/errors.js';
import { reachesUserSql } from '../../platform/reach.js';
import { rowsOf } from '../contacts/list-scope.js';

/** Each person hears their own broadcasts' progress on their own stream. */
export const broadcastStream = (userId: number) => `user:${userId}:broadcasts`;

export type RawBroadcast = Record<string, unknown> & { id: number; user_id: number };

const select = sql`select b.*, nullif(trim(u.first_name || ' ' || u.last_name), '') as user_name, t.name as trigger_name,
    coalesce((select jsonb_object_agg(x.reason, x.n) from (select r.reason, count(*)::int as n from broadcast_recipients r
      where r.broadcast_id = b.id and r.status = 'removed' group by r.reason) x), '{}'::jsonb) as removed_reasons
  from broadcasts b join users u on u.id = b.user_id left join campaign_triggers t on t.id = b.trigger_id`;

/** A broadcast the caller may see: their own, or one sent by a user they reach (managers, admins). */
export const visibleBroadcastSql = (auth: AuthContext): SQL =>
  sql`b.company_id = ${auth.company.id} and (b.user_id = ${auth.user.id} or ${reachesUserSql(auth, sql`b.user_id`)})`;

export async function loadBroadcast(db: Db, id: number, auth?: AuthContext): Promise<RawBroadcast | null> {
  const [row] = await rowsOf<RawBroadcast>(
    db,
    sql`${select} where b.id = ${id} ${auth ? sql`and ${visibleBroadcastSql(auth)}` : sql``}`,
  );
  return row ?? null;
}

export async function mustLoadBroadcast(db: Db, id: number, auth: AuthContext) {
  const row = await loadBroadcast(db, id, auth);
  if (!row) throw notFound('broadcast');
  return row;
}

export async function listBroadcasts(db: Db, where: SQL, limit: number, offset: number) {
  return rowsOf<RawBroadcast>(db, sql`${select} where ${where} order by b.id desc limit ${limit} offset ${offset}`);
}

const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(v as string).toISOString());

export function presentBroadcast(b: RawBroadcast): Broadcast {
  const channel = b.channel as BroadcastChannel;
  const reasons = (typeof b.removed_reasons === 'string' ? JSON.parse(b.removed_reasons) : b.removed_reasons) as Record<
    RemovalReason,
    number
  >;
  const sent = Number(b.sent);
  const removed = Number(b.removed);
  const failed = Number(b.failed);
  return {
    id: Number(b.id),
    channel,
    status: b.status as Broadcast['status'],
    title: String(b.title),
    user: { id: Number(b.user_id), name: String(b.user_name ?? 'A user') },
    trigger: b.trigger_id ? { id: Number(b.trigger_id), name: String(b.trigger_name ?? 'Campaign trigger') } : null,
    send_at: iso(b.send_at),
    total: Number(b.total),
    processed: sent + removed + failed,
    sent,
    removed,
    failed,
    removed_reasons: Object.entries(reasons ?? {}).map(([reason, count]) => ({
      reason: reason as RemovalReason,
      label: removalReasonLabel(reason as RemovalReason, channel),
      count: Number(count),
    })),
    created_at: iso(b.created_at)!,
    started_at: iso(b.started_at),
    finished_at: iso(b.finished_at),
    cancelled_at: iso(b.cancelled_at),
  };
}
