/**
 * The Harbor account plan that makes a person paid (`paid_user?`; docs/decisions/account-billing.md): the card on
 * file, choosing a plan (charged by card; paid once the processor's webhook says so), cancelling (runs to the end of
 * the paid month), the state GET /v1/accounts/info answers, and the billing history of every card charge.
 */
import { ACCOUNT_PLANS, type AccountPlanId, CARD_BRAND_LABELS, type ConnectCardBody } from '@harbor/shared';
import { sql } from 'drizzle-orm';
import { StripeApiError } from '../../integrations/stripe/loopback-state.js';
import { ProcessorUnavailable } from '../../integrations/stripe/payments.js';
import type { AuthContext } from '../../platform/auth/context.js';
import { invalidateAuth } from '../../platform/auth/invalidation.js';
import type { Db } from '../../platform/db/client.js';
import type { Deps } from '../../platform/deps.js';
import { conflict, HttpError, invalid } from '../../platform/http/errors.js';
import { type ChargeRow, cardOnFile, onCharge, presentCharge, requireCard, startCharge } from './charges.js';
import { endAccountPlans } from './renewal.js';

export const planList = () =>
  (Object.keys(ACCOUNT_PLANS) as AccountPlanId[]).map((id) => ({
    id,
    name: ACCOUNT_PLANS[id].name,
    price: ACCOUNT_PLANS[id].price,
    interval: 'month' as const,
    features: ACCOUNT_PLANS[id].features,
  }));

type SubRow = Record<string, unknown>;
const iso = (v: unknown) => (v ? new Date(v as string).toISOString() : null);

async function liveSubscription(db: Db, userId: number): Promise<SubRow | null> {
  const res = await db.execute<SubRow>(
    sql`select * from account_subscriptions where user_id = ${userId}
        order by (status in ('pending', 'active', 'cancelled')) desc, id desc limit 1`,
  );
  return res.rows[0] ?? null;
}

function presentSubscription(s: SubRow) {
  const plan = String(s.plan) as AccountPlanId;
  return {
    id: Number(s.id),
    plan,
    plan_name: ACCOUNT_PLANS[plan]?.name ?? plan,
    price: Number(s.price),
    status: String(s.status),
    current_period_end: iso(s.current_period_end),
    cancelled_at: iso(s.cancelled_at),
    failure_message: (s.failure_message as string | null) ?? null,
  };
}

export async function accountInfo(db: Db, auth: AuthContext) {
  // The subscription before the user: the webhook commits both in one transaction, so a statement that reads the
  // user after seeing the active subscription sees it paid (read the other way round, a commit in between showed an
  // active plan on an unpaid account).
  const sub = await liveSubscription(db, auth.user.id);
  const user = (await db.execute<{ paid: boolean }>(sql`select paid from users where id = ${auth.user.id}`)).rows[0];
  const card = await cardOnFile(db, auth.user.id);
  // The session cache may still hold the user from before a webhook made them paid: the next request reads anew.
  if (Boolean(user?.paid) !== Boolean(auth.user.paid)) invalidateAuth({ users: [auth.user.id] });
  const live = sub && ['pending', 'active', 'cancelled'].includes(String(sub.status)) ? sub : null;
  return {
    info: {
      paid: Boolean(user?.paid),
      company: auth.company.name,
      subscription: sub ? presentSubscription(sub) : null,
    },
    plans: planList(),
    payment_infos: card
      ? [{ brand: card.brand, last4: card.last4, exp_month: Number(card.exp_month), exp_year: Number(card.exp_year) }]
      : [],
    chosen_plan: live ? (String(live.plan) as AccountPlanId) : null,
  };
}

const ACCEPTED = Object.keys(CARD_BRAND_LABELS);

/** Keeps a card on file: the form's fields go to the processor in memory (never stored), or a processor card id. */
export async function connectCard(deps: Deps, auth: AuthContext, body: ConnectCardBody) {
  let pmId: string;
  if ('number' in body) {
    const loopback = deps.payments.loopback;
    if (!loopback) throw invalid('number', "Card numbers are entered in the processor's own form here.");
    try {
      pmId = loopback.tokenize(body).id;
    } catch (err) {
      if (err instanceof StripeApiError) {
        const p = err.body.param;
        throw invalid(p === 'exp_month' || p === 'exp_year' ? 'expiry' : p === 'cvc' ? 'cvc' : 'number', err.message);
      }
      throw err;
    }
  } else pmId = body.payment_method_id;
  let card: Awaited<ReturnType<Deps['payments']['paymentMethod']>>;
  try {
    card = await deps.payments.paymentMethod(pmId);
  } catch (err) {
    if (err instanceof ProcessorUnavailable) throw new HttpError(503, { card: ['The card processor did not answer.'] });
    throw err;
  }
  if (!card) throw invalid('payment_method_id', 'is not a card of the processor');
  if (!ACCEPTED.includes(card.brand)) {
    throw invalid('number', 'We accept Visa, Mastercard, American Express and Discover.');
  }
  const existing = await cardOnFile(deps.database.db, auth.user.id);
  const customerId =
    existing?.processor_customer_id ??
    (await deps.payments.createCustomer({
      email: auth.user.email,
      name: `${auth.user.firstName} ${auth.user.lastName}`.trim(),
      metadata: { company_id: String(auth.company.id), user_id: String(auth.user.id) },
      idempotencyKey: `account-customer-${auth.user.id}`,
    }));
  await deps.database.db.execute(
    sql`insert into account_cards (user_id, company_id, processor_customer_id, payment_method_id, brand, last4,
          exp_month, exp_year)
        values (${auth.user.id}, ${auth.company.id}, ${customerId}, ${card.paymentMethodId}, ${card.brand}, ${card.last4},
                ${card.expMonth}, ${card.expYear})
        on conflict (user_id) do update set processor_customer_id = excluded.processor_customer_id,
          payment_method_id = excluded.payment_method_id, brand = excluded.brand, last4 = excluded.last4,
          exp_month = excluded.exp_month, exp_year = excluded.exp_year, updated_at = now()`,
  );
}

/**
 * Chooses a plan. Without a live subscription: a new one, charged now by card (202; paid once the webhook lands).
 * With one: the plan changes from the next month (a cancelled one is resumed), nothing is charged now.
 */
export async function updatePlan(deps: Deps, auth: AuthContext, plan: AccountPlanId, requestKey: string | null) {
  const db = deps.database.db;
  const sub = await liveSubscription(db, auth.user.id);
  const status = String(sub?.status ?? '');
  if (sub && status === 'pending') throw conflict('plan', 'A payment for your plan is still being processed.');
  if (sub && (status === 'active' || status === 'cancelled')) {
    if (status === 'active' && sub.plan === plan) throw invalid('plan', 'is already your plan.');
    await db.execute(
      sql`update account_subscriptions set plan = ${plan}, price = ${ACCOUNT_PLANS[plan].price}, status = 'active',
            cancelled_at = null, updated_at = now() where id = ${Number(sub.id)}`,
    );
    return { charged: false };
  }
  const card = await requireCard(db, auth.user.id);
  await startCharge(
    deps,
    {
      companyId: auth.company.id,
      userId: auth.user.id,
      kind: 'account_plan',
      amount: ACCOUNT_PLANS[plan].price,
      description: `Harbor ${ACCOUNT_PLANS[plan].name} plan, one month`,
      requestKey,
      card,
    },
    async (tx, chargeId) => {
      await tx.execute(
        sql`insert into account_subscriptions (company_id, user_id, plan, price, charge_id)
            values (${auth.company.id}, ${auth.user.id}, ${plan}, ${ACCOUNT_PLANS[plan].price}, ${chargeId})`,
      );
    },
  );
  return { charged: true };
}

/** Cancels the plan: it runs to the end of the paid month, then the account is unpaid (renewal job). */
export async function cancelPlan(db: Db, auth: AuthContext) {
  const sub = await liveSubscription(db, auth.user.id);
  if (sub?.status !== 'active') throw invalid('subscription', 'There is no active plan to cancel.');
  await db.execute(
    sql`update account_subscriptions set status = 'cancelled', cancelled_at = now(), updated_at = now()
        where id = ${Number(sub.id)}`,
  );
}

export async function billingHistory(db: Db, auth: AuthContext, q: { page: number; limit: number }) {
  const rows = await db.execute<ChargeRow & { total: number }>(
    sql`select *, count(*) over ()::int as total from card_charges where user_id = ${auth.user.id}
          and company_id = ${auth.company.id}
        order by id desc limit ${q.limit} offset ${(q.page - 1) * q.limit}`,
  );
  const total = Number(rows.rows[0]?.total ?? 0);
  return {
    data: rows.rows.map((r) =>
      presentCharge({
        ...r,
        id: Number(r.id),
        amount: Number(r.amount),
        refunded_amount: Number(r.refunded_amount),
      } as ChargeRow),
    ),
    meta: {
      current_page: q.page,
      limit: q.limit,
      total_count: total,
      total_pages: Math.max(1, Math.ceil(total / q.limit)),
    },
  };
}

/** A plan charge settled: paid starts (or extends) the month and makes the person paid; failed leaves them as they were. */
onCharge('account_plan', {
  async paid(tx, charge) {
    const res = await tx.execute<{ user_id: number }>(
      sql`update account_subscriptions set status = case when status = 'cancelled' then status else 'active' end,
            failure_message = null, updated_at = now(),
            current_period_end = greatest(coalesce(current_period_end, now()), now()) + interval '1 month'
          where charge_id = ${charge.id} and status in ('pending', 'active', 'cancelled') returning user_id`,
    );
    const ids = res.rows.map((r) => Number(r.user_id));
    if (ids.length) {
      await tx.execute(sql`update users set paid = true, updated_at = now() where id = any(${sql.param(ids)}::int[])`);
      invalidateAuth({ users: ids });
    }
  },
  async failed(tx, charge, message) {
    await tx.execute(
      sql`update account_subscriptions set status = 'failed', failure_message = ${message}, updated_at = now()
          where charge_id = ${charge.id} and status = 'pending'`,
    );
    // A renewal that failed: the plan ends and the person is unpaid.
    await endAccountPlans(tx, sql`charge_id = ${charge.id} and status = 'active'`);
  },
});
