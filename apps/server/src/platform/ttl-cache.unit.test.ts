import { describe, expect, it } from 'vitest';
import { TtlCache } from './ttl-cache.js';

describe('TtlCache', () => {
  it('keeps a value for its lifetime only', () => {
    const c = new TtlCache<number>(1_000);
    c.set('a', 1, 0);
    expect(c.get('a', 999)).toBe(1);
    expect(c.get('a', 1_000)).toBeUndefined();
  });

  it('shares one load between concurrent misses', async () => {
    const c = new TtlCache<number>(1_000);
    let loads = 0;
    const load = async () => {
      loads++;
      await new Promise((r) => setTimeout(r, 10));
      return 7;
    };
    expect(await Promise.all([c.getOrLoad('k', load), c.getOrLoad('k', load), c.getOrLoad('k', load)])).toEqual([
      7, 7, 7,
    ]);
    expect(loads).toBe(1);
    expect(await c.getOrLoad('k', load)).toBe(7);
    expect(loads).toBe(1);
  });

  it('stores only what keep() allows, and after forgetPending a later caller loads afresh', async () => {
    const c = new TtlCache<number>(1_000);
    let n = 0;
    const slow = () => new Promise<number>((r) => setTimeout(() => r(++n), 20));
    const first = c.getOrLoad('k', slow, () => false);
    c.forgetPending();
    const second = c.getOrLoad('k', slow);
    expect(await first).toBe(1);
    expect(await second).toBe(2);
    expect(c.get('k')).toBe(2);
  });

  it('loads every time with a lifetime of 0, and stays within its bound', async () => {
    const off = new TtlCache<number>(0);
    let n = 0;
    await off.getOrLoad('k', async () => ++n);
    await off.getOrLoad('k', async () => ++n);
    expect(n).toBe(2);
    const small = new TtlCache<number>(1_000, 3);
    for (let i = 0; i < 10; i++) small.set(`k${i}`, i, 0);
    expect(small.size).toBeLessThanOrEqual(3);
  });
});
