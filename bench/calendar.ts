/**
 * Benchmark of the calendar (issue 14) on the PostgreSQL server: 1,000,000 events across the 200 bench users (two
 * years around today, half tied to a contact, past ones mostly done) in a company holding 1,000,000 contacts (a
 * quarter with a Part B date), all seeded set-based (COPY for contacts, one INSERT ... SELECT for events).
 *
 *   node --import tsx bench/calendar.ts     (DATABASE_URL; BENCH_DB, BENCH_KEEP=1, BENCH_REUSE=1, BENCH_RUNS)
 *
 * Measured over real HTTP against the server as its own process (one request at a time, so a figure is the
 * latency of one person's request: session, reach check, query, presenter, JSON), and as bare SQL for reference:
 *   - a month view of an agent's own calendar                          goal p95 <= 10 ms
 *   - a manager's month view of a downline agent (downline_user_id)    goal p95 <= 25 ms
 *   - the today queue (today_events, overdue first)                    goal p95 <= 10 ms
 *   - the date-engine filters over 1,000,000 contacts (turning 65 in 90 days, in Medigap OE), first page
 *                                                                      goal p95 <= 50 ms
 */
import { addMonths, dateInZone, firstOfMonth, lastOfMonth, toUsDate } from '@harbor/shared';
import pg from 'pg';
import {
  atMost,
  benchDatabase,
  benchEmail,
  printVerdicts,
  signInHttp,
  startServer,
  type Verdict,
} from './http-harness.js';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function timed(runs: number, once: (i: number) => Promise<void>) {
  for (let i = 0; i < 20; i++) await once(i); // warm caches and plans
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await once(i);
    samples.push(performance.now() - t0);
  }
  samples.sort((a, b) => a - b);
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/**
 * The events, set-based: two years around now, every 15 minutes somewhere, 2% of each user's past left open. (The
 * open ones were once picked by `i % 50`, which with the user as `i % 200` left four users all of them and the
 * sampled agents none: the today queue was measured empty.)
 */
async function seedEvents(client: pg.Client, companyId: number) {
  const [{ n }] = (
    await client.query<{ n: string }>('select count(*) as n from calendar_events where company_id = $1', [companyId])
  ).rows;
  if (Number(n) >= EVENTS) return console.log(`events: ${Number(n).toLocaleString()} already there`);
  await client.query('delete from calendar_events where company_id = $1', [companyId]);
  const t0 = performance.now();
  await client.query(
    `insert into calendar_events (company_id, user_id, contact_id, type, title, location, starts_at, ends_at, due_at,
       done_at, created_by)
     select $1, u.ids[1 + i % u.n], case when i % 2 = 0 then c.lo + (i::bigint * 7919) % c.n end,
       (array['appointment','follow_up','call_back','birthday','task','meeting','reminder','other'])[1 + (i * 7) % 8],
       'Event ' || i, case when i % 5 = 0 then 'Office' end, t.s, t.s + interval '30 minutes', t.s,
       case when t.s < now() and (i / 200) % 50 <> 0 then t.s + interval '1 hour' end, u.ids[1 + i % u.n]
     from generate_series(1, $2::int) i,
       (select array_agg(id order by id) ids, count(*)::int n from users where company_id = $1) u,
       (select min(id) lo, count(*)::bigint n from contacts where company_id = $1) c,
       lateral (select date_trunc('hour', now()) - interval '365 days'
         + ((i::bigint * 7919) % (730 * 96)) * interval '15 minutes' as s) t`,
    [companyId, EVENTS],
  );
  console.log(`events: ${EVENTS.toLocaleString()} inserted in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

/** A quarter of the contacts get a Part B date near their 65th birthday (some later), for the Medigap filter. */
async function seedPartB(client: pg.Client, companyId: number) {
  const [{ n }] = (
    await client.query<{ n: string }>(
      'select count(*) as n from contacts where company_id = $1 and part_b_effective is not null',
      [companyId],
    )
  ).rows;
  if (Number(n) > 0) return;
  const t0 = performance.now();
  await client.query(
    `update contacts set part_b_effective = (date_trunc('month', date_of_birth + interval '65 years')
       + (id % 4) * interval '1 month')::date
     where company_id = $1 and id % 4 = 0`,
    [companyId],
  );
  console.log(`contacts: Part B dates set in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
}

async function main() {
  const db = await benchDatabase({ name: process.env.BENCH_DB ?? 'harbor_bench_calendar' });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const verdicts: Verdict[] = [];
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    const companyId = db.seeded.companyId;
    await seedPartB(client, companyId);
    await seedEvents(client, companyId);
    await client.query('vacuum analyze calendar_events');
    await client.query('vacuum analyze contacts');

    // Who is who: agents (user42..), a manager with agents below them, and one of those agents.
    const users = (
      await client.query<{ id: number; email: string; tree_path: number[] }>(
        'select id, email, tree_path from users where company_id = $1 order by id',
        [companyId],
      )
    ).rows;
    const byEmail = new Map(users.map((u) => [u.email, u]));
    const agents = Array.from({ length: 10 }, (_, i) => byEmail.get(benchEmail(42 + i))!);
    const manager = byEmail.get(benchEmail(3))!;
    const below = users.filter((u) => u.id !== manager.id && u.tree_path.includes(manager.id)).slice(0, 20);
    console.log(`manager ${manager.email}: ${below.length} downline users sampled`);

    server = await startServer({ databaseUrl: db.url });
    const sessions = await Promise.all(agents.slice(0, 5).map((a) => signInHttp(server!.url, a.email)));
    const managerSession = await signInHttp(server.url, manager.email);
    const adminSession = await signInHttp(server.url, benchEmail(1));
    const get = async (session: { headers: Record<string, string> }, path: string, body?: unknown) => {
      const res = await fetch(`${server!.url}${path}`, {
        method: body === undefined ? 'GET' : 'PATCH',
        headers: { ...session.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`${path}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<{ data: unknown[] }>;
    };

    // The floor: what any request costs on this machine right now (a loaded two-core box moves every figure).
    const floor = await timed(RUNS, async () => {
      const res = await fetch(`${server!.url}/v1/health`);
      await res.text();
    });
    console.log(`request floor (GET /v1/health): p50 ${round(floor.p50)} ms, p95 ${round(floor.p95)} ms`);

    const today = dateInZone(new Date(), 'America/New_York');
    const months = [-2, -1, 0, 1, 2].map((k) => {
      const first = addMonths(firstOfMonth(today), k);
      return `start_date=${toUsDate(first)}&end_date=${toUsDate(lastOfMonth(first))}`;
    });
    const sizes: number[] = [];
    const month = await timed(RUNS, async (i) => {
      const r = await get(sessions[i % sessions.length], `/v1/events?${months[i % months.length]}`);
      sizes.push(r.data.length);
    });
    verdicts.push(atMost('month view (own calendar) p95', round(month.p95), 10, 'ms', note(month, sizes)));

    sizes.length = 0;
    const downline = await timed(RUNS, async (i) => {
      const target = below[i % below.length];
      const r = await get(managerSession, `/v1/events?${months[i % months.length]}&downline_user_id=${target.id}`);
      sizes.push(r.data.length);
    });
    verdicts.push(atMost('manager downline month view p95', round(downline.p95), 25, 'ms', note(downline, sizes)));

    sizes.length = 0;
    const todayRange = `start_date=${toUsDate(today)}&end_date=${toUsDate(today)}&today_events=true`;
    const queue = await timed(RUNS, async (i) => {
      const r = await get(sessions[i % sessions.length], `/v1/events?${todayRange}`);
      sizes.push(r.data.length);
    });
    verdicts.push(atMost('today queue p95', round(queue.p95), 10, 'ms', note(queue, sizes)));

    for (const [label, search] of [
      ['turning 65 in 90 days', [{ field: 'turning_65_within', value: '90' }]],
      ['in Medigap OE', [{ field: 'medigap_oe', value: 'true' }]],
    ] as const) {
      sizes.length = 0;
      const r = await timed(Math.min(RUNS, 200), async () => {
        const page = await get(adminSession, '/v1/contacts', { search, limit: 50 });
        sizes.push(page.data.length);
      });
      verdicts.push(atMost(`contacts "${label}" (1M, admin) p95`, round(r.p95), 50, 'ms', note(r, sizes)));
    }

    // The same month view as bare SQL, for the ratio (what the route adds: session, reach, presenter, JSON): the
    // statement eventsInRange sends (apps/server/src/modules/events/queries.ts, rangeSelect), same parameters.
    const [range] = months.slice(2, 3);
    const sp = new URLSearchParams(range);
    const bare = await timed(RUNS, async (i) => {
      await client.query({
        text: `select e.id, e.user_id, e.contact_id, e.type, e.title, e.location, e.starts_at, e.ends_at,
           e.all_day, e.due_at, e.snoozed_until, e.done_at, e.products, e.soa_request_id, e.soa_exception,
           e.reminder_minutes, e.reminder_email, e.created_at, e.updated_at,
           case when e.has_description then (select d.description from calendar_events d where d.id = e.id) end
             as description,
           trim(u.first_name || ' ' || u.last_name) as user_name,
           c.number as contact_number, trim(c.first_name || ' ' || c.last_name) as contact_name
         from calendar_events e join users u on u.id = e.user_id left join contacts c on c.id = e.contact_id
         where e.user_id = $1 and e.company_id = $2 and e.starts_at >= $3::date - 31 and e.starts_at < $4::date + 1
           and (e.ends_at > $3::date or e.starts_at >= $3::date) order by e.starts_at, e.id limit 2001`,
        values: [agents[i % agents.length].id, companyId, usToIso(sp.get('start_date')!), usToIso(sp.get('end_date')!)],
        types: asDrizzle,
      });
    });
    console.log(`\nbare SQL month view: p50 ${round(bare.p50)} ms, p95 ${round(bare.p95)} ms`);
  } finally {
    printVerdicts(verdicts);
    await server?.stop();
    await client.end();
    await db.done();
  }
}

/** Timestamps stay PostgreSQL's text, as Drizzle's node-postgres driver leaves them (no `Date` parsing per value). */
const asDrizzle = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.TIMESTAMPTZ || oid === pg.types.builtins.TIMESTAMP
      ? (value: string) => value
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};
const round = (ms: number) => Math.round(ms * 100) / 100;
const note = (r: { p50: number }, sizes: number[]) =>
  `p50 ${round(r.p50)} ms, ${Math.round(sizes.reduce((a, b) => a + b, 0) / Math.max(1, sizes.length))} rows a reply`;
const usToIso = (us: string) => `${us.slice(6)}-${us.slice(0, 2)}-${us.slice(3, 5)}`;

await main();
