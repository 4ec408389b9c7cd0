/**
 * Per-provider throttles ("at most 100 SendGrid messages a second"), shared by every job of every process. A take
 * reserves the next free slot of the key and sleeps until it: callers queue up in order instead of retrying, and a
 * burst of up to `burst` goes at once (the bucket refills at `perSecond`). In-process by default; with REDIS_URL the
 * reservation is one atomic Lua call on Redis's own clock, so all processes share one budget.
 */
import { Redis } from 'ioredis';

export interface ThrottleRule {
  perSecond: number;
  /** How many may go at once after a quiet spell (default: one second's worth). */
  burst?: number;
}

export interface Throttle {
  /** Reserves the next slot for `n` units of `key` and answers how many ms to wait for it. */
  reserve(key: string, rule: ThrottleRule, n?: number): Promise<number>;
  close(): Promise<void>;
}

/** Waits until `n` more units of `key` may go. Rejects (without giving the slot back) when `signal` aborts. */
export async function take(throttle: Throttle, key: string, rule: ThrottleRule, n = 1, signal?: AbortSignal) {
  await sleep(await throttle.reserve(key, rule, n), signal);
}

const interval = (r: ThrottleRule) => 1000 / r.perSecond;
const burstOf = (r: ThrottleRule) => Math.max(1, Math.floor(r.burst ?? r.perSecond));

function sleep(ms: number, signal?: AbortSignal) {
  if (ms <= 0) return signal?.aborted ? Promise.reject(new Error('aborted')) : Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(done, ms);
    function done() {
      signal?.removeEventListener('abort', abort);
      resolve();
    }
    function abort() {
      clearTimeout(timer);
      reject(new Error('aborted'));
    }
    signal?.addEventListener('abort', abort, { once: true });
  });
}

/** The reservation both adapters compute: returns how long to wait and the key's new "theoretical arrival time". */
export function reserveSlot(tat: number, now: number, rule: ThrottleRule, n: number) {
  const t = interval(rule);
  const start = Math.max(tat, now);
  return { wait: Math.max(0, start - now - (burstOf(rule) - 1) * t), tat: start + t * n };
}

export class MemoryThrottle implements Throttle {
  private tats = new Map<string, number>();
  async reserve(key: string, rule: ThrottleRule, n = 1) {
    const r = reserveSlot(this.tats.get(key) ?? 0, Date.now(), rule, n);
    this.tats.set(key, r.tat);
    return r.wait;
  }
  async close() {}
}

// KEYS[1] = key; ARGV = interval ms, burst, n. Redis TIME is the one clock every process agrees on.
const RESERVE_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local interval = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local n = tonumber(ARGV[3])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
if tat < now then tat = now end
local wait = tat - now - (burst - 1) * interval
local newtat = tat + interval * n
redis.call('SET', KEYS[1], tostring(newtat), 'PX', math.ceil(newtat - now) + 1000)
if wait < 0 then wait = 0 end
return math.ceil(wait)
`;

export class RedisThrottle implements Throttle {
  /** Its own connection: a take fails (and its job retries) rather than sending past the budget while Redis is away. */
  static connect(url: string, prefix: string) {
    const redis = new Redis(url, { maxRetriesPerRequest: 2 });
    redis.on('error', (e: Error) => console.error('redis throttle error', e.message));
    return new RedisThrottle(redis, prefix);
  }

  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
  ) {}
  async reserve(key: string, rule: ThrottleRule, n = 1) {
    const wait = await this.redis.eval(
      RESERVE_LUA,
      1,
      `${this.prefix}:throttle:${key}`,
      interval(rule),
      burstOf(rule),
      n,
    );
    return Number(wait);
  }
  async close() {
    await this.redis.quit().catch(() => {});
  }
}
