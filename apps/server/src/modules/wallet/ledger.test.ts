/**
 * The ledger against a real database: balances derived from entries, no wallet below zero, replays that add
 * nothing, and the same under concurrency (many debits at once on one wallet, two posters as two processes would
 * be). Every scenario ends with the self-check recomputing every balance from the entries.
 */
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, DEMO, type TestApp } from '../../../test/harness.js';
import { users } from '../../platform/db/schema.js';
import { ensureCompanyAccount, ensureUserWallet } from './accounts.js';
import { applyMovements, applyMovementsUnlocked, type Movement } from './ledger.js';
import { Ledger } from './poster.js';
import { entriesOf as entriesOfKey } from './test-helpers.js';
import { checkLedger } from './verify.js';

let t: TestApp;
let ledger: Ledger;
let companyId: number;
let otherCompanyId: number;
let clearing: number;
let revenue: number;

const userRow = async (email: string) => (await t.database.db.select().from(users).where(eq(users.email, email)))[0];

beforeAll(async () => {
  t = await createTestApp();
  ledger = new Ledger(t.database);
  const agent = await userRow(DEMO('agent'));
  companyId = agent.companyId;
  otherCompanyId = (await userRow('agent@recruit.harbor.test')).companyId;
  clearing = await ensureCompanyAccount(t.database.db, companyId, 'processor_clearing');
  revenue = await ensureCompanyAccount(t.database.db, companyId, 'revenue');
});
afterAll(async () => {
  await ledger.close();
  await t.close();
});

let n = 0;
/** A fresh wallet of a new user of the demo company, funded with `cents` by a top-up. */
async function fundedWallet(cents: number) {
  n++;
  const db = t.database.db;
  const res = await db.execute<{ id: number }>(
    sql`insert into users (company_id, number, email, username, password_hash, account_type, roles)
        values (${companyId}, ${`W-${n}-${Date.now()}`}, ${`wallet${n}.${Date.now()}@demo.harbor.test`},
                ${`wallet${n}.${Date.now()}`}, 'x', 'agent', array['agent']) returning id`,
  );
  const wallet = (await ensureUserWallet(db, companyId, Number(res.rows[0].id)))!;
  if (cents > 0) {
    const r = await ledger.post(topUp(wallet, cents, `fund-${wallet}`));
    expect(r.status).toBe('posted');
  }
  return wallet;
}

const topUp = (wallet: number, cents: number, key: string): Movement => ({
  companyId,
  key,
  kind: 'top_up',
  legs: [
    { accountId: clearing, amount: -cents },
    { accountId: wallet, amount: cents },
  ],
});
const debit = (wallet: number, cents: number, key: string): Movement => ({
  companyId,
  key,
  kind: 'usage',
  details: { usage_type: 'sms', quantity: 1 },
  legs: [
    { accountId: wallet, amount: -cents },
    { accountId: revenue, amount: cents },
  ],
});

const balanceOf = async (id: number) =>
  Number(
    (await t.database.db.execute<{ balance: number }>(sql`select balance from ledger_accounts where id = ${id}`))
      .rows[0].balance,
  );
const entriesOf = (key: string) => entriesOfKey(t.database.db, key);

describe('posting', () => {
  it('credits and debits a wallet, keeps each balance after, and refuses a debit below zero', async () => {
    const w = await fundedWallet(1_000);
    const a = await ledger.post(debit(w, 300, `a-${w}`));
    expect(a).toMatchObject({ status: 'posted', balances: { [w]: 700 } });
    const refused = await ledger.post(debit(w, 701, `b-${w}`));
    expect(refused).toEqual({ status: 'refused', accountId: w, balance: 700, needed: 701 });
    expect(await entriesOf(`b-${w}`)).toBe(0);
    expect(await ledger.post(debit(w, 700, `c-${w}`))).toMatchObject({ status: 'posted', balances: { [w]: 0 } });
    expect(await balanceOf(w)).toBe(0);
    const after = await t.database.db.execute<{ balance_after: number }>(
      sql`select balance_after from ledger_entries where account_id = ${w} order by id`,
    );
    expect(after.rows.map((r) => Number(r.balance_after))).toEqual([1_000, 700, 0]);
    expect((await checkLedger(t.database.db, companyId)).ok).toBe(true);
  });

  it('answers a replayed key with the first posting and adds nothing; a key reused for another movement is a conflict', async () => {
    const w = await fundedWallet(1_000);
    const first = await ledger.post(debit(w, 100, `sms-1-${w}`));
    const again = await ledger.post(debit(w, 100, `sms-1-${w}`));
    expect(first.status).toBe('posted');
    expect(again).toEqual({ status: 'replayed', transactionId: (first as { transactionId: number }).transactionId });
    expect(await ledger.post(debit(w, 150, `sms-1-${w}`))).toMatchObject({ status: 'conflict' });
    expect(await entriesOf(`sms-1-${w}`)).toBe(2);
    expect(await balanceOf(w)).toBe(900);
  });

  it('refuses movements that cannot be posted at all', async () => {
    const w = await fundedWallet(100);
    const bad = [
      { ...debit(w, 100, 'x'), legs: [{ accountId: w, amount: -100 }] },
      {
        ...debit(w, 100, 'x'),
        legs: [
          { accountId: w, amount: -100 },
          { accountId: revenue, amount: 99 },
        ],
      },
      debit(w, 0.5, 'x'),
      debit(w, 0, 'x'),
      debit(w, 2_000_000_000, 'x'),
      debit(w, 100, ''),
    ];
    for (const m of bad) await expect(ledger.post(m)).rejects.toThrow();
    const foreign = await ensureCompanyAccount(t.database.db, otherCompanyId, 'revenue');
    await expect(
      ledger.post({
        ...debit(w, 10, `f-${w}`),
        legs: [
          { accountId: w, amount: -10 },
          { accountId: foreign, amount: 10 },
        ],
      }),
    ).rejects.toThrow(/another company/);
    expect(await balanceOf(w)).toBe(100);
  });
});

describe('concurrency', () => {
  it('of 300 debits at once on one wallet funded for 200, exactly 200 pass and the balance ends at zero', async () => {
    const w = await fundedWallet(20_000);
    const results = await Promise.all(Array.from({ length: 300 }, (_, i) => ledger.post(debit(w, 100, `c-${w}-${i}`))));
    expect(results.filter((r) => r.status === 'posted')).toHaveLength(200);
    expect(results.filter((r) => r.status === 'refused')).toHaveLength(100);
    expect(await balanceOf(w)).toBe(0);
    const check = await checkLedger(t.database.db);
    expect(check).toMatchObject({ ok: true, mismatches: [], unbalanced: [], negativeWallets: [], entriesSum: 0 });
  });

  it('two posters (two processes) debiting one wallet at once never overdraw it', async () => {
    const other = new Ledger(t.database, { lanes: 3 });
    const w = await fundedWallet(5_000);
    const posts = Array.from({ length: 120 }, (_, i) => (i % 2 ? ledger : other).post(debit(w, 50, `two-${w}-${i}`)));
    const results = await Promise.all(posts);
    await other.close();
    expect(results.filter((r) => r.status === 'posted')).toHaveLength(100);
    expect(await balanceOf(w)).toBe(0);
    expect((await checkLedger(t.database.db)).ok).toBe(true);
  });

  // Only a server runs two transactions at once (PGlite queues the second behind the first).
  it.runIf(process.env.TEST_DATABASE_URL)(
    'an unlocked batch whose wallet moved after its read writes nothing, and the retry posts it',
    async () => {
      const w = await fundedWallet(1_000);
      let release!: () => void;
      const held = new Promise<void>((r) => {
        release = r;
      });
      // A top-up holds the wallet's row, uncommitted, while the unlocked batch reads 1,000 and tries to write. The
      // batch starts only once the top-up has the row: started together, a loaded runner could run its write first.
      let locked!: () => void;
      const hasRow = new Promise<void>((r) => {
        locked = r;
      });
      const topping = t.database.db.transaction(async (tx) => {
        await applyMovements(tx, [topUp(w, 500, `race-top-${w}`)]);
        locked();
        await held;
      });
      await hasRow;
      // Its refusal can arrive before the top-up's COMMIT answer: handled from the start, or it is an unhandled rejection.
      const racing = applyMovementsUnlocked(t.database.db, [debit(w, 100, `race-${w}`)]).then(
        () => null,
        (err: unknown) => err,
      );
      // Released once the batch's write waits on the top-up's row lock: its read is then surely before the top-up's
      // commit. (A fixed 300 ms let a starved runner read after the commit, and the batch posted without a conflict.)
      for (let i = 0; i < 200; i++) {
        const [{ n }] = await t.database.query<{ n: number }>(
          `select count(*)::int as n from pg_stat_activity
           where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
        );
        if (n > 0) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      release();
      await topping;
      expect(await racing).toMatchObject({ cause: { code: '40001' } });
      expect(await balanceOf(w)).toBe(1_500);
      expect(await entriesOf(`race-${w}`)).toBe(0);
      expect(await ledger.post(debit(w, 100, `race-${w}`))).toMatchObject({
        status: 'posted',
        balances: { [w]: 1_400 },
      });
      expect((await checkLedger(t.database.db)).ok).toBe(true);
    },
  );

  it('the unlocked write guard fails its statement as a serialization failure', async () => {
    await expect(t.database.db.execute(sql`select ledger_guard(false, 'moved')`)).rejects.toMatchObject(
      refusedBy(/moved/),
    );
    await expect(t.database.db.execute(sql`select ledger_guard(false, 'moved')`)).rejects.toMatchObject({
      cause: { code: '40001' },
    });
  });

  it('50 replays of one key at once make one entry pair', async () => {
    const w = await fundedWallet(1_000);
    const results = await Promise.all(Array.from({ length: 50 }, () => ledger.post(debit(w, 10, `replay-${w}`))));
    expect(results.filter((r) => r.status === 'posted')).toHaveLength(1);
    expect(results.filter((r) => r.status === 'replayed')).toHaveLength(49);
    expect(await entriesOf(`replay-${w}`)).toBe(2);
    expect(await balanceOf(w)).toBe(990);
  });

  it('calls the threshold hook once when many debits cross it together', async () => {
    const crossed: number[] = [];
    const hooked = new Ledger(t.database, {
      hooks: {
        async onThresholdCrossed(_tx, w) {
          crossed.push(w.accountId);
        },
      },
    });
    const w = await fundedWallet(3_000);
    await t.database.db.execute(
      sql`insert into wallet_settings (account_id, company_id, auto_refill_enabled, auto_refill_threshold)
          values (${w}, ${companyId}, true, 1000)`,
    );
    await Promise.all(Array.from({ length: 40 }, (_, i) => hooked.post(debit(w, 100, `x-${w}-${i}`))));
    await hooked.close();
    expect(crossed).toEqual([w]);
    expect(await balanceOf(w)).toBe(0);
  });
});

/** Drizzle wraps the database's refusal: its own message is the cause's. */
const refusedBy = (message: RegExp) => ({ cause: { message: expect.stringMatching(message) } });

describe('the database holds the rules itself', () => {
  it('refuses an unbalanced transaction, an edit of the ledger and a wallet below zero', async () => {
    const w = await fundedWallet(500);
    const db = t.database.db;
    const tx = await db.execute<{ id: number }>(
      sql`insert into ledger_transactions (company_id, kind, idempotency_key) values (${companyId}, 'usage', ${`raw-${w}`})
          returning id`,
    );
    const id = Number(tx.rows[0].id);
    await expect(
      db.execute(
        sql`insert into ledger_entries (transaction_id, account_id, company_id, amount)
            values (${id}, ${w}, ${companyId}, -100), (${id}, ${revenue}, ${companyId}, 90)`,
      ),
    ).rejects.toMatchObject(refusedBy(/does not balance/));
    // An account that does not exist, or one of another company, is refused like a foreign key would refuse it.
    const foreign = await ensureCompanyAccount(db, otherCompanyId, 'revenue');
    for (const account of [foreign, 999_999_999]) {
      await expect(
        db.execute(
          sql`insert into ledger_entries (transaction_id, account_id, company_id, amount)
              values (${id}, ${w}, ${companyId}, -100), (${id}, ${account}, ${companyId}, 100)`,
        ),
      ).rejects.toMatchObject(refusedBy(/another company, or none/));
    }
    await expect(db.execute(sql`delete from ledger_accounts where id = ${w}`)).rejects.toThrow();
    await expect(
      db.execute(sql`update ledger_entries set amount = amount * 2 where account_id = ${w}`),
    ).rejects.toThrow();
    await expect(db.execute(sql`delete from ledger_entries where account_id = ${w}`)).rejects.toThrow();
    await expect(db.execute(sql`update ledger_accounts set balance = -1 where id = ${w}`)).rejects.toThrow();
    expect(await balanceOf(w)).toBe(500);
    expect((await checkLedger(db, companyId)).ok).toBe(true);
  });

  it('the check finds a cached balance that disagrees with the entries', async () => {
    const w = await fundedWallet(500);
    await t.database.db.execute(sql`update ledger_accounts set balance = 499 where id = ${w}`);
    const check = await checkLedger(t.database.db, companyId);
    expect(check.ok).toBe(false);
    expect(check.mismatches).toEqual([{ accountId: w, cached: 499, derived: 500 }]);
    await t.database.db.execute(sql`update ledger_accounts set balance = 500 where id = ${w}`);
  });
});
