/**
 * The carrier's status callbacks of a drained batch in one statement (the webhook ingress hands them over
 * together): each message moves to the highest status among its callbacks, only forward (SMS_RANK; among terminal
 * statuses, which share a rank, the first received wins, as one by one), with the carrier's error code; a 30006
 * records the number as a landline; callbacks for a sid not stored yet (the callback overtook the send's reply)
 * are handed back to be tried again shortly. Exactly once comes from the ingress: each (sid, status) is stored once
 * and marked processed in this transaction. The per-event `statusHandler` (inbound.ts) does the same for one.
 */
import type { SmsStatus } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import type { BatchResult, StoredWebhookEvent } from '../../platform/webhooks/ingress.js';
import { rowsOf } from '../contacts/list-scope.js';
import { carrierErrorLabel } from './inbound.js';
import { publishSms, SMS_RANK } from './store.js';

/** A callback for an unknown sid is tried again for this long (the reconciler adopts cut-off sends within minutes). */
const UNKNOWN_SID_GRACE_MS = 10 * 60_000;

interface Moved {
  kind: 'moved' | 'unknown';
  id: number | null;
  user_id: number | null;
  contact_id: number | null;
  status: SmsStatus | null;
  error_code: number | null;
  error_message: string | null;
  row: number | null;
}

export function statusBatchHandler(deps: Deps) {
  return async (events: StoredWebhookEvent[], tx: Db): Promise<BatchResult> => {
    const input: Array<Record<string, unknown>> = [];
    const received = new Map<number, number>();
    for (const e of events) {
      const p = e.payload as Record<string, string>;
      const status = String(p.MessageStatus ?? p.SmsStatus ?? '');
      const rank = SMS_RANK.rank(status);
      if (rank < 0) continue; // accepted, scheduled, read...: nothing we track
      const code = p.ErrorCode ? Number(p.ErrorCode) || null : null;
      input.push({
        row: e.rowId,
        sid: String(p.MessageSid ?? ''),
        status,
        rank,
        code,
        label: code && carrierErrorLabel(code),
      });
      received.set(e.rowId, e.receivedAt.getTime());
    }
    if (!input.length) return {};
    const rows = await rowsOf<Moved>(
      tx,
      sql`with i as (
            select * from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
              as i(row bigint, sid text, status text, rank int, code int, label text)),
          best as (select distinct on (sid) * from i order by sid, rank desc, row),
          upd as (
            update sms_messages m set status = b.status, updated_at = now(),
              error_code = coalesce(b.code, m.error_code),
              error_message = case when b.code is null then m.error_message else b.label end
            from best b where m.sid = b.sid and ${SMS_RANK.rankSql(sql`m.status`)} < b.rank
            returning m.id, m.company_id, m.user_id, m.contact_id, m.to_phone, m.status, m.error_code,
              m.error_message, b.code as new_code),
          landline as (
            insert into phone_verifications (company_id, user_id, contact_id, phone, line_type, carrier)
            select company_id, user_id, contact_id, to_phone, 'landline', null from upd where new_code = 30006)
          select 'moved' as kind, id::bigint, user_id::int, contact_id::bigint, status, error_code, error_message,
            null::bigint as row from upd
          union all
          select 'unknown', null, null, null, null, null, null, i.row from i
            where not exists (select 1 from sms_messages m where m.sid = i.sid)`,
    );
    const failed = new Map<number, string>();
    const now = Date.now();
    for (const r of rows) {
      const row = Number(r.row);
      if (r.kind === 'unknown' && now - (received.get(row) ?? 0) < UNKNOWN_SID_GRACE_MS) {
        failed.set(row, 'MessageSid is not stored yet');
      }
    }
    const moved = rows.filter((r) => r.kind === 'moved');
    return {
      failed,
      // Published once committed, from what the statement returned: no read again.
      afterCommit: () => {
        for (const m of moved) {
          const message = {
            type: 'sms_status' as const,
            id: Number(m.id),
            contact_id: m.contact_id == null ? null : Number(m.contact_id),
            status: m.status as SmsStatus,
            error_code: m.error_code == null ? null : Number(m.error_code),
            error_message: m.error_message,
          };
          publishSms(deps, [m.user_id == null ? null : Number(m.user_id)], async () => message);
        }
      },
    };
  };
}
