/**
 * The session cache: a signed-in request costs no database round trip to learn who is calling. An active session's
 * row, joined to its user and company, is kept in-process for a few seconds (SESSION_CACHE_MS, default 3 s), keyed
 * by the token's hash.
 *
 * Staleness is bounded three ways (docs/decisions/session-cache.md):
 * - every write that ends a session or changes a user or a company calls `invalidateAuth` (invalidation.ts), which
 *   drops the entries in this process at once and publishes the invalidation on the live bus for every other one;
 * - an entry lives the TTL at most, so a write that forgot to invalidate is visible seconds later anyway;
 * - while the bus is disconnected (Redis unreachable) this process cannot hear other processes' invalidations, so
 *   it fails closed: nothing is served from or stored in the cache until it hears again, and it starts empty then.
 * A load that began before an invalidation is never stored and never shared with later requests (the generation
 * check), so a row read just before a sign-out cannot outlive it.
 */
import crypto from 'node:crypto';
import type { Config } from '../../config.js';
import type { Db } from '../db/client.js';
import type { Bus } from '../live/bus.js';
import { TtlCache } from '../ttl-cache.js';
import { type Invalidation, registerInvalidatable } from './invalidation.js';
import { findSession } from './sessions.js';
import { hashToken } from './tokens.js';

export type FoundSession = NonNullable<Awaited<ReturnType<typeof findSession>>>;

export class SessionCache {
  private entries: TtlCache<FoundSession | null>;
  /** Bumped by every invalidation: a load that started under an older generation is not stored. */
  private generation = 0;
  private readonly origin = crypto.randomBytes(8).toString('hex');
  private unsubscribe: (() => Promise<void>) | null = null;
  private unregister: (() => void) | null = null;

  constructor(
    private readonly bus: Bus,
    ttlMs: number,
    /** The bus stream invalidations travel on: processes sharing a database share it. */
    private readonly stream = 'auth-invalidations',
  ) {
    this.entries = new TtlCache(ttlMs);
  }

  async start() {
    this.unregister = registerInvalidatable(this);
    this.unsubscribe = await this.bus.subscribe(this.stream, (message) => {
      const m = message as Invalidation & { origin?: string };
      if (m.origin !== this.origin) this.drop(m);
    });
    // Losing the bus means missing invalidations; regaining it means some may have been missed meanwhile.
    this.bus.onConnectionChange(() => this.clear());
  }

  async close() {
    this.unregister?.();
    this.clear();
    await this.unsubscribe?.();
  }

  /** Whether entries may be served: only while this process hears every invalidation. */
  get trusted() {
    return this.bus.connected;
  }

  get size() {
    return this.entries.size;
  }

  /** The session for a token hash: from the cache when fresh and trusted, else from `load` (one load per hash). */
  async resolve(tokenHash: string, load: () => Promise<FoundSession | null>): Promise<FoundSession | null> {
    if (!this.trusted) return load();
    const generation = this.generation;
    // Only full sessions are kept: a half-signed-in one is short-lived, and its user row (the one-time code's replay
    // guard) must always be read fresh.
    return this.entries.getOrLoad(tokenHash, load, (found) => {
      if (found?.session.state !== 'active' || generation !== this.generation || !this.trusted) return false;
      // Shared by every request that hits: frozen, so a handler that mutated its auth rows would fail loudly.
      deepFreeze(found);
      return true;
    });
  }

  /** Drops what the change makes stale here, and publishes it to the other processes. */
  invalidate(change: Invalidation) {
    this.drop(change);
    void this.bus.publish(this.stream, { ...change, origin: this.origin });
  }

  private drop(change: Invalidation) {
    this.generation++;
    this.entries.forgetPending();
    const sessions = new Set(change.sessions ?? []);
    const users = new Set(change.users ?? []);
    const companies = new Set(change.companies ?? []);
    this.entries.deleteWhere(
      (found) =>
        !found || sessions.has(found.session.id) || users.has(found.user.id) || companies.has(found.company.id),
    );
  }

  clear() {
    this.generation++;
    this.entries.clear();
  }
}

function deepFreeze(value: unknown) {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value) || value instanceof Date) return;
  Object.freeze(value);
  for (const v of Object.values(value)) deepFreeze(v);
}

/**
 * The session behind a cookie's token, through the cache. A cached entry is re-checked against the absolute and
 * idle timeouts, which may pass while it is held.
 */
export async function resolveSession(cache: SessionCache, db: Db, config: Config, token: string) {
  const found = await cache.resolve(hashToken(token), () => findSession(db, config, token));
  if (!found) return null;
  const now = Date.now();
  if (found.session.expiresAt.getTime() <= now) return null;
  if (found.session.lastSeenAt.getTime() <= now - config.sessionIdleMinutes * 60_000) return null;
  return found;
}
