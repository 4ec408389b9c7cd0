/**
 * What depends on Redis, through an outage of a real redis-server: jobs still run and BullMQ's wake-ups resume;
 * session invalidations cross processes and the cache fails closed while they cannot; rate limits are shared by
 * every process and fall back to a strict in-process limit, never to none.
 */
import crypto from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimiter, type RateLimitRule } from '../src/platform/http/rate-limit.js';
import { commandOptions } from '../src/platform/redis.js';
import { Client, createTestApp, DEMO, signIn, type TestApp } from './harness.js';
import { RedisServer } from './redis-server.js';

let redis: RedisServer;
let t: TestApp;
const queue = `harbor-resilience-${crypto.randomBytes(4).toString('hex')}`;
const ran: number[] = [];

beforeAll(async () => {
  redis = await RedisServer.onSparePort();
  await redis.start();
  t = await createTestApp({ env: { REDIS_URL: redis.url, JOBS_QUEUE: queue, SESSION_CACHE_MS: '60000' } });
  t.deps.jobs.register('resilience-probe', async ({ job }) => {
    ran.push(Number(job.payload.n));
  });
  await until(() => t.deps.sessionCache.trusted);
}, 120_000);

afterAll(async () => {
  await t?.close();
  await redis?.stop();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(check: () => boolean | Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`not true after ${ms} ms`);
    await sleep(50);
  }
}

const client = () => new Redis(redis.url, { maxRetriesPerRequest: 0, retryStrategy: () => 200 });
/** BullMQ's job counter: it grows only when a wake-up reached Redis. */
async function bullAdds() {
  const c = client();
  try {
    return Number((await c.get(`bull:${queue}:id`)) ?? 0);
  } finally {
    c.disconnect();
  }
}
const health = async () => (await new Client(t.app).get('/v1/health')).body;

describe('jobs through an outage', () => {
  it('run from the table while Redis is down, and BullMQ wake-ups resume when it is back', async () => {
    // The wake-ups' own connection may still be connecting on a loaded machine (a wake-up is skipped, never held,
    // until it is ready): jobs are enqueued until one wake-up reached Redis.
    await until(async () => {
      await t.deps.jobs.enqueue('resilience-probe', { n: 1 });
      await sleep(200);
      return (await bullAdds()) > 0;
    });
    await until(() => ran.includes(1));

    await redis.stop();
    await until(async () => (await health()).redis === 'down');
    expect(await health()).toMatchObject({ status: 'degraded', database_status: 'up' });
    await t.deps.jobs.enqueue('resilience-probe', { n: 2 });
    await until(() => ran.includes(2));

    await redis.start();
    await until(async () => (await health()).status === 'ok');
    // Redis restarted empty: the counter starts over, and counts the wake-up of the next job.
    await until(async () => {
      await t.deps.jobs.enqueue('resilience-probe', { n: 3 });
      await sleep(200);
      return (await bullAdds()) > 0;
    });
    await until(() => ran.includes(3));
  }, 90_000);
});

describe('session invalidation across processes', () => {
  it('publishes its own invalidations and obeys those of other processes', async () => {
    const stream = `${queue}:auth-invalidations`;
    const listener = client();
    const heard: unknown[] = [];
    listener.on('message', (_c, raw) => heard.push(JSON.parse(raw)));
    await listener.subscribe(stream);

    const agent = await signIn(t.app, DEMO('agent'));
    const me = (await agent.get('/v1/users/me')).body;
    expect(t.deps.sessionCache.size).toBeGreaterThan(0);
    // A change made behind the app's back is not seen while the entry lives...
    await t.database.query(`update users set first_name = 'Renamed' where id = $1`, [me.id]);
    expect((await agent.get('/v1/users/me')).body.profile.first_name).not.toBe('Renamed');
    // ...until another process says the user changed.
    const other = client();
    await other.publish(stream, JSON.stringify({ users: [me.id], origin: 'another-process' }));
    other.disconnect();
    await until(async () => (await agent.get('/v1/users/me')).body.profile.first_name === 'Renamed');

    // Signing out here tells every other process.
    expect((await agent.delete('/v1/sessions')).status).toBeLessThan(300);
    await until(() => heard.some((m) => (m as { sessions?: number[] }).sessions?.length === 1));
    listener.disconnect();
  }, 60_000);

  it('fails closed while Redis is unreachable: every request reads the database', async () => {
    const agent = await signIn(t.app, DEMO('manager'));
    const me = (await agent.get('/v1/users/me')).body;
    await redis.stop();
    await until(() => !t.deps.sessionCache.trusted);
    expect(t.deps.sessionCache.size).toBe(0);
    await t.database.query(`update users set first_name = 'Seen at once' where id = $1`, [me.id]);
    expect((await agent.get('/v1/users/me')).body.profile.first_name).toBe('Seen at once');
    await redis.start();
    await until(() => t.deps.sessionCache.trusted);
  }, 60_000);
});

describe('rate limits shared through Redis', () => {
  const rule: RateLimitRule = { name: `probe-${crypto.randomBytes(3).toString('hex')}`, max: 8, windowMs: 60_000 };

  it('count one window for every process, and fall back to a strict in-process limit when Redis is gone', async () => {
    const a = new Redis(redis.url, commandOptions());
    const b = new Redis(redis.url, commandOptions());
    await until(() => a.status === 'ready' && b.status === 'ready');
    const one = new RateLimiter({}, a, queue);
    const two = new RateLimiter({}, b, queue);
    let passed = 0;
    for (let i = 0; i < 6; i++) {
      if ((await one.hit(rule, '10.0.0.1')) === null) passed++;
      if ((await two.hit(rule, '10.0.0.1')) === null) passed++;
    }
    expect(passed).toBe(8);
    const refused = await one.hit(rule, '10.0.0.1');
    expect(Number(refused?.['retry-after'])).toBeGreaterThan(0);

    await redis.stop();
    await until(() => a.status !== 'ready');
    let fallback = 0;
    for (let i = 0; i < 10; i++) if ((await one.hit(rule, '10.0.0.2')) === null) fallback++;
    expect(fallback).toBe(2);
    a.disconnect();
    b.disconnect();
    await redis.start();
  }, 60_000);
});
