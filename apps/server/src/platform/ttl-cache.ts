/**
 * A small in-process cache: entries live `ttlMs` at most, the number of entries is bounded, and concurrent misses
 * of one key share a single load (fifty connections asking at once cost one query, not fifty). A ttl of 0 turns it
 * off: every call loads.
 */
export class TtlCache<V> {
  private entries = new Map<string, { value: V; until: number }>();
  private inflight = new Map<string, Promise<V>>();

  constructor(
    readonly ttlMs: number,
    private readonly maxEntries = 20_000,
  ) {}

  get size() {
    return this.entries.size;
  }

  get(key: string, now = Date.now()): V | undefined {
    const hit = this.entries.get(key);
    if (!hit) return undefined;
    if (hit.until > now) return hit.value;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, value: V, now = Date.now()) {
    if (this.ttlMs <= 0) return;
    if (this.entries.size >= this.maxEntries) {
      for (const [k, e] of this.entries) if (e.until <= now) this.entries.delete(k);
      if (this.entries.size >= this.maxEntries) this.entries.clear();
    }
    this.entries.set(key, { value, until: now + this.ttlMs });
  }

  /**
   * The cached value, or the result of `load`, stored when `keep(value)` allows (default: always). Callers that
   * share a pending load get its result even when it is not kept.
   */
  async getOrLoad(key: string, load: () => Promise<V>, keep: (value: V) => boolean = () => true): Promise<V> {
    if (this.ttlMs <= 0) return load();
    const hit = this.get(key);
    if (hit !== undefined) return hit;
    const pending = this.inflight.get(key);
    if (pending) return pending;
    const promise: Promise<V> = load()
      .then((value) => {
        if (keep(value)) this.set(key, value);
        return value;
      })
      .finally(() => {
        if (this.inflight.get(key) === promise) this.inflight.delete(key);
      });
    this.inflight.set(key, promise);
    return promise;
  }

  /** Later callers start loads of their own instead of joining one that began before a change. */
  forgetPending() {
    this.inflight.clear();
  }

  deleteWhere(test: (value: V) => boolean) {
    for (const [k, e] of this.entries) if (test(e.value)) this.entries.delete(k);
  }

  clear() {
    this.entries.clear();
    this.inflight.clear();
  }
}
