/**
 * Issue 11: a broadcast to BENCH_RECIPIENTS contacts (default 100,000) through the real server process and the local
 * SMTP stand-in (10% of SMTP attempts answered 451): first with nothing killed, for the pace (messages per second
 * reaching the stand-in, first to last); then again with the server killed (SIGKILL) and restarted 5 times during
 * the run. Prints, each beside its goal: the request time; messages per allowed recipient (exactly one each), to
 * opted-out ones (none); then every message's
 * provider events (processed, delivered, open) posted three times each, shuffled, signed: log rows per message and
 * event (one), and statuses (none moved backwards).
 *   node --import tsx bench/email.ts        (BENCH_RECIPIENTS=5000 for a quick run; BENCH_KILLS, BENCH_DB)
 */
import crypto from 'node:crypto';
import pg from 'pg';
import { benchDatabase, benchEmail, cpuOf, signInHttp, startServer } from './http-harness.js';

const N = Number(process.env.BENCH_RECIPIENTS ?? 100_000);
const KILLS = Number(process.env.BENCH_KILLS ?? 5);
const verdicts: Array<[string, string, string, boolean]> = [];
const judge = (what: string, value: string, goal: string, ok: boolean) => verdicts.push([what, value, goal, ok]);

const db = await benchDatabase({ contacts: N, name: process.env.BENCH_DB ?? 'harbor_bench_email' });
const client = new pg.Client({ connectionString: db.url });
await client.connect();
const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) =>
  (await client.query(text, params)).rows as T[];

// 1% of the book opted out of email (on the record, as an agent would have recorded it).
await q(
  `insert into contact_consents (contact_id, channel, sender_id, company_id, status, source)
   select id, 'email', 0, company_id, 'opted_out', 'agent' from contacts where company_id = $1 and id % 100 = 7`,
  [db.seeded.companyId],
);
const [{ allowed }] = await q<{ allowed: number }>(
  `select count(*)::int as allowed from contacts c where c.company_id = $1 and c.deleted_at is null
     and nullif(trim(c.email), '') is not null and c.email_status <> 'invalid'
     and not exists (select 1 from contact_consents k where k.contact_id = c.id and k.channel = 'email' and k.status = 'opted_out')`,
  [db.seeded.companyId],
);

const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
const env = {
  HARBOR_ENV: 'stage',
  MAIL_STANDIN_FAIL_PERCENT: '10',
  MAIL_RATE: '100000',
  JOBS_CONCURRENCY: '8',
  SENDGRID_WEBHOOK_PUBLIC_KEY: publicKey.export({ type: 'spki', format: 'der' }).toString('base64'),
  // The stand-in signs its own events with the same key, as SendGrid signs with the one key its webhook holds.
  MAIL_STANDIN_EVENT_PRIVATE_KEY: privateKey.export({ type: 'pkcs8', format: 'der' }).toString('base64'),
};
let server = await startServer({ databaseUrl: db.url, env });
const admin = await signInHttp(server.url, benchEmail(1));
const post = async (url: string, path: string, body: unknown, headers = admin.headers) => {
  const res = await fetch(`${url}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};
const tpl = await post(server.url, '/v1/admin/emails', {
  name: 'Bench AEP',
  subject: 'AEP opens soon, {{first_name}}',
  body_html: '<p>Hi {{first_name}}, AEP opens October 15. {{agent_name}}</p>',
});
if (tpl.status !== 201) throw new Error(`template: ${tpl.status} ${JSON.stringify(tpl.body)}`);

// A second template for the second broadcast: the same email to the same book twice in a row is refused (409).
const tpl2 = await post(server.url, '/v1/admin/emails', {
  name: 'Bench AEP reminder',
  subject: 'AEP is open, {{first_name}}',
  body_html: '<p>Hi {{first_name}}, AEP is open until December 7. {{agent_name}}</p>',
});
if (tpl2.status !== 201) throw new Error(`template: ${tpl2.status} ${JSON.stringify(tpl2.body)}`);
const broadcast = async (emailId: unknown) => {
  const t = performance.now();
  const r = await post(server.url, '/v1/contacts/send_broadcast_email', {
    email_id: emailId,
    all: true,
    contacts_scope: {},
  });
  if (r.status !== 201) throw new Error(`broadcast: ${r.status} ${JSON.stringify(r.body)}`);
  return { id: Number(r.body.id), ms: performance.now() - t };
};
const received = async () => Number((await q<{ n: number }>(`select count(*)::int as n from dev_mails`))[0].n);
const progressOf = async (broadcastId: number) =>
  (
    await q<{ status: string; sent: number; removed: number; total: number }>(
      `select status, sent, removed, total from broadcasts where id = $1`,
      [broadcastId],
    )
  )[0];

// 1a. The pace: a broadcast with nothing killed, from the first message the stand-in received to the last.
{
  const cpu0 = cpuOf(server.process.pid);
  const t0 = performance.now();
  const pace = await broadcast(tpl.body.id);
  const t = performance.now();
  for (;;) {
    const p = await progressOf(pace.id);
    if (p.status === 'completed' || p.status === 'failed') break;
    if (performance.now() - t > 30 * 60_000) throw new Error('the pace broadcast did not finish in 30 minutes');
    await new Promise((r) => setTimeout(r, 200));
  }
  const [span] = await q<{ n: number; secs: number }>(
    `select count(*)::int as n, extract(epoch from max(created_at) - min(created_at))::float8 as secs from dev_mails`,
  );
  const paceRate = (Number(span.n) - 1) / Math.max(0.001, Number(span.secs));
  const busy = (cpuOf(server.process.pid) - cpu0) / ((performance.now() - t0) / 1000);
  judge(
    `messages/s to the SMTP stand-in, no kills (${Number(span.n).toLocaleString()} over ${Number(span.secs).toFixed(1)} s)`,
    paceRate.toFixed(0),
    '>= 500',
    paceRate >= 500,
  );
  console.log(
    `(pace broadcast: ${paceRate.toFixed(0)} messages/s; the server process used ${(busy * 100).toFixed(0)}% of a core, ${((1000 * busy) / paceRate).toFixed(2)} ms a message)`,
  );
  // Where the time went: the last messages are the ones a 451 sent back more than once, each waiting out its backoff
  // (2 s, 4 s, 8 s, ...). The middle 98% of arrivals is the steady pace; the goal's figure above includes the tail.
  const [tail] = await q<{ p01: number; p99: number; last: number }>(
    `with t as (select extract(epoch from created_at - min(created_at) over ())::float8 as s from dev_mails)
     select percentile_cont(0.01) within group (order by s) as p01, percentile_cont(0.99) within group (order by s) as p99,
       max(s) as last from t`,
  );
  console.log(
    `(arrivals: 1% at ${tail.p01.toFixed(1)} s, 99% at ${tail.p99.toFixed(1)} s, the last at ${tail.last.toFixed(1)} s: ${((0.98 * Number(span.n)) / Math.max(0.001, tail.p99 - tail.p01)).toFixed(0)} messages/s between the 1st and 99th percentile)`,
  );
  // The stand-in's inbox starts empty for the second broadcast: what follows counts its messages only.
  await q('delete from dev_mails');
}

// 1b. Exactly once through kills: a second broadcast to the same book.
const sent = await broadcast(tpl2.body.id);
const id = sent.id;
judge('send_broadcast_email request', `${sent.ms.toFixed(0)} ms`, '<= 1000 ms', sent.ms <= 1000);
const progress = () => progressOf(id);

// Kill at evenly spaced shares of the allowed recipients received; restart at once.
let upMs = 0;
let upSince = performance.now();
let kills = 0;
const started = performance.now();
for (;;) {
  const p = await progress();
  const got = await received();
  if (p.status === 'completed' || p.status === 'failed') break;
  if (kills < KILLS && got >= ((kills + 1) * allowed) / (KILLS + 1)) {
    server.process.kill('SIGKILL');
    upMs += performance.now() - upSince;
    kills++;
    server = await startServer({ databaseUrl: db.url, env });
    upSince = performance.now();
    console.log(`killed the server at ${got.toLocaleString()} received (kill ${kills}); restarted`);
  }
  if (performance.now() - started > 30 * 60_000) throw new Error('the broadcast did not finish in 30 minutes');
  await new Promise((r) => setTimeout(r, 200));
}
upMs += performance.now() - upSince;
const total = await received();
const [{ secs }] = await q<{ secs: number }>(
  `select count(distinct date_trunc('second', created_at))::int as secs from dev_mails`,
);
// Restarts excluded, but not a restarted process's first seconds nor the trickle of retried and ambiguous messages
// settled after each: what the crashes cost, not the pace (1a).
console.log(
  `(through the kills: ${(total / Math.max(1, Number(secs))).toFixed(0)} messages/s over the ${secs} seconds the stand-in was receiving)`,
);
console.log(
  `(all ${total.toLocaleString()} messages over ${(upMs / 1000).toFixed(0)} s of server time, restarts and waits included: ${(total / (upMs / 1000)).toFixed(0)}/s)`,
);

const [dup] = await q<{ n: number }>(
  `select count(*)::int as n from (select unique_args->>'harbor_message_id' m from dev_mails group by 1 having count(*) > 1) d`,
);
const [per] = await q<{ recipients: number; extra: number }>(
  `select count(distinct "to")::int as recipients, (count(*) - count(distinct "to"))::int as extra from dev_mails`,
);
const [outs] = await q<{ n: number }>(
  `select count(*)::int as n from dev_mails d join contacts c on lower(trim(c.email)) = d."to"
    join contact_consents k on k.contact_id = c.id and k.channel = 'email' and k.status = 'opted_out'`,
);
judge('allowed recipients reached', `${per.recipients} of ${allowed}`, `= ${allowed}`, per.recipients === allowed);
judge(
  'messages beyond one per recipient',
  String(Number(per.extra) + Number(dup.n)),
  '0',
  Number(per.extra) + Number(dup.n) === 0,
);
judge('messages to opted-out contacts', String(outs.n), '0', Number(outs.n) === 0);

// Provider events x3, shuffled, out of order: processed after delivered after open.
const messages = await q<{ id: number; to_address: string; company_id: number }>(
  `select id, to_address, company_id from email_messages where broadcast_id = $1`,
  [id],
);
const events = messages.flatMap((m) =>
  ['open', 'delivered', 'processed'].map((event) => ({
    email: m.to_address,
    event,
    timestamp: Math.floor(Date.now() / 1000),
    sg_event_id: `bench-${m.id}-${event}`,
    harbor_message_id: String(m.id),
    company_id: String(m.company_id),
  })),
);
const tripled = [...events, ...events, ...events].sort(() => Math.random() - 0.5);
for (let i = 0; i < tripled.length; i += 2_000) {
  const body = JSON.stringify(tripled.slice(i, i + 2_000));
  const ts = String(Math.floor(Date.now() / 1000));
  const signature = crypto.sign('sha256', Buffer.from(ts + body), privateKey).toString('base64');
  const res = await fetch(`${server.url}/v1/webhooks/sendgrid`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-twilio-email-event-webhook-signature': signature,
      'x-twilio-email-event-webhook-timestamp': ts,
    },
    body,
  });
  if (res.status !== 200) throw new Error(`events: ${res.status} ${await res.text()}`);
}
for (;;) {
  const [{ n }] = await q<{ n: number }>(
    `select count(*)::int as n from webhook_events where provider = 'sendgrid' and processed_at is null`,
  );
  if (Number(n) === 0) break;
  await new Promise((r) => setTimeout(r, 500));
}
const [logs] = await q<{ rows: number; pairs: number; opens: number }>(
  `select count(*)::int as rows, count(distinct (message_id, event))::int as pairs,
     coalesce(max(count) filter (where event = 'open'), 0)::int as opens
   from email_events e join email_messages m on m.id = e.message_id where m.broadcast_id = $1`,
  [id],
);
judge(
  'log rows per message and event',
  `${logs.rows} rows / ${logs.pairs} pairs, max opens ${logs.opens}`,
  'rows = pairs, opens = 1',
  logs.rows === logs.pairs && Number(logs.opens) === 1,
);
const [back] = await q<{ n: number }>(
  `select count(*)::int as n from email_messages where broadcast_id = $1 and status <> 'opened'`,
  [id],
);
judge('messages not at "opened" after the shuffled events', String(back.n), '0', Number(back.n) === 0);

await server.stop();
await client.end();
await db.done();
console.log(
  `\nbroadcast of ${N.toLocaleString()} contacts (${allowed.toLocaleString()} allowed), ${kills} kills, 10% temporary SMTP failures`,
);
for (const [what, value, goal, ok] of verdicts)
  console.log(`${ok ? 'pass' : 'FAIL'}  ${what}: ${value} (goal ${goal})`);
process.exitCode = verdicts.every((v) => v[3]) ? 0 : 1;
