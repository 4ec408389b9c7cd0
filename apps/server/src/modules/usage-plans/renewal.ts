/**
 * The `usage_plans.renew` job (every five minutes): subscriptions whose paid month ended either renew (a renewal
 * order charged to the wallet that pays for them: the owner's, or the company's) or end: cancelled when someone
 * cancelled them, expired when renewal was off or the wallet could not pay. Invoice subscriptions renew on the
 * contract (a renewal order settled by invoice) until an admin cancels them.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { ledgerOf } from '../wallet/service.js';
import { describeOrder, payerAccount } from './payment.js';
import type { Raw } from './presenters.js';

export const RENEW_JOB = 'usage_plans.renew';

const rows = async (db: Db, q: ReturnType<typeof sql>) => (await db.execute<Raw>(q)).rows;

export async function renewDue(deps: Deps, now = new Date()) {
  const db = deps.database.db;
  const out = { renewed: 0, ended: 0 };
  for (;;) {
    const due = await rows(
      db,
      sql`select id from plan_subscriptions where status = 'active' and current_period_end <= ${now.toISOString()}::timestamptz
          order by current_period_end, id limit 100`,
    );
    if (!due.length) return out;
    for (const d of due) {
      const r = await renewOne(deps, Number(d.id), now);
      out[r]++;
    }
  }
}

const ORDER_TYPE = (kind: unknown) => (kind === 'self' ? 'SelfPay' : 'ManagerPay');

async function renewOne(deps: Deps, id: number, now: Date): Promise<'renewed' | 'ended'> {
  const db = deps.database.db;
  const [s] = await rows(
    db,
    sql`select s.*, p.name as plan_name from plan_subscriptions s join usage_plans p on p.id = s.plan_id where s.id = ${id}`,
  );
  const end = async (status: 'cancelled' | 'expired') => {
    await db.execute(
      sql`update plan_subscriptions set status = ${status}, updated_at = now() where id = ${id} and status = 'active'`,
    );
    return 'ended' as const;
  };
  if (s.cancelled_at) return end('cancelled');
  if (!s.auto_renew) return end('expired');
  const amount = Number(s.price) * Number(s.seats);
  const method = String(s.payment_method);
  const fromWallet = method !== 'invoice' && amount > 0;
  const payer = fromWallet
    ? await payerAccount(
        deps,
        Number(s.company_id),
        method === 'company_wallet' ? 'company_wallet' : 'wallet',
        Number(s.owner_id),
      )
    : 0;
  const revenue = fromWallet ? await ledgerOf(deps).accounts.companyAccount(Number(s.company_id), 'revenue') : 0;
  const periodEnd = new Date(s.current_period_end as string);
  // A month from where the last one ended; after a long outage, a month from now (the gap is not charged).
  const start = new Date(Math.max(periodEnd.getTime(), now.getTime() - 24 * 3600 * 1000));
  return db.transaction(async (tx) => {
    const [locked] = await rows(
      tx,
      sql`select id from plan_subscriptions where id = ${id} and status = 'active'
          and current_period_end <= ${now.toISOString()}::timestamptz for update`,
    );
    if (!locked) return 'ended' as const; // another process renewed or ended it meanwhile
    const [order] = await rows(
      tx,
      sql`insert into plan_orders (company_id, product, subscription_id, order_type, kind, quantity, amount,
            payment_method, placed_by)
          values (${Number(s.company_id)}, ${String(s.product)}, ${id}, ${ORDER_TYPE(s.kind)}, 'renewal',
            ${Number(s.seats)}, ${amount}, ${method}, ${Number(s.owner_id)})
          returning id`,
    );
    const orderId = Number(order.id);
    let ledgerTx: number | null = null;
    if (fromWallet) {
      const [result] = await ledgerOf(deps).postWithin(tx, [
        {
          companyId: Number(s.company_id),
          key: `plan-order:${orderId}`,
          kind: 'usage',
          description: describeOrder(s.product as 'sms' | 'dialer', String(s.plan_name), Number(s.seats), 'renewal'),
          details: { plan_order: orderId, subscription_id: id },
          actorId: Number(s.owner_id),
          legs: [
            { accountId: payer, amount: -amount },
            { accountId: revenue, amount },
          ],
        },
      ]);
      if (result.status === 'refused') {
        await tx.execute(
          sql`update plan_orders set status = 'failed', updated_at = now(),
                failure_message = ${'The wallet could not pay the renewal.'} where id = ${orderId}`,
        );
        await tx.execute(sql`update plan_subscriptions set status = 'expired', updated_at = now() where id = ${id}`);
        return 'ended' as const;
      }
      if (result.status === 'posted' || result.status === 'replayed') ledgerTx = result.transactionId;
    }
    await tx.execute(
      sql`update plan_orders set status = 'paid', paid_at = now(), ledger_transaction_id = ${ledgerTx} where id = ${orderId}`,
    );
    await tx.execute(
      sql`update plan_subscriptions set current_period_start = ${start.toISOString()}::timestamptz,
            current_period_end = ${start.toISOString()}::timestamptz + interval '1 month', updated_at = now()
          where id = ${id}`,
    );
    return 'renewed' as const;
  });
}
