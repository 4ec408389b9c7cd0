import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  Client,
  createTestApp,
  DEMO,
  DEMO_PASSWORD,
  signIn,
  type TestApp,
  waitForMail,
} from '../../../test/harness.js';
import { passwordResetTokens, signInFailures } from '../../platform/auth/schema.js';
import { users } from '../../platform/db/schema.js';
import { ACCOUNT_CEILING, FREE_FAILURES, waitAfter } from './throttle.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ limits: { password_reset: 100_000 } });
});
afterAll(() => t.close());

async function resetLink(email: string): Promise<string> {
  const mail = await waitForMail(t, email, /Reset/);
  return mail.text!.match(/reset_password_token=([A-Za-z0-9_-]+)/)![1];
}

/** Every SQL statement the app sends while `run` runs (Drizzle builds each through its session's prepareQuery). */
async function statementsDuring(run: () => Promise<unknown>): Promise<string[]> {
  const session = (t.database.db as any).session;
  const original = session.prepareQuery;
  const seen: string[] = [];
  session.prepareQuery = function (query: { sql: string }, ...rest: unknown[]) {
    seen.push(query.sql);
    return original.call(this, query, ...rest);
  };
  try {
    await run();
  } finally {
    session.prepareQuery = original;
  }
  return seen;
}

function from(ip: string) {
  const c = new Client(t.app);
  c.ip = ip;
  return c;
}

/** Makes the failures of a login look older, as if `seconds` had passed. */
async function age(login: string, seconds: number) {
  await t.database.db
    .update(signInFailures)
    .set({ createdAt: sql`${signInFailures.createdAt} - make_interval(secs => ${seconds})` })
    .where(eq(signInFailures.email, login));
}

describe('sign-in throttling', () => {
  it('slows a known and an unknown email down exactly alike, per address', async () => {
    const answers = async (email: string, ip: string) => {
      const c = from(ip);
      const out: Array<[number, string]> = [];
      for (let i = 0; i < FREE_FAILURES + 2; i++) {
        const res = await c.post('/v1/sessions', { email, password: `wrong-${i}` });
        out.push([res.status, JSON.stringify(res.body).replace(/\d+ seconds?/, 'N seconds')]);
      }
      return out;
    };
    const known = await answers(DEMO('basic'), '10.1.0.1');
    const unknown = await answers('nobody-here@demo.harbor.test', '10.1.0.2');
    expect(known).toEqual(unknown);
    expect(known.map(([s]) => s)).toEqual([401, 401, 401, 401, 401, 429, 429]);
    expect(known[5][1]).toMatch(/Too many failed sign-in attempts from this address/);
    // The owner at another address is not slowed down at all.
    const owner = from('10.1.0.99');
    expect((await owner.post('/v1/sessions', { email: DEMO('basic'), password: DEMO_PASSWORD })).status).toBe(200);
  });

  it('refuses inside the wait without checking the password, then lets one attempt through', async () => {
    const email = DEMO('telemarketer');
    const c = from('10.2.0.1');
    for (let i = 0; i < FREE_FAILURES; i++) await c.post('/v1/sessions', { email, password: `wrong-${i}` });
    const waiting = await c.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(waiting.status).toBe(429);
    expect(Number(waiting.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await age(email, 2);
    const ok = await c.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(ok.status).toBe(200);
    // Success forgets this address's failures.
    expect(await t.database.db.select().from(signInFailures).where(eq(signInFailures.ip, '10.2.0.1'))).toEqual([]);
  });

  it('doubles the wait with each failure, up to 15 minutes', () => {
    expect([4, 5, 6, 7, 10, 14, 15, 40].map(waitAfter)).toEqual([0, 1, 2, 4, 32, 512, 900, 900]);
  });

  it('past the account ceiling, the owner still gets in from a known address, and a new one needs an emailed code', async () => {
    const email = DEMO('district_manager');
    // The owner signed in from their office before.
    await from('10.3.0.1').post('/v1/sessions', { email, password: DEMO_PASSWORD });
    // A distributed attack: a few guesses from each of many addresses, each under the per-address threshold.
    const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
    await t.database.db
      .insert(signInFailures)
      .values(
        Array.from({ length: ACCOUNT_CEILING }, (_, i) => ({ userId: u.id, email, ip: `10.4.${i >> 4}.${i & 15}` })),
      );
    const office = await from('10.3.0.1').post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(office.status).toBe(200);
    expect(office.body.user.email).toBe(email);
    const cafe = from('10.5.0.1');
    const step = await cafe.post('/v1/sessions', { email, password: DEMO_PASSWORD });
    expect(step.status).toBe(200);
    expect(step.body).toMatchObject({ otp_secret: true, otp_method: 'email' });
    expect((await cafe.get('/v1/users/me')).status).toBe(401);
    const code = await latestCode(email);
    const done = await cafe.post('/v1/sessions', { otp_code: code });
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(email);
  });

  it('forgets every failure of the account once the password is reset', async () => {
    const email = DEMO('regional_manager');
    const c = from('10.6.0.1');
    for (let i = 0; i < FREE_FAILURES + 3; i++) await c.post('/v1/sessions', { email, password: `wrong-${i}` });
    expect((await c.post('/v1/sessions', { email, password: DEMO_PASSWORD })).status).toBe(429);
    await c.post('/v1/users/reset_password_instructions', { email });
    const token = await resetLink(email);
    const ok = await c.post('/v1/users/reset_password_by_token', {
      reset_password_token: token,
      password: 'a fresh start by the sea',
      password_confirmation: 'a fresh start by the sea',
    });
    expect(ok.status).toBe(200);
    expect((await c.post('/v1/sessions', { email, password: 'a fresh start by the sea' })).status).toBe(200);
  });
});

async function latestCode(to: string) {
  return (await waitForMail(t, to, /sign-in code/)).text!.match(/code is (\d{6})/)![1];
}

describe('per-address limit', () => {
  it('answers 429 with Retry-After past the sign-in limit for one address', async () => {
    const strict = await createTestApp({ limits: { sign_in: 3 } });
    try {
      const c = new Client(strict.app);
      const codes = [];
      for (let i = 0; i < 4; i++) codes.push((await c.post('/v1/sessions', { email: 'x@y.z', password: 'p' })).status);
      expect(codes).toEqual([401, 401, 401, 429]);
    } finally {
      await strict.close();
    }
  });
});

describe('password reset', () => {
  it('does the same work in the request for a known and an unknown email: one job, nothing else', async () => {
    const c = new Client(t.app);
    await c.get('/v1/health');
    // The job runner is paused so that only the request's own statements are seen.
    await t.deps.jobs.stop();
    try {
      const known = await statementsDuring(() =>
        c.post('/v1/users/reset_password_instructions', { email: DEMO('agent') }),
      );
      const unknown = await statementsDuring(() =>
        c.post('/v1/users/reset_password_instructions', { email: 'ghost@demo.harbor.test' }),
      );
      expect(known).toEqual(unknown);
      expect(known).toHaveLength(1);
      expect(known[0]).toMatch(/^insert into "?jobs"? /);
    } finally {
      t.deps.jobs.start();
    }
    // The job then does the rest for the known address only.
    expect(await resetLink(DEMO('agent'))).toBeTruthy();
  });

  it('answers the same to a known and an unknown email', async () => {
    const c = new Client(t.app);
    const known = await c.post('/v1/users/reset_password_instructions', { email: DEMO('agent') });
    const unknown = await c.post('/v1/users/reset_password_instructions', { email: 'ghost@demo.harbor.test' });
    expect(known.status).toBe(200);
    expect(unknown.body).toEqual(known.body);
    expect((await c.post('/v1/users/reset_password_instructions', { email: 'not-an-email' })).status).toBe(422);
  });

  it('resets with the emailed token once, ends existing sessions, and the token cannot be reused', async () => {
    const email = DEMO('telemarketer');
    const session = await signIn(t.app, email);
    const c = new Client(t.app);
    await c.post('/v1/users/reset_password_instructions', { email });
    const token = await resetLink(email);
    const body = {
      reset_password_token: token,
      password: 'brand new passphrase',
      password_confirmation: 'brand new passphrase',
    };
    const ok = await c.post('/v1/users/reset_password_by_token', body);
    expect(ok.status).toBe(200);
    expect((await session.get('/v1/users/me')).status).toBe(401);
    await signIn(t.app, email, 'brand new passphrase');
    const again = await c.post('/v1/users/reset_password_by_token', {
      ...body,
      password: 'x'.repeat(10),
      password_confirmation: 'x'.repeat(10),
    });
    expect(again.status).toBe(422);
    expect(again.body.errors.reset_password_token).toEqual(['is invalid or has expired']);
  });

  it('refuses an expired token and a mismatched confirmation', async () => {
    const email = DEMO('agent');
    const c = new Client(t.app);
    await c.post('/v1/users/reset_password_instructions', { email });
    const token = await resetLink(email);
    const mismatch = await c.post('/v1/users/reset_password_by_token', {
      reset_password_token: token,
      password: 'long enough one',
      password_confirmation: 'long enough two',
    });
    expect(mismatch.status).toBe(422);
    const [u] = await t.database.db.select().from(users).where(eq(users.email, email));
    await t.database.db
      .update(passwordResetTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(passwordResetTokens.userId, u.id));
    const expired = await c.post('/v1/users/reset_password_by_token', {
      reset_password_token: token,
      password: 'long enough one',
      password_confirmation: 'long enough one',
    });
    expect(expired.status).toBe(422);
    await signIn(t.app, email);
  });
});
