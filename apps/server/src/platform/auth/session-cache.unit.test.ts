import { describe, expect, it } from 'vitest';
import { type Bus, type Listener, MemoryBus } from '../live/bus.js';
import { invalidateAuth } from './invalidation.js';
import { type FoundSession, SessionCache } from './session-cache.js';

/** A bus whose connection the test controls, as a Redis bus's would come and go. */
class SwitchBus implements Bus {
  private inner = new MemoryBus();
  private up = true;
  private watchers: Array<(c: boolean) => void> = [];
  get connected() {
    return this.up;
  }
  onConnectionChange(l: (c: boolean) => void) {
    this.watchers.push(l);
  }
  set(up: boolean) {
    this.up = up;
    for (const w of this.watchers) w(up);
  }
  publish(stream: string, message: unknown) {
    return this.inner.publish(stream, message);
  }
  subscribe(stream: string, listener: Listener) {
    return this.inner.subscribe(stream, listener);
  }
  close() {
    return this.inner.close();
  }
}

const found = (sessionId: number, userId: number, companyId = 1, state = 'active') =>
  ({
    session: { id: sessionId, state, expiresAt: new Date(Date.now() + 3_600_000), lastSeenAt: new Date() },
    user: { id: userId, roles: ['agent'] },
    company: { id: companyId },
  }) as unknown as FoundSession;

function counting(value: FoundSession | null) {
  const calls = { n: 0 };
  const load = async () => {
    calls.n++;
    return value === null ? null : structuredClone(value);
  };
  return { calls, load };
}

async function cacheOn(bus: Bus) {
  const cache = new SessionCache(bus, 60_000, 'test-invalidations');
  await cache.start();
  return cache;
}

describe('SessionCache', () => {
  it('serves a resolved active session from memory until an invalidation names it', async () => {
    const cache = await cacheOn(new MemoryBus());
    const { calls, load } = counting(found(1, 10));
    await cache.resolve('h1', load);
    await cache.resolve('h1', load);
    expect(calls.n).toBe(1);
    invalidateAuth({ sessions: [1] });
    await cache.resolve('h1', load);
    expect(calls.n).toBe(2);
    invalidateAuth({ users: [10] });
    await cache.resolve('h1', load);
    invalidateAuth({ companies: [1] });
    await cache.resolve('h1', load);
    expect(calls.n).toBe(4);
    invalidateAuth({ users: [99], sessions: [98], companies: [97] });
    await cache.resolve('h1', load);
    expect(calls.n).toBe(4);
    await cache.close();
  });

  it('never keeps half-signed-in sessions or unknown tokens', async () => {
    const cache = await cacheOn(new MemoryBus());
    const pending = counting(found(2, 20, 1, 'otp_pending'));
    await cache.resolve('h2', pending.load);
    await cache.resolve('h2', pending.load);
    expect(pending.calls.n).toBe(2);
    const unknown = counting(null);
    await cache.resolve('h3', unknown.load);
    await cache.resolve('h3', unknown.load);
    expect(unknown.calls.n).toBe(2);
    await cache.close();
  });

  it('does not keep a row read before an invalidation that arrived while it was loading', async () => {
    const cache = await cacheOn(new MemoryBus());
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let n = 0;
    const load = async () => {
      n++;
      await gate;
      return found(3, 30);
    };
    const first = cache.resolve('h4', load);
    invalidateAuth({ sessions: [3] });
    const second = cache.resolve('h4', load);
    release();
    await Promise.all([first, second]);
    expect(n).toBe(2);
    expect(cache.size).toBe(1);
    await cache.close();
  });

  it('hears invalidations published by another process, and ignores its own echo', async () => {
    const bus = new MemoryBus();
    const a = await cacheOn(bus);
    const other = counting(found(5, 50));
    await a.resolve('h5', other.load);
    await bus.publish('test-invalidations', { users: [50], origin: 'another-process' });
    await a.resolve('h5', other.load);
    expect(other.calls.n).toBe(2);
    await a.close();
  });

  it('fails closed while the bus is disconnected and starts empty when it is back', async () => {
    const bus = new SwitchBus();
    const cache = await cacheOn(bus);
    const { calls, load } = counting(found(6, 60));
    await cache.resolve('h6', load);
    bus.set(false);
    await cache.resolve('h6', load);
    await cache.resolve('h6', load);
    expect(calls.n).toBe(3);
    expect(cache.size).toBe(0);
    bus.set(true);
    await cache.resolve('h6', load);
    await cache.resolve('h6', load);
    expect(calls.n).toBe(4);
    await cache.close();
  });

  it('freezes what it shares between requests', async () => {
    const cache = await cacheOn(new MemoryBus());
    const { load } = counting(found(7, 70));
    const got = (await cache.resolve('h7', load))!;
    expect(() => {
      (got.user as { roles: string[] }).roles.push('admin');
    }).toThrow();
    await cache.close();
  });
});
