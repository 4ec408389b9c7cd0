/**
 * Request limits, a fixed window per (rule, key). The key is what a rule counts: the caller's address for public
 * routes and anonymous callers, the signed-in user, or the API key (the rules: rate-limit-rules.ts, the reasons:
 * docs/decisions/rate-limits.md). Ordinary signed-in traffic is never counted per address, so an office behind one
 * NAT address is not one caller.
 *
 * With Redis (REDIS_URL) a window is one key shared by every process (INCR and PEXPIRE in one Lua call, atomic).
 * Without Redis it lives in this process, which is then the only one. When Redis is configured but unreachable, the
 * limits fail closed: each process counts in-process, and a security rule (sign-in, reset, one-time codes, public
 * routes) allows only a quarter of its maximum there, since several processes now each count apart.
 */
import type { Redis } from 'ioredis';

export type RateLimitKey = 'address' | 'user' | 'api_key';

export interface RateLimitRule {
  /** Rule name: windows are kept per rule and key; RATE_LIMITS and tests override `max` by name. */
  name: string;
  max: number;
  windowMs: number;
  /** What is counted. Default: the address on public routes, the (possibly half-signed-in) user elsewhere. */
  key?: RateLimitKey;
  /**
   * Guards accounts or anonymous access (default) rather than capacity. Decides the fallback while Redis is
   * unreachable: a quarter of max, in-process, instead of the whole max in-process.
   */
  security?: boolean;
}

/** Public routes without a rule of their own, and anonymous callers of any other route: per address. */
export const PUBLIC_RULE: RateLimitRule = { name: 'public', max: 600, windowMs: 60_000, key: 'address' };
/** A generous ceiling per signed-in person, wherever they connect from (several tabs, a busy office). */
export const USER_RULE: RateLimitRule = { name: 'user', max: 3_000, windowMs: 60_000, key: 'user', security: false };
/** Scripts calling with an API key: per key. */
export const API_KEY_RULE: RateLimitRule = {
  name: 'api_key',
  max: 1_200,
  windowMs: 60_000,
  key: 'api_key',
  security: false,
};

/** Retry-After for a 429, or null when the request may pass. */
export type Verdict = Record<string, string> | null;

const WINDOW_SCRIPT = `
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

type WindowRedis = Redis & { rateWindow(key: string, windowMs: number): Promise<[number, number]> };

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number; windowMs: number }>();
  private readonly redis: WindowRedis | null;

  constructor(
    private readonly overrides: Record<string, number> = {},
    redis: Redis | null = null,
    /** Prefix of the Redis keys: processes sharing a database share it. */
    private readonly namespace = 'harbor',
  ) {
    if (redis) redis.defineCommand('rateWindow', { numberOfKeys: 1, lua: WINDOW_SCRIPT });
    this.redis = redis as WindowRedis | null;
  }

  maxOf(rule: RateLimitRule) {
    return this.overrides[rule.name] ?? rule.max;
  }

  /** Counts one request of `id` (an address, a user id, a key id) against the rule. */
  async hit(rule: RateLimitRule, id: string | number, now = Date.now()): Promise<Verdict> {
    const max = this.maxOf(rule);
    const key = `${rule.name}:${id}`;
    if (!this.redis) return this.local(key, max, rule.windowMs, now);
    if (this.redis.status === 'ready') {
      try {
        const [count, ttl] = await this.redis.rateWindow(`${this.namespace}:rl:${key}`, rule.windowMs);
        if (count <= max) return null;
        return { 'retry-after': String(Math.max(1, Math.ceil(ttl / 1000))) };
      } catch {
        // Timed out or dropped mid-call: count here, as below.
      }
    }
    const security = rule.security ?? true;
    return this.local(`fallback:${key}`, security ? Math.max(1, Math.floor(max / 4)) : max, rule.windowMs, now);
  }

  private local(key: string, max: number, windowMs: number, now: number): Verdict {
    let w = this.windows.get(key);
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0, windowMs };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.sweep(now);
    }
    w.count += 1;
    if (w.count <= max) return null;
    return { 'retry-after': String(Math.max(1, Math.ceil((w.start + windowMs - now) / 1000))) };
  }

  private sweep(now: number) {
    for (const [k, w] of this.windows) if (now - w.start >= w.windowMs) this.windows.delete(k);
  }
}
