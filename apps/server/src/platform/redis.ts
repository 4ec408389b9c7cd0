/**
 * Every ioredis client of the process comes from here, so none lacks an error listener (an 'error' event without
 * one ends the process) and all share the retry policy: reconnect forever with a capped backoff, and fail a command
 * at once while disconnected instead of queueing it, so a Redis outage turns into fast, handled errors the callers
 * fall back from (in-process limits, the job poller, dropped live frames) rather than hung requests.
 */
import { Redis, type RedisOptions } from 'ioredis';

/** Reconnect backoff: 100 ms, 200 ms, ... capped at 2 s, for as long as the process lives. */
export const reconnectDelay = (attempt: number) => Math.min(attempt * 100, 2_000);

/** Options for a client that sends ordinary commands (rate limits, publishing). */
export function commandOptions(extra: RedisOptions = {}): RedisOptions {
  return {
    retryStrategy: reconnectDelay,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 5_000,
    // A Redis that accepts connections but does not answer must not hold a request for long.
    commandTimeout: 1_000,
    ...extra,
  };
}

export type RedisState = 'up' | 'down';

const lastLogged = new Map<string, number>();

/** Logs a Redis client's error at most every 10 s per client: a reconnect loop would print one per attempt. */
export function logRedisError(client: string, err: Error) {
  const now = Date.now();
  if (now - (lastLogged.get(client) ?? 0) < 10_000) return;
  lastLogged.set(client, now);
  console.error(`redis (${client}) error: ${err.message}`);
}

/** The process's Redis clients; health reports Redis down while any of them is not connected. */
export class RedisClients {
  private clients = new Map<string, Redis>();

  constructor(readonly url: string) {}

  create(name: string, options: RedisOptions = commandOptions()): Redis {
    const client = new Redis(this.url, options);
    client.on('error', (err: Error) => logRedisError(name, err));
    this.clients.set(name, client);
    return client;
  }

  get state(): RedisState {
    for (const c of this.clients.values()) if (c.status !== 'ready') return 'down';
    return 'up';
  }

  /**
   * Resolves once every client is connected (or after `timeoutMs`). A process serves while Redis connects (limits
   * count locally until then); a test that counts requests waits, or its first ones are counted in two places.
   */
  async whenReady(timeoutMs = 10_000) {
    const end = Date.now() + timeoutMs;
    while (this.state !== 'up' && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  }

  async close() {
    await Promise.allSettled([...this.clients.values()].map((c) => c.quit().catch(() => c.disconnect())));
    this.clients.clear();
  }
}
