/**
 * The dialer's integration tests talk to a Twilio stand-in on loopback (TWILIO_API_BASE): it records each REST call
 * the server makes (Participants, conference recordings, announce) and serves recordings' audio, and the tests sign
 * callbacks with the account's auth token exactly as Twilio does (twilio.getExpectedTwilioSignature). The lab's
 * tests have a stand-in for the relay's recordings (VOICE_SIP_RECORDINGS_URL).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq, sql } from 'drizzle-orm';
import twilio from 'twilio';
import { createTestApp, DEMO, signIn, type TestApp } from '../../../test/harness.js';
import { LAB_SIGNATURE_HEADER, labSignatureProblem } from '../../integrations/voice/lab-signature.js';
import { users } from '../../platform/db/schema.js';
import { fund } from '../usage-plans/route-test-kit.js';

export const TWILIO_ENV = {
  TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000001',
  TWILIO_AUTH_TOKEN: 'test-auth-token-of-the-account',
  TWILIO_API_KEY: 'SK00000000000000000000000000000001',
  TWILIO_API_SECRET: 'test-api-secret-0000000000000000',
  TWILIO_TWIML_APP_SID: 'AP00000000000000000000000000000001',
};

export interface StandinRequest {
  path: string;
  form: Record<string, string>;
}

export async function startTwilioStandin() {
  const requests: StandinRequest[] = [];
  let legs = 0;
  const audio = Buffer.alloc(8000 * 2 + 44, 1);
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const path = req.url ?? '';
      if (req.method === 'GET' && path.startsWith('/recordings/')) {
        res.writeHead(200, { 'content-type': 'audio/wav' }).end(audio);
        return;
      }
      requests.push({ path, form: Object.fromEntries(new URLSearchParams(body)) });
      res.writeHead(path.includes('/Participants') ? 201 : 200, { 'content-type': 'application/json' });
      legs++;
      res.end(JSON.stringify({ call_sid: `CA${String(legs).padStart(32, 'c')}`, status: 'queued' }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, requests, audio, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/**
 * The lab relay's recordings as the server sees them: `GET /recordings/<sid>.wav`, answered only when signed with
 * the lab's secret over the path. `failures` lists how the next answers go wrong ('500': an error; 'truncated': a
 * WAV cut short, as a dropped connection would leave it); `requests` is every request it got.
 */
export async function startLabRecordingsStandin(secret: string) {
  const requests: { path: string; signed: boolean }[] = [];
  const failures: ('500' | 'truncated')[] = [];
  const samples = 8000 * 3;
  const audio = Buffer.alloc(44 + samples * 2, 3);
  audio.write('RIFF', 0, 'ascii');
  audio.writeUInt32LE(audio.length - 8, 4);
  audio.write('WAVEfmt ', 8, 'ascii');
  const server = http.createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://relay').pathname;
    const signed = labSignatureProblem(secret, req.headers[LAB_SIGNATURE_HEADER], Buffer.from(path)) === null;
    requests.push({ path, signed });
    if (!signed) return void res.writeHead(401).end();
    if (!/^\/recordings\/LR[0-9a-f]{32}\.wav$/.test(path)) return void res.writeHead(404).end();
    const failure = failures.shift();
    if (failure === '500') return void res.writeHead(500).end('relay trouble');
    res.writeHead(200, { 'content-type': 'audio/wav' });
    res.end(failure === 'truncated' ? audio.subarray(0, audio.length / 2) : audio);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/recordings`,
    requests,
    failures,
    audio,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const APP = 'http://localhost:3000';

/** Posts a form to the app signed as Twilio signs it (or with `signature` forged). */
export async function twilioPost(t: TestApp, path: string, form: Record<string, string>, signature?: string) {
  const sig = signature ?? twilio.getExpectedTwilioSignature(TWILIO_ENV.TWILIO_AUTH_TOKEN, `${APP}${path}`, form);
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': sig },
    payload: new URLSearchParams(form).toString(),
  });
}

/** Waits until the voice webhooks' job has worked every stored event (and fails on an event that errored). */
export async function webhooksSettled(t: TestApp, provider = 'twilio-voice') {
  for (let i = 0; i < 400; i++) {
    const res = await t.database.db.execute<{ open: number; failed: string | null }>(
      sql`select count(*) filter (where processed_at is null)::int as open, max(error) as failed
          from webhook_events where provider = ${provider}`,
    );
    const r = res.rows[0];
    if (r.failed) throw new Error(`webhook failed: ${r.failed}`);
    if (Number(r.open) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('voice webhooks did not settle');
}

/**
 * A test app on the Twilio stand-in (or on the voice service `env` names: the local lab's) with the demo agent
 * ready to dial, funded, and one of their contacts.
 */
export async function dialerTestApp(env?: Record<string, string>) {
  const standin = await startTwilioStandin();
  const t = await createTestApp({ env: env ?? { ...TWILIO_ENV, TWILIO_API_BASE: standin.base } });
  const db = t.database.db;
  await makeDialerReady(t, DEMO('agent'));
  const agent = await signIn(t.app, DEMO('agent'));
  const [u] = await db
    .select()
    .from(users)
    .where(eq(users.email, DEMO('agent')));
  await fund(t, DEMO('agent'), 10_000);
  const res = await db.execute<{ number: number; phone: string }>(
    sql`select number, phone from contacts where owner_id = ${u.id} and phone is not null and deleted_at is null
        order by id limit 1`,
  );
  const contact = { number: Number(res.rows[0].number), phone: String(res.rows[0].phone) };
  return {
    t,
    standin,
    agent,
    agentId: u.id,
    contact,
    close: async () => {
      await t.close();
      await standin.close();
    },
  };
}

/** Spec §4 satisfied but for the plan: a verified dialer number, no forced password change, no two-factor demand. */
export async function makeDialerReady(t: TestApp, email: string) {
  await t.database.db
    .update(users)
    .set({ dialerVerifiedPhoneNumber: '+1-813-555-0199', changePassword: false, twoFaRequired: false })
    .where(eq(users.email, email));
}
