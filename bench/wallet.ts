/**
 * The wallet ledger under load on the PostgreSQL server (issue 10):
 *   1. 64 concurrent clients x 1,000 debits against ONE wallet funded for 80% of them: exactly the affordable ones
 *      succeed, the balance ends at the exact figure, never below zero, entries sum to zero; >= 2,000 debits/s.
 *   2. The same across 1,000 wallets: >= 5,000 debits/s.
 *   3. 50 concurrent replays of one idempotency key make one entry pair.
 *   4. A process posting debits killed with SIGKILL mid-run: every invariant still holds afterwards.
 * Every debit goes through `chargeUsageOn` (modules/wallet/usage.ts), the function behind `chargeUsage` that
 * other areas call (a broadcast's texts), on a `Ledger` as `ledgerOf` builds it: the product's path, not a shortcut.
 * Run: `node --import tsx bench/wallet.ts` (BENCH_CLIENTS, BENCH_DEBITS, BENCH_WALLETS, BENCH_LANES, BENCH_KEEP=1, DATABASE_POOL).
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import pg from 'pg';
import { ensureCompanyAccount, ensureUserWallet } from '../apps/server/src/modules/wallet/accounts.js';
import type { Movement } from '../apps/server/src/modules/wallet/ledger.js';
import { Ledger } from '../apps/server/src/modules/wallet/poster.js';
import { chargeUsageOn, type UsageChargeResult } from '../apps/server/src/modules/wallet/usage.js';
import { checkLedger } from '../apps/server/src/modules/wallet/verify.js';
import { type Database, openDatabase } from '../apps/server/src/platform/db/client.js';
import { atLeast, BASE_DATABASE_URL, printVerdicts, type Verdict } from './http-harness.js';

const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 64);
const DEBITS = Number(process.env.BENCH_DEBITS ?? 1_000);
const WALLETS = Number(process.env.BENCH_WALLETS ?? 1_000);
const NAME = process.env.BENCH_DB ?? 'harbor_bench_wallet';
const PRICE = 100;

const withDb = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};

async function freshDatabase() {
  const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${NAME} with (force)`);
  await admin.query(`create database ${NAME}`);
  await admin.end();
  process.env.DATABASE_POOL ??= '24';
  const url = withDb(BASE_DATABASE_URL, NAME);
  const database = await openDatabase({ databaseUrl: url });
  await database.migrate();
  return { url, database };
}

async function seed(database: Database) {
  const [company] = await database.query<{ id: number }>(
    `insert into companies (number, name, domain_name) values ('B-1', 'Bench wallet', 'wallet.bench.test') returning id`,
  );
  const users = await database.query<{ id: number }>(
    `insert into users (company_id, number, email, username, password_hash, account_type, roles)
     select $1, 'U-' || g, 'user' || g || '@wallet.bench.test', 'user' || g, 'x', 'agent', array['agent']
     from generate_series(1, $2) g returning id`,
    [company.id, WALLETS + 2],
  );
  const wallets: number[] = [];
  for (const u of users) wallets.push((await ensureUserWallet(database.db, company.id, u.id))!);
  const clearing = await ensureCompanyAccount(database.db, company.id, 'processor_clearing');
  const revenue = await ensureCompanyAccount(database.db, company.id, 'revenue');
  return { companyId: company.id, userIds: users.map((u) => u.id), wallets, clearing, revenue };
}

type Seeded = Awaited<ReturnType<typeof seed>>;

const fund = (s: Seeded, wallet: number, cents: number): Movement => ({
  companyId: s.companyId,
  key: `fund-${wallet}`,
  kind: 'top_up',
  legs: [
    { accountId: s.clearing, amount: -cents },
    { accountId: wallet, amount: cents },
  ],
});
/** A text of one segment from the user whose wallet is `s.wallets[w]`, as a broadcast charges it. */
const debit = (ledger: Ledger, s: Seeded, w: number, key: string) =>
  chargeUsageOn(ledger, {
    companyId: s.companyId,
    userId: s.userIds[w],
    usageType: 'sms',
    quantity: 1,
    unitPrice: PRICE,
    idempotencyKey: key,
    details: { to: '+15555550100', segments: 1 },
    ref: { type: 'sms_message', id: key },
  });

const outcome = (r: UsageChargeResult) => (r.ok ? r.status : r.reason);

/**
 * CLIENTS loops, each charging DEBITS texts one after another; `pick` answers the index of the paying wallet.
 * Answers the counts and the elapsed seconds.
 */
async function hammer(ledger: Ledger, s: Seeded, pick: (client: number, i: number) => number, tag: string) {
  let posted = 0;
  let refused = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, c) => {
      for (let i = 0; i < DEBITS; i++) {
        const r = outcome(await debit(ledger, s, pick(c, i), `${tag}-${c}-${i}`));
        if (r === 'charged') posted++;
        else if (r === 'insufficient_funds') refused++;
        else throw new Error(`unexpected ${r}`);
      }
    }),
  );
  return { posted, refused, seconds: (performance.now() - started) / 1000 };
}

const balanceOf = async (db: Database, id: number) =>
  Number((await db.query<{ balance: string }>('select balance from ledger_accounts where id = $1', [id]))[0].balance);

async function main() {
  const { url, database } = await freshDatabase();
  const s = await seed(database);
  // As ledgerOf builds it (the default lanes), unless BENCH_LANES says otherwise.
  const lanes = process.env.BENCH_LANES ? Number(process.env.BENCH_LANES) : undefined;
  const ledger = new Ledger(database, { lanes });
  const verdicts: Verdict[] = [];
  const total = CLIENTS * DEBITS;

  // 1. One wallet, funded for 80%.
  const one = s.wallets[0];
  const affordable = Math.floor(total * 0.8);
  await ledger.post(fund(s, one, affordable * PRICE));
  const r1 = await hammer(ledger, s, () => 0, 'one');
  const minAfter = Number(
    (
      await database.query<{ m: string }>('select min(balance_after) as m from ledger_entries where account_id = $1', [
        one,
      ])
    )[0].m,
  );
  console.log(`one wallet: ${r1.posted} posted, ${r1.refused} refused in ${r1.seconds.toFixed(2)} s`);
  verdicts.push(
    atLeast('one wallet: debits/s', Math.round(total / r1.seconds), 2_000, '/s'),
    exact('one wallet: debits that succeeded', r1.posted, affordable),
    exact('one wallet: final balance (cents)', await balanceOf(database, one), 0),
    atLeast('one wallet: lowest balance ever (cents)', minAfter, 0, ''),
  );

  // 2. Across WALLETS wallets, each funded for 90% of what lands on it on average.
  const many = s.wallets.slice(1, WALLETS + 1);
  const perWallet = Math.ceil((total / many.length) * 0.9) * PRICE;
  await Promise.all(many.map((w) => ledger.post(fund(s, w, perWallet))));
  const r2 = await hammer(ledger, s, (c, i) => 1 + ((c * 7919 + i * 104729) % many.length), 'many');
  const spread = Number(
    (
      await database.query<{ n: string }>(
        `select coalesce(sum(balance), 0) as n from ledger_accounts where id = any($1::int[])`,
        [many],
      )
    )[0].n,
  );
  console.log(`${many.length} wallets: ${r2.posted} posted, ${r2.refused} refused in ${r2.seconds.toFixed(2)} s`);
  verdicts.push(
    atLeast(`${many.length} wallets: debits/s`, Math.round(total / r2.seconds), 5_000, '/s'),
    exact(`${many.length} wallets: money kept`, spread + r2.posted * PRICE, perWallet * many.length),
  );

  // 3. 50 replays of one key at once.
  const key = 'replayed-key';
  const spare = WALLETS + 1;
  await ledger.post(fund(s, s.wallets[spare], 1_000 * PRICE));
  const replays = await Promise.all(Array.from({ length: 50 }, () => debit(ledger, s, spare, key)));
  const [{ n: pairs }] = await database.query<{ n: string }>(
    `select count(*) as n from ledger_entries e join ledger_transactions t on t.id = e.transaction_id
     where t.idempotency_key = $1`,
    [key],
  );
  verdicts.push(
    exact('50 replays of one key: entries', Number(pairs), 2),
    exact('50 replays: answered as replays', replays.filter((r) => outcome(r) === 'already_charged').length, 49),
  );
  // The killed poster's wallets need money to spend.
  await Promise.all(many.map((w) => ledger.post({ ...fund(s, w, 1_000_000), key: `refund-${w}` })));
  console.log(`batches: ${JSON.stringify(ledger.stats)}`);
  await ledger.close();

  // 4. A poster killed with SIGKILL in the middle.
  const killed = await killMidRun(url, s);
  verdicts.push(atLeast('killed poster: debits committed before the kill', killed, 1, ''));

  const check = await checkLedger(database.db);
  console.log(`ledger check: ${JSON.stringify({ ...check, mismatches: check.mismatches.length })}`);
  verdicts.push(
    exact('entries sum (cents)', check.entriesSum, 0),
    exact('wallets whose cached balance disagrees', check.mismatches.length, 0),
    exact('unbalanced transactions', check.unbalanced.length, 0),
    exact('wallets below zero', check.negativeWallets.length, 0),
  );
  await database.close();
  if (process.env.BENCH_KEEP !== '1') {
    const admin = new pg.Client({ connectionString: BASE_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${NAME} with (force)`);
    await admin.end();
  }
  process.exit(printVerdicts(verdicts) ? 1 : 0);
}

function exact(figure: string, value: number, goal: number): Verdict {
  return { figure, value, goal: `= ${goal.toLocaleString()}`, unit: '', pass: value === goal };
}

/** Starts bench/wallet-worker.ts posting debits, kills it with SIGKILL after a second, answers what it committed. */
async function killMidRun(url: string, s: Seeded) {
  const worker = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'wallet-worker.ts')], {
    env: { ...process.env, WORKER_DATABASE_URL: url, WORKER_SEED: JSON.stringify(s) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve) => worker.stdout.once('data', () => resolve()));
  await new Promise((r) => setTimeout(r, 1_000));
  worker.kill('SIGKILL');
  await new Promise((r) => worker.once('exit', r));
  const pool = new pg.Pool({ connectionString: url });
  const [{ n }] = (
    await pool.query<{ n: string }>(`select count(*) as n from ledger_transactions where idempotency_key like 'kill-%'`)
  ).rows;
  await pool.end();
  console.log(`killed poster: ${n} debits committed before SIGKILL`);
  return Number(n);
}

await main();
