/**
 * What texting and the dialer ask of plans before and while they spend (the functions other areas call):
 *
 * - `dialerEnablement`: spec §4 "Dialer enablement", exactly: no forced password change, two-factor satisfied, a
 *   verified dialer number, and one of a paid licence of an active company or manager subscription, an active
 *   self-paid subscription, or `dialer_enabled` on the profile.
 * - `checkDialerQuota`: spec §5 quota check, before a call and at each started minute; `checkSmsAllocation`, the same
 *   rule for texts, per message (its segments).
 * - `recordUsage` / `recordUsageMany`: one record per sent segment or call minute, idempotent per `ref`; the checks
 *   read the month totals these keep.
 *
 * The wallet charges each unit (modules/wallet); these functions decide whether the unit may be spent at all and at
 * which price (`unitPrice`: the plan's, or null for the wallet's price list).
 */
import {
  type Coverage,
  DIALER_OK,
  OVER_MINUTES_ALLOCATED,
  type PlanProduct,
  QUOTA_MESSAGES,
  resolveFeatures,
} from '@harbor/shared';
import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.js';
import { executeNamed } from '../../platform/db/named.js';
import { coverageFromRow, coverageOf, coverageSql, monthOf } from './coverage.js';

export type UsageKind = 'sms' | 'voice';
const PRODUCT_OF: Record<UsageKind, PlanProduct> = { sms: 'sms', voice: 'dialer' };

export const OVER_MESSAGES_ALLOCATED = 'Over messages allocated';
export const NO_PLAN = 'No plan';
export const NO_PLAN_MESSAGES: Record<PlanProduct, string> = {
  dialer: 'You need a dialer plan: subscribe on the Plans page, or ask your manager for a licence.',
  sms: 'You need a texting plan: subscribe on the Plans page, or ask your manager for a licence.',
};

export type DialerBlock = 'change_password' | 'two_factor' | 'verified_number' | 'plan' | 'licence_unpaid';
export const DIALER_BLOCK_MESSAGES: Record<DialerBlock, string> = {
  change_password: 'Change your temporary password first.',
  two_factor: 'Turn on two-factor sign-in first.',
  verified_number: 'Verify a phone number for the dialer first.',
  plan: NO_PLAN_MESSAGES.dialer,
  licence_unpaid: 'Your dialer licence is not paid yet.',
};

export interface DialerEnablement {
  enabled: boolean;
  /** Why not, in the order a person fixes them; empty when enabled. */
  reasons: DialerBlock[];
  messages: string[];
  /** dialer_enabled on the profile: enabled without a plan, and the quota check passes (§5). */
  dialerEnabled: boolean;
  coverage: Coverage | null;
}

type Row = Record<string, unknown>;

/** The flags of spec §4 from a row of `dialerEnablement`'s statement; null: not (or no longer) of the company. */
function userFlags(r: Row | undefined) {
  if (!r) return null;
  const features = resolveFeatures(
    (r.company_features ?? {}) as Record<string, boolean>,
    (r.user_features ?? {}) as Record<string, boolean>,
  );
  return {
    changePassword: Boolean(r.change_password),
    twoFactorRequired: Boolean(r.two_fa_required) || features.two_factor_required,
    twoFactorOn: Boolean(r.otp_enabled),
    dialerEnabled: Boolean(r.dialer_enabled),
    verifiedNumber: typeof r.dialer_verified_phone_number === 'string' && r.dialer_verified_phone_number.trim() !== '',
  };
}

/**
 * The person's flags and their dialer cover in one round trip, a named statement (planned once per connection): the
 * softphone asks on every page load and before each token expires, and each started minute of a call asks again.
 */
async function dialerRead(db: Db, who: { companyId: number; userId: number }) {
  const res = await executeNamed<Row>(
    db,
    'dialer_enablement',
    sql`select u.change_password, u.two_fa_required, u.otp_enabled, u.dialer_enabled,
               u.dialer_verified_phone_number, u.features as user_features, co.features as company_features, cv.*
        from users u join companies co on co.id = u.company_id
        cross join lateral (${coverageSql(who.companyId, who.userId, 'dialer')}) cv
        where u.id = ${who.userId} and u.company_id = ${who.companyId} and u.deleted_at is null`,
  );
  return { flags: userFlags(res.rows[0]), cover: coverageFromRow(res.rows[0]) };
}

/** Spec §4. A user who is not (or no longer) of the company is never enabled. */
export async function dialerEnablement(db: Db, who: { companyId: number; userId: number }): Promise<DialerEnablement> {
  const { flags, cover } = await dialerRead(db, who);
  if (!flags) {
    return {
      enabled: false,
      reasons: ['plan'],
      messages: [NO_PLAN_MESSAGES.dialer],
      dialerEnabled: false,
      coverage: null,
    };
  }
  const reasons: DialerBlock[] = [];
  if (flags.changePassword) reasons.push('change_password');
  if (flags.twoFactorRequired && !flags.twoFactorOn) reasons.push('two_factor');
  if (!flags.verifiedNumber) reasons.push('verified_number');
  const c = cover.coverage;
  const planOk = flags.dialerEnabled || c?.paid === true;
  if (!planOk) reasons.push(c && !c.paid ? 'licence_unpaid' : 'plan');
  return {
    enabled: reasons.length === 0,
    reasons,
    messages: reasons.map((r) => DIALER_BLOCK_MESSAGES[r]),
    dialerEnabled: flags.dialerEnabled,
    coverage: c,
  };
}

export interface QuotaCheck {
  ok: boolean;
  /** 'OK', or why not: 'Over minutes allocated' (spec §8), 'Over messages allocated', 'No plan'. */
  code: string;
  /** What to show the person when refused (spec §5 for the dialer). */
  message: string | null;
  /** Units used this month, and left under the allocation (null: no cap from a plan). */
  used: number;
  remaining: number | null;
  coverage: Coverage | null;
  /** Cents a unit on the person's plan; null: charge the wallet's price list (no plan, dialer_enabled). */
  unitPrice: number | null;
}

function decide(
  product: PlanProduct,
  quantity: number,
  cover: Awaited<ReturnType<typeof coverageOf>>,
  bypass: boolean,
): QuotaCheck {
  const { coverage, used } = cover;
  const base = { used, coverage, unitPrice: coverage?.unit_price ?? null };
  const over = product === 'dialer' ? OVER_MINUTES_ALLOCATED : OVER_MESSAGES_ALLOCATED;
  const remainingOf = (c: Coverage | null) => (c?.allocation == null ? null : Math.max(0, c.allocation - used));
  if (bypass) return { ...base, ok: true, code: DIALER_OK, message: null, remaining: remainingOf(coverage) };
  if (!coverage) return { ...base, ok: false, code: NO_PLAN, message: NO_PLAN_MESSAGES[product], remaining: 0 };
  if (coverage.allocation !== null) {
    // §5: a licence that is not paid, or usage that reaches the allocation, stops the spending.
    if (!coverage.paid || used + quantity > coverage.allocation) {
      return { ...base, ok: false, code: over, message: QUOTA_MESSAGES[product], remaining: remainingOf(coverage) };
    }
  }
  return { ...base, ok: true, code: DIALER_OK, message: null, remaining: remainingOf(coverage) };
}

const assertQuantity = (n: number) => {
  if (!Number.isSafeInteger(n) || n < 1) throw new Error('a quantity is a whole number of 1 or more');
};

/**
 * Spec §5, before a call and at each started minute (`minutes`, default 1: may one more minute be spent?). Passes
 * for dialer_enabled; for a licence holder fails when the licence is unpaid or the month's minutes would pass the
 * allocation; a self-paid subscription has no cap here (the wallet pays each minute).
 */
export async function checkDialerQuota(
  db: Db,
  who: { companyId: number; userId: number; minutes?: number },
): Promise<QuotaCheck> {
  const minutes = who.minutes ?? 1;
  assertQuantity(minutes);
  const { flags, cover } = await dialerRead(db, who);
  return decide('dialer', minutes, cover, Boolean(flags?.dialerEnabled));
}

/** The same rule for a text: may `quantity` more segments (default 1) be sent this month? */
export async function checkSmsAllocation(
  db: Db,
  who: { companyId: number; userId: number; quantity?: number },
): Promise<QuotaCheck> {
  const quantity = who.quantity ?? 1;
  assertQuantity(quantity);
  return decide('sms', quantity, await coverageOf(db, who.companyId, who.userId, 'sms'), false);
}

/** Cents a unit on the person's plan (null: no plan covers them; charge the wallet's price list). */
export async function unitPriceFor(
  db: Db,
  who: { companyId: number; userId: number; product: PlanProduct },
): Promise<number | null> {
  return (await coverageOf(db, who.companyId, who.userId, who.product)).coverage?.unit_price ?? null;
}

export interface UsageRecord {
  companyId: number;
  userId: number;
  kind: UsageKind;
  /** Segments of a text, or call minutes. */
  quantity: number;
  /** The cause's own id ('msg:123:1', 'call:CA..:leg:2:min:3'): recording it again adds nothing. */
  ref: string;
  /** When it happened (default now): decides the month it counts in. */
  at?: Date;
}

/**
 * Records used units once per `ref` (per company and product) and adds them to the person's month. Answers whether
 * this call recorded them (false: the ref was already recorded). Throws for a user who is not of the company.
 */
export async function recordUsage(db: Db, r: UsageRecord): Promise<{ recorded: boolean }> {
  const { recorded } = await recordUsageMany(db, [r]);
  return { recorded: recorded === 1 };
}

/**
 * Many records in two statements (a broadcast's segments): duplicates of a ref, within the list or recorded
 * before, count once. Every record must name the same company. Answers how many were new.
 */
export async function recordUsageMany(db: Db, records: UsageRecord[]): Promise<{ recorded: number }> {
  if (!records.length) return { recorded: 0 };
  const companyId = records[0].companyId;
  const seen = new Set<string>();
  const rows: Array<{ user_id: number; product: PlanProduct; quantity: number; ref: string; at: string }> = [];
  for (const r of records) {
    if (r.companyId !== companyId) throw new Error('recordUsageMany takes one company at a time');
    assertQuantity(r.quantity);
    if (!r.ref || r.ref.length > 200) throw new Error('a usage record needs a ref of 1 to 200 characters');
    const product = PRODUCT_OF[r.kind];
    if (!product) throw new Error(`unknown usage kind ${r.kind}`);
    const key = `${product}:${r.ref}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push({ user_id: r.userId, product, quantity: r.quantity, ref: r.ref, at: (r.at ?? new Date()).toISOString() });
  }
  const userIds = [...new Set(rows.map((r) => r.user_id))];
  const known = await db.execute<{ id: number }>(
    sql`select id from users where company_id = ${companyId}
        and id in (select (value)::int from jsonb_array_elements_text(${JSON.stringify(userIds)}::jsonb))`,
  );
  if (known.rows.length !== userIds.length) {
    const ok = new Set(known.rows.map((r) => Number(r.id)));
    throw new Error(`users ${userIds.filter((id) => !ok.has(id)).join(', ')} are not users of company ${companyId}`);
  }
  const res = await db.execute<{ n: number }>(
    sql`with input as (
          select * from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
            as i(user_id integer, product text, quantity integer, ref text, at timestamptz)),
        ins as (
          insert into usage_records (company_id, user_id, product, quantity, ref, month, occurred_at)
          select ${companyId}, i.user_id, i.product, i.quantity, i.ref, ${monthOf(sql`i.at`)}, i.at from input i
          on conflict (company_id, product, ref) do nothing
          returning user_id, product, month, quantity),
        totals as (
          insert into usage_totals as t (company_id, user_id, product, month, quantity)
          select ${companyId}, user_id, product, month, sum(quantity) from ins group by user_id, product, month
          on conflict (user_id, product, month) do update set quantity = t.quantity + excluded.quantity
          returning 1)
        select (select count(*) from ins)::int as n, (select count(*) from totals)::int as t`,
  );
  return { recorded: Number(res.rows[0]?.n ?? 0) };
}

/**
 * Gives back what `ref` recorded (a text the carrier never took): its units leave the person's month again. Once:
 * the record is deleted by the statement that lowers the total, so a second call finds nothing. Answers the units.
 */
export async function releaseUsage(db: Db, r: { companyId: number; kind: UsageKind; ref: string }) {
  const res = await db.execute<{ n: number }>(
    sql`with d as (
          delete from usage_records where company_id = ${r.companyId} and product = ${PRODUCT_OF[r.kind]} and ref = ${r.ref}
          returning user_id, product, month, quantity),
        t as (
          update usage_totals t set quantity = t.quantity - d.quantity from d
          where t.user_id = d.user_id and t.product = d.product and t.month = d.month returning 1)
        select coalesce((select sum(quantity) from d), 0)::int as n, (select count(*) from t)::int as t`,
  );
  return { released: Number(res.rows[0]?.n ?? 0) };
}

/** Raised inside reserveUsage's transaction to roll back the record it inserted. */
class OverAllocation extends Error {}

/**
 * Holds `quantity` units of the person's month for `ref` before they are spent (a text before it leaves), so that
 * concurrent spenders (a broadcast sends 16 at once) can never pass the allocation together: the month's total moves
 * by a conditional upsert (`... do update ... where quantity + n <= allocation`), which PostgreSQL evaluates under
 * the total's row lock, so each reservation sees every one committed before it. `allocation` null: no cap (a
 * self-paid plan), the units are only counted. The same `ref` again answers the first reservation and adds nothing
 * (its record is inserted first; a concurrent twin waits on the unique index). `releaseUsage` gives them back.
 * Answers whether the units are held; throws for a user who is not of the company.
 */
export async function reserveUsage(
  db: Db,
  r: Omit<UsageRecord, 'at'> & { allocation: number | null },
): Promise<{ reserved: boolean }> {
  assertQuantity(r.quantity);
  const product = PRODUCT_OF[r.kind];
  const cap = r.allocation;
  try {
    return await db.transaction(async (tx) => {
      const rec = await tx.execute<{ user_id: number }>(
        sql`insert into usage_records (company_id, user_id, product, quantity, ref, month, occurred_at)
            select ${r.companyId}, u.id, ${product}, ${r.quantity}, ${r.ref}, ${monthOf()}, now()
            from users u where u.id = ${r.userId} and u.company_id = ${r.companyId}
            on conflict (company_id, product, ref) do nothing returning user_id`,
      );
      if (!rec.rows[0]) {
        const seen = await tx.execute(
          sql`select 1 from usage_records where company_id = ${r.companyId} and product = ${product} and ref = ${r.ref}`,
        );
        if (seen.rows[0]) return { reserved: true };
        throw new Error(`user ${r.userId} is not a user of company ${r.companyId}`);
      }
      const held = await tx.execute(
        sql`insert into usage_totals as t (company_id, user_id, product, month, quantity)
            select ${r.companyId}, ${r.userId}, ${product}, ${monthOf()}, ${r.quantity}
            where ${cap}::bigint is null or ${r.quantity} <= ${cap}::bigint
            on conflict (user_id, product, month) do update set quantity = t.quantity + excluded.quantity
              where ${cap}::bigint is null or t.quantity + excluded.quantity <= ${cap}::bigint
            returning quantity`,
      );
      if (!held.rows[0]) throw new OverAllocation();
      return { reserved: true };
    });
  } catch (err) {
    if (err instanceof OverAllocation) return { reserved: false };
    throw err;
  }
}
