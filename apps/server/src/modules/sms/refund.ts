/**
 * A text the carrier never took gets its money back (docs/decisions/sms-refunds.md): when a send ends `failed`
 * without a carrier sid (the carrier refused it, or the reconciler found it never had it), the row is failed, its
 * debit reversed on the ledger (key `reversal:sms:<id>`), its plan units released and `refunded_cents` set, all in
 * one transaction, so the money comes back exactly once or the text is not failed at all. A text the carrier took
 * (it has a sid) keeps its charge whatever the carrier reports later: carriers bill those.
 */
import { formatPhone } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Deps } from '../../platform/deps.js';
import { rowsOf } from '../contacts/list-scope.js';
import { releaseUsage } from '../usage-plans/enforcement.js';
import { reverseUsageWithin } from '../wallet/usage.js';

/**
 * Fails a text still `sending` without a sid and refunds it. Answers false, changing nothing, when the row is no
 * longer that (someone else settled it meanwhile).
 */
export async function failUntaken(deps: Deps, id: number, why: { message: string; code?: number | null }) {
  return deps.database.db.transaction(async (tx) => {
    const [m] = await rowsOf<{ company_id: number; user_id: number | null; to_phone: string; charged_cents: number }>(
      tx,
      sql`update sms_messages set status = 'failed', error_code = ${why.code ?? null}, error_message = ${why.message},
            updated_at = now()
          where id = ${id} and status = 'sending' and sid is null
          returning company_id, user_id, to_phone, charged_cents`,
    );
    if (!m) return false;
    if (Number(m.charged_cents) > 0) {
      const companyId = Number(m.company_id);
      const back = await reverseUsageWithin(deps, tx, {
        companyId,
        idempotencyKey: `sms:${id}`,
        description: `Refund: text to ${formatPhone(m.to_phone)} not sent`,
        actorId: m.user_id == null ? null : Number(m.user_id),
      });
      if (back.status !== 'not_charged') {
        await tx.execute(sql`update sms_messages set refunded_cents = ${back.amount} where id = ${id}`);
      }
      await releaseUsage(tx, { companyId, kind: 'sms', ref: `msg:${id}` });
    }
    return true;
  });
}
