import type { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateLimitRule } from './rate-limit.js';

const rule: RateLimitRule = { name: 'sign_in', max: 8, windowMs: 60_000 };
const ceiling: RateLimitRule = { name: 'user', max: 8, windowMs: 60_000, key: 'user', security: false };

async function passes(limiter: RateLimiter, r: RateLimitRule, id: string, n: number, now = 0) {
  let ok = 0;
  for (let i = 0; i < n; i++) if ((await limiter.hit(r, id, now)) === null) ok++;
  return ok;
}

/** A Redis client as it looks while the server is unreachable: never ready, every command refused. */
const downRedis = () =>
  ({
    status: 'reconnecting',
    defineCommand() {},
    rateWindow: () => Promise.reject(new Error('Stream isn\u2019t writeable')),
  }) as unknown as Redis;

describe('RateLimiter (in-process)', () => {
  it('allows max requests per window and key, then answers Retry-After until the window ends', async () => {
    const limiter = new RateLimiter();
    expect(await passes(limiter, rule, '1.2.3.4', 10)).toBe(8);
    expect(await limiter.hit(rule, '1.2.3.4', 15_000)).toEqual({ 'retry-after': '45' });
    expect(await limiter.hit(rule, '5.6.7.8', 15_000)).toBeNull();
    expect(await limiter.hit(rule, '1.2.3.4', 60_000)).toBeNull();
  });

  it('takes maxima from overrides by rule name', async () => {
    expect(await passes(new RateLimiter({ sign_in: 2 }), rule, 'a', 5)).toBe(2);
  });
});

describe('RateLimiter with Redis unreachable', () => {
  it('fails closed: a security rule allows a quarter of its max in-process, never unlimited', async () => {
    const limiter = new RateLimiter({}, downRedis());
    expect(await passes(limiter, rule, 'a', 20)).toBe(2);
  });

  it('keeps a capacity ceiling whole, counted in-process', async () => {
    const limiter = new RateLimiter({}, downRedis());
    expect(await passes(limiter, ceiling, '42', 20)).toBe(8);
  });
});
