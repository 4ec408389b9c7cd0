/**
 * Invalidation of cached sessions (session-cache.ts), callable from anywhere that writes: after a write that ends a
 * session or changes a user or a company, `invalidateAuth` drops what it made stale in this process at once and, over
 * the live bus, in every other process. Kept apart from the cache so that sessions.ts and the areas can call it
 * without importing the cache (no import cycle).
 */

/** What changed: the entries of these sessions, of every session of these users, or of these companies go. */
export interface Invalidation {
  sessions?: number[];
  users?: number[];
  companies?: number[];
}

export interface Invalidatable {
  invalidate(change: Invalidation): void;
}

/** Every session cache of this process (one per wired app; tests build several). */
const caches = new Set<Invalidatable>();

export function registerInvalidatable(cache: Invalidatable) {
  caches.add(cache);
  return () => {
    caches.delete(cache);
  };
}

export function invalidateAuth(change: Invalidation) {
  for (const cache of caches) cache.invalidate(change);
}
