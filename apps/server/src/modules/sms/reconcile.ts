/**
 * Texts left `sending` (docs/decisions/sms-interrupted-sends.md): the process died, or no answer came back, between
 * asking the carrier and hearing from it. Nothing here sends a text the carrier may already have: a row is only
 * sent again once the carrier has said it does not have it.
 *   - with a sid (the carrier took it, its status callbacks were lost): the carrier's status is fetched and the row
 *     moved forward to it;
 *   - without one: the carrier's messages from our number to theirs since the hand-off are listed; one with the same
 *     body that no other row holds is adopted (its sid stored, its status taken); none: the carrier never took it,
 *     and it goes back to `queued` (one debit stays: the key `sms:<id>` pays once): a broadcast's own job hands it
 *     over again (asking consent per batch, as always); any other text is handed over here after consent is asked
 *     again, or fails when the person opted out meanwhile. A text failed here was never taken: refunded (refund.ts).
 * The `sms.reconcile` job runs every minute over rows older than SMS_RECONCILE_AFTER_MS (5 minutes); the broadcast
 * channel reconciles a stale row of its own at once.
 */
import { sql } from 'drizzle-orm';
import type { CarrierMessage } from '../../integrations/twilio/messaging.js';
import { advanceStatus } from '../../platform/db/status-rank.js';
import type { Deps } from '../../platform/deps.js';
import { checkConsent } from '../consent/index.js';
import { rowsOf } from '../contacts/list-scope.js';
import { carrierErrorLabel } from './inbound.js';
import { failUntaken } from './refund.js';
import { handToCarrier } from './send.js';
import { SMS_RANK } from './store.js';

export const SMS_RECONCILE_JOB = 'sms.reconcile';
/** The carrier's clock and ours may differ: look this much before the hand-off. */
const SKEW_MS = 60_000;
/** Hand-offs a text gets before a row the carrier never took is given up (failed) rather than sent again. */
const MAX_ATTEMPTS = 6;

interface Row {
  id: number;
  company_id: number;
  contact_id: number | null;
  user_id: number | null;
  broadcast_id: number | null;
  consent_basis: string | null;
  from_phone: string;
  to_phone: string;
  body: string;
  sid: string | null;
  send_attempts: number;
  updated_at: string;
}

export type Reconciled = 'adopted' | 'advanced' | 'requeued' | 'resent' | 'failed' | 'unchanged';

/** Moves the row to what the carrier says of the message (forward only), with its error code. */
async function follow(deps: Deps, row: Row, m: CarrierMessage) {
  if (SMS_RANK.rank(m.status) <= SMS_RANK.rank('sending')) return false;
  return advanceStatus(deps.database.db, {
    table: 'sms_messages',
    id: row.id,
    rank: SMS_RANK,
    to: m.status,
    set: {
      updated_at: new Date(),
      ...(m.errorCode ? { error_code: m.errorCode, error_message: carrierErrorLabel(m.errorCode) } : {}),
    },
  });
}

/** Settles one `sending` row with the carrier; answers what it did. */
export async function reconcileMessage(deps: Deps, id: number): Promise<Reconciled> {
  const db = deps.database.db;
  const [row] = await rowsOf<Row>(
    db,
    sql`select id, company_id, contact_id, user_id, broadcast_id, consent_basis, from_phone, to_phone, body, sid,
        send_attempts, updated_at from sms_messages where id = ${id} and status = 'sending' and direction = 'outbound'`,
  );
  if (!row) return 'unchanged';
  const port = deps.messaging.port;
  if (row.sid) {
    const m = await port.fetchMessage(row.sid);
    if (!m) {
      await db.execute(
        sql`update sms_messages set status = 'failed', error_message = 'The carrier no longer knows this message',
          updated_at = now() where id = ${id} and status = 'sending'`,
      );
      return 'failed';
    }
    return (await follow(deps, row, m)) ? 'advanced' : 'unchanged';
  }
  const since = new Date(new Date(row.updated_at).getTime() - SKEW_MS);
  const found = await port.findMessages({ to: `+${row.to_phone}`, from: `+${row.from_phone}`, since });
  // Oldest first: two cut-off rows with the same text to the same person take the carrier's messages in order.
  for (const m of found.filter((x) => x.body === row.body).sort((a, b) => +a.createdAt - +b.createdAt)) {
    const [adopted] = await rowsOf<{ id: number }>(
      db,
      sql`update sms_messages set sid = ${m.sid}, error_message = null, updated_at = now()
        where id = ${id} and sid is null and status = 'sending'
          and not exists (select 1 from sms_messages o where o.sid = ${m.sid}) returning id`,
    );
    if (!adopted) continue;
    await follow(deps, row, m);
    return 'adopted';
  }
  // The carrier never took it.
  if (Number(row.send_attempts) >= MAX_ATTEMPTS) {
    return (await failUntaken(deps, id, { message: 'The carrier never took this text' })) ? 'failed' : 'unchanged';
  }
  if (row.contact_id && !row.broadcast_id && !row.consent_basis?.startsWith('confirm:')) {
    const [verdict] = await checkConsent(db, {
      companyId: Number(row.company_id),
      channel: 'sms',
      purpose: 'conversation',
      senderId: row.user_id ?? undefined,
      contactIds: [Number(row.contact_id)],
    });
    if (!verdict?.allowed) {
      const message = `Not sent: the contact cannot be texted now (${verdict?.reason ?? 'no record'})`;
      return (await failUntaken(deps, id, { message })) ? 'failed' : 'unchanged';
    }
  }
  const [back] = await rowsOf<{ id: number }>(
    db,
    sql`update sms_messages set status = 'queued', updated_at = now() where id = ${id} and status = 'sending' and sid is null
      returning id`,
  );
  if (!back) return 'unchanged';
  if (row.broadcast_id) return 'requeued';
  await handToCarrier(deps, id);
  return 'resent';
}

/** Every outbound text `sending` for longer than `olderThanMs` (oldest first, up to `limit`): settled one by one. */
export async function reconcileStale(deps: Deps, opts: { olderThanMs?: number; limit?: number } = {}) {
  const older = opts.olderThanMs ?? deps.config.sms.reconcileAfterMs;
  const rows = await rowsOf<{ id: number }>(
    deps.database.db,
    sql`select id from sms_messages where status = 'sending' and direction = 'outbound'
      and updated_at < now() - make_interval(secs => ${older / 1000}) order by updated_at limit ${opts.limit ?? 500}`,
  );
  const out: Record<Reconciled, number> = { adopted: 0, advanced: 0, requeued: 0, resent: 0, failed: 0, unchanged: 0 };
  for (const r of rows) out[await reconcileMessage(deps, Number(r.id))]++;
  return out;
}
