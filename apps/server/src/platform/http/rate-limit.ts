/**
 * Per-address request limits, a fixed window per (rule, address). In-process: with several server processes each
 * keeps its own window, so the effective limit is per process; the per-account sign-in lockout, which matters more,
 * is counted in the database and holds across processes.
 */
export interface RateLimitRule {
  /** Rule name: windows are kept per rule and address. */
  name: string;
  max: number;
  windowMs: number;
}

export const DEFAULT_RULE: RateLimitRule = { name: 'default', max: 1200, windowMs: 60_000 };

export class RateLimiter {
  private windows = new Map<string, { start: number; count: number }>();
  constructor(private readonly overrides: Record<string, number> = {}) {}

  /** Counts one request; answers the Retry-After header when over the limit, else null. */
  hit(ip: string, rule: RateLimitRule = DEFAULT_RULE, now = Date.now()): Record<string, string> | null {
    const max = this.overrides[rule.name] ?? rule.max;
    const key = `${rule.name}:${ip}`;
    let w = this.windows.get(key);
    if (!w || now - w.start >= rule.windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      if (this.windows.size > 50_000) this.sweep(now, rule.windowMs);
    }
    w.count += 1;
    if (w.count <= max) return null;
    return { 'retry-after': String(Math.ceil((w.start + rule.windowMs - now) / 1000)) };
  }

  private sweep(now: number, windowMs: number) {
    for (const [k, w] of this.windows) if (now - w.start >= windowMs) this.windows.delete(k);
  }
}
