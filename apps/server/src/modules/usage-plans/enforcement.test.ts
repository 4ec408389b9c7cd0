/**
 * The functions texting and the dialer call before spending (spec §4 dialer enablement, §5 quota check, the same
 * allocation rule for texts) and the usage records they write, against a real database. Each case uses a new
 * user of the demo company, so the demo's own licences never shape an answer.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../../test/harness.js';
import { companies, users } from '../../platform/db/schema.js';
import { ensureCompanyAccount } from '../wallet/accounts.js';
import { ledgerOf } from '../wallet/service.js';
import { affordableQuantity, chargeUsage } from '../wallet/usage.js';
import {
  checkDialerQuota,
  checkSmsAllocation,
  dialerEnablement,
  recordUsage,
  recordUsageMany,
  unitPriceFor,
} from './enforcement.js';
import { grantPlan } from './test-helpers.js';

let t: TestApp;
let companyId: number;
let otherCompanyId: number;
const db = () => t.database.db;

beforeAll(async () => {
  t = await createTestApp();
  const [agent] = await db()
    .select()
    .from(users)
    .where(eq(users.email, DEMO('agent')));
  companyId = agent.companyId;
  const [other] = await db().select().from(users).where(eq(users.email, 'agent@recruit.harbor.test'));
  otherCompanyId = other.companyId;
});
afterAll(() => t.close());

let n = 0;
/** A new agent ready for the dialer but for a plan: verified number, no forced change, no two-factor demand. */
async function newUser(extra: Record<string, unknown> = {}, company = companyId) {
  n++;
  const tag = `${n}.${Date.now()}`;
  const [u] = await db()
    .insert(users)
    .values({
      companyId: company,
      number: `E-${tag}`,
      email: `enf${tag}@demo.harbor.test`,
      username: `enf${tag}`,
      passwordHash: 'x',
      accountType: 'agent',
      roles: ['agent'],
      dialerVerifiedPhoneNumber: '+18135550100',
      ...extra,
    })
    .returning();
  return { companyId: company, userId: u.id };
}

describe('dialer enablement (spec §4)', () => {
  it('is off without a plan, and names why', async () => {
    const who = await newUser();
    const e = await dialerEnablement(db(), who);
    expect(e).toMatchObject({ enabled: false, reasons: ['plan'], dialerEnabled: false, coverage: null });
    expect(e.messages[0]).toMatch(/dialer plan/);
  });

  it('is on with an active self-paid subscription, a paid licence, or dialer_enabled', async () => {
    const self = await newUser();
    await grantPlan(db(), { ...self, product: 'dialer', kind: 'self' });
    expect((await dialerEnablement(db(), self)).enabled).toBe(true);

    const licensed = await newUser();
    await grantPlan(db(), { ...licensed, product: 'dialer', kind: 'manager' });
    const e = await dialerEnablement(db(), licensed);
    expect(e.enabled).toBe(true);
    expect(e.coverage).toMatchObject({ kind: 'manager', paid: true, allocation: 100 });

    const flagged = await newUser({ dialerEnabled: true });
    expect(await dialerEnablement(db(), flagged)).toMatchObject({ enabled: true, dialerEnabled: true });
  });

  it('is off with a licence that is not paid', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'dialer', paid: false });
    expect(await dialerEnablement(db(), who)).toMatchObject({ enabled: false, reasons: ['licence_unpaid'] });
  });

  it('a texting plan does not enable the dialer', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'sms', kind: 'self' });
    expect((await dialerEnablement(db(), who)).enabled).toBe(false);
  });

  it('needs no forced password change, two-factor satisfied and a verified number, whatever the plan', async () => {
    const forced = await newUser({ dialerEnabled: true, changePassword: true });
    expect((await dialerEnablement(db(), forced)).reasons).toEqual(['change_password']);

    const twoFa = await newUser({ dialerEnabled: true, twoFaRequired: true });
    expect((await dialerEnablement(db(), twoFa)).reasons).toEqual(['two_factor']);
    const twoFaOn = await newUser({ dialerEnabled: true, twoFaRequired: true, otpEnabled: true });
    expect((await dialerEnablement(db(), twoFaOn)).enabled).toBe(true);

    const noNumber = await newUser({ dialerEnabled: true, dialerVerifiedPhoneNumber: null });
    expect((await dialerEnablement(db(), noNumber)).reasons).toEqual(['verified_number']);
    const blank = await newUser({ dialerEnabled: true, dialerVerifiedPhoneNumber: '  ' });
    expect((await dialerEnablement(db(), blank)).reasons).toEqual(['verified_number']);

    const all = await newUser({ changePassword: true, twoFaRequired: true, dialerVerifiedPhoneNumber: null });
    expect((await dialerEnablement(db(), all)).reasons).toEqual([
      'change_password',
      'two_factor',
      'verified_number',
      'plan',
    ]);
  });

  it("reads the company's two-factor requirement too", async () => {
    const [company] = await db().select().from(companies).where(eq(companies.id, otherCompanyId));
    await db()
      .update(companies)
      .set({ features: { ...company.features, two_factor_required: true } })
      .where(eq(companies.id, otherCompanyId));
    try {
      const who = await newUser({ dialerEnabled: true }, otherCompanyId);
      expect((await dialerEnablement(db(), who)).reasons).toEqual(['two_factor']);
    } finally {
      await db().update(companies).set({ features: company.features }).where(eq(companies.id, otherCompanyId));
    }
  });

  it('a subscription whose paid period ran out, or that is cancelled, covers nobody', async () => {
    const who = await newUser();
    const g = await grantPlan(db(), { ...who, product: 'dialer', kind: 'self' });
    await db().execute(
      sql`update plan_subscriptions set current_period_end = now() - interval '1 minute' where id = ${g.subscriptionId}`,
    );
    expect((await dialerEnablement(db(), who)).reasons).toEqual(['plan']);
    const other = await newUser();
    const h = await grantPlan(db(), { ...other, product: 'dialer' });
    await db().execute(sql`update plan_subscriptions set status = 'cancelled' where id = ${h.subscriptionId}`);
    expect((await dialerEnablement(db(), other)).reasons).toEqual(['plan']);
  });

  it('never enables a user of another company, or an unknown one', async () => {
    const who = await newUser({ dialerEnabled: true }, otherCompanyId);
    expect((await dialerEnablement(db(), { companyId, userId: who.userId })).enabled).toBe(false);
    expect((await dialerEnablement(db(), { companyId, userId: 999_999_999 })).enabled).toBe(false);
  });
});

describe('quota check (spec §5)', () => {
  it('passes for dialer_enabled, even past an allocation', async () => {
    const who = await newUser({ dialerEnabled: true });
    await grantPlan(db(), { ...who, product: 'dialer', allocation: 1 });
    await recordUsage(db(), { ...who, kind: 'voice', quantity: 5, ref: `call-${who.userId}` });
    const q = await checkDialerQuota(db(), who);
    expect(q).toMatchObject({ ok: true, code: 'OK', used: 5, remaining: 0 });
  });

  it('a licence holder is stopped when usage reaches the allocation', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'dialer', allocation: 3, unitPrice: 4 });
    expect(await checkDialerQuota(db(), who)).toMatchObject({ ok: true, remaining: 3, unitPrice: 4 });
    for (const m of [1, 2]) await recordUsage(db(), { ...who, kind: 'voice', quantity: 1, ref: `c1:min:${m}` });
    expect(await checkDialerQuota(db(), who)).toMatchObject({ ok: true, used: 2, remaining: 1 });
    expect(await checkDialerQuota(db(), { ...who, minutes: 2 })).toMatchObject({ ok: false });
    await recordUsage(db(), { ...who, kind: 'voice', quantity: 1, ref: 'c1:min:3' });
    expect(await checkDialerQuota(db(), who)).toEqual({
      ok: false,
      code: 'Over minutes allocated',
      message: 'Please request additional minutes from your manager.',
      used: 3,
      remaining: 0,
      unitPrice: 4,
      coverage: expect.objectContaining({ kind: 'manager', allocation: 3, paid: true }),
    });
  });

  it('an unpaid licence fails with the same message', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'dialer', paid: false, allocation: 50 });
    expect(await checkDialerQuota(db(), who)).toMatchObject({
      ok: false,
      code: 'Over minutes allocated',
      message: 'Please request additional minutes from your manager.',
    });
  });

  it('a self-paid subscription has no cap; no plan at all is refused', async () => {
    const self = await newUser();
    await grantPlan(db(), { ...self, product: 'dialer', kind: 'self' });
    await recordUsage(db(), { ...self, kind: 'voice', quantity: 10_000, ref: 'long' });
    expect(await checkDialerQuota(db(), self)).toMatchObject({ ok: true, remaining: null, used: 10_000 });
    const none = await newUser();
    expect(await checkDialerQuota(db(), none)).toMatchObject({ ok: false, code: 'No plan' });
  });

  it('a paid cover wins over an unpaid licence; a company licence over a manager one', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'sms', paid: false });
    await grantPlan(db(), { ...who, product: 'sms', kind: 'self' });
    expect((await checkSmsAllocation(db(), who)).coverage?.kind).toBe('self');

    const both = await newUser();
    await grantPlan(db(), { ...both, product: 'sms', kind: 'manager', allocation: 5 });
    await grantPlan(db(), { ...both, product: 'sms', kind: 'company', allocation: 7, unitPrice: 9 });
    expect(await checkSmsAllocation(db(), both)).toMatchObject({ coverage: { kind: 'company' }, remaining: 7 });
    expect(await unitPriceFor(db(), { ...both, product: 'sms' })).toBe(9);
    expect(await unitPriceFor(db(), { ...(await newUser()), product: 'sms' })).toBeNull();
  });
});

describe('texts: allocation per message', () => {
  it('counts every segment of a message against the allocation', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'sms', allocation: 5 });
    await recordUsage(db(), { ...who, kind: 'sms', quantity: 4, ref: 'msg:1' });
    expect(await checkSmsAllocation(db(), { ...who, quantity: 1 })).toMatchObject({ ok: true, remaining: 1 });
    expect(await checkSmsAllocation(db(), { ...who, quantity: 2 })).toMatchObject({
      ok: false,
      code: 'Over messages allocated',
      message: 'Please request additional messages from your manager.',
    });
    expect(await checkSmsAllocation(db(), await newUser())).toMatchObject({ ok: false, code: 'No plan' });
  });

  it('refuses a quantity that is not a whole positive number', async () => {
    const who = await newUser();
    await expect(checkSmsAllocation(db(), { ...who, quantity: 0 })).rejects.toThrow();
    await expect(checkDialerQuota(db(), { ...who, minutes: 1.5 })).rejects.toThrow();
  });
});

describe('usage records', () => {
  const total = async (userId: number, product: string) => {
    const r = await db().execute<{ q: number }>(
      sql`select coalesce(sum(quantity), 0)::int as q from usage_totals where user_id = ${userId} and product = ${product}`,
    );
    return Number(r.rows[0].q);
  };

  it('records a ref once, per product', async () => {
    const who = await newUser();
    expect(await recordUsage(db(), { ...who, kind: 'sms', quantity: 2, ref: 'm-1' })).toEqual({ recorded: true });
    expect(await recordUsage(db(), { ...who, kind: 'sms', quantity: 2, ref: 'm-1' })).toEqual({ recorded: false });
    expect(await recordUsage(db(), { ...who, kind: 'voice', quantity: 1, ref: 'm-1' })).toEqual({ recorded: true });
    expect(await total(who.userId, 'sms')).toBe(2);
    expect(await total(who.userId, 'dialer')).toBe(1);
  });

  it('many at once: duplicates within the list and with earlier records count once', async () => {
    const a = await newUser();
    const b = await newUser();
    await recordUsage(db(), { ...a, kind: 'sms', quantity: 1, ref: 'b-0' });
    const res = await recordUsageMany(db(), [
      { ...a, kind: 'sms', quantity: 1, ref: 'b-0' },
      { ...a, kind: 'sms', quantity: 1, ref: 'b-1' },
      { ...a, kind: 'sms', quantity: 1, ref: 'b-1' },
      { ...b, kind: 'sms', quantity: 3, ref: 'b-2' },
    ]);
    expect(res).toEqual({ recorded: 2 });
    expect(await total(a.userId, 'sms')).toBe(2);
    expect(await total(b.userId, 'sms')).toBe(3);
  });

  it('concurrent records of one ref count once', async () => {
    const who = await newUser();
    const all = await Promise.all(
      Array.from({ length: 8 }, () => recordUsage(db(), { ...who, kind: 'voice', quantity: 1, ref: 'race' })),
    );
    expect(all.filter((r) => r.recorded)).toHaveLength(1);
    expect(await total(who.userId, 'dialer')).toBe(1);
  });

  it("last month's usage does not count against this month", async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'sms', allocation: 2 });
    const lastMonth = new Date(Date.now() - 40 * 24 * 3600 * 1000);
    await recordUsage(db(), { ...who, kind: 'sms', quantity: 2, ref: 'old', at: lastMonth });
    expect(await checkSmsAllocation(db(), who)).toMatchObject({ ok: true, used: 0, remaining: 2 });
  });

  it('refuses a user of another company, a bad quantity or an empty ref, and records nothing', async () => {
    const theirs = await newUser({}, otherCompanyId);
    await expect(
      recordUsage(db(), { companyId, userId: theirs.userId, kind: 'sms', quantity: 1, ref: 'x' }),
    ).rejects.toThrow(/not users of company/);
    const who = await newUser();
    await expect(recordUsage(db(), { ...who, kind: 'sms', quantity: 0, ref: 'x' })).rejects.toThrow();
    await expect(recordUsage(db(), { ...who, kind: 'sms', quantity: 1, ref: '' })).rejects.toThrow();
    expect(await total(who.userId, 'sms')).toBe(0);
    expect(await total(theirs.userId, 'sms')).toBe(0);
  });
});

describe("the wallet charges the plan's price of a unit", () => {
  it('chargeUsage takes the unitPrice a quota check answers; the list price without one', async () => {
    const who = await newUser();
    await grantPlan(db(), { ...who, product: 'sms', allocation: 10, unitPrice: 7 });
    const ledger = ledgerOf(t.deps);
    const wallet = (await ledger.accounts.userWallet(who.companyId, who.userId))!;
    const clearing = await ensureCompanyAccount(db(), who.companyId, 'processor_clearing');
    await ledger.post({
      companyId: who.companyId,
      key: `fund-${who.userId}`,
      kind: 'top_up',
      legs: [
        { accountId: clearing, amount: -100 },
        { accountId: wallet, amount: 100 },
      ],
    });
    const q = await checkSmsAllocation(db(), { ...who, quantity: 3 });
    expect(q).toMatchObject({ ok: true, unitPrice: 7 });
    expect(await affordableQuantity(t.deps, who.companyId, who.userId, 'sms', q.unitPrice!)).toBe(14);
    const r = await chargeUsage(t.deps, {
      ...who,
      usageType: 'sms',
      quantity: 3,
      idempotencyKey: 'sms:plan-price',
      unitPrice: q.unitPrice!,
    });
    expect(r).toMatchObject({ ok: true, status: 'charged', amount: 21 });
    const list = await chargeUsage(t.deps, { ...who, usageType: 'sms', quantity: 1, idempotencyKey: 'sms:list' });
    expect(list).toMatchObject({ ok: true, amount: 2 });
    await expect(
      chargeUsage(t.deps, { ...who, usageType: 'sms', quantity: 1, idempotencyKey: 'x', unitPrice: 0 }),
    ).rejects.toThrow(RangeError);
  });
});
