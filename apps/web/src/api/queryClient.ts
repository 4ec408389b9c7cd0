/**
 * Data-fetch defaults of spec §9 (FETCH_DEFAULTS): dedupe 2 s, focus refetch at most every 5 s, retry after 5 s
 * (10 s on a slow connection), no retry of answers the server meant (4xx).
 */
import { FETCH_DEFAULTS } from '@harbor/shared';
import { focusManager, QueryClient } from '@tanstack/react-query';
import { ME_KEY } from '../auth/userCache';
import { ApiError, isAbortError } from './client';

interface NetworkInformationLike {
  effectiveType?: string;
}

const SLOW_TYPES = new Set(['slow-2g', '2g', '3g']);

export function isSlowConnection(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformationLike }).connection;
  return !!connection?.effectiveType && SLOW_TYPES.has(connection.effectiveType);
}

export function errorRetryDelay(error: unknown): number {
  // A request cut short by navigation is worth repeating at once if something still wants it.
  if (isAbortError(error)) return 0;
  return isSlowConnection() ? FETCH_DEFAULTS.errorRetrySlowMs : FETCH_DEFAULTS.errorRetryMs;
}

export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500) return false;
  return failureCount < 3;
}

export function loadingSlowAfterMs(): number {
  return isSlowConnection() ? FETCH_DEFAULTS.loadingSlowSlowMs : FETCH_DEFAULTS.loadingSlowMs;
}

let focusThrottleInstalled = false;

/** TanStack Query has no focus throttle; gate its focus signal so a burst of tab switches refetches once per 5 s. */
export function installFocusThrottle(throttleMs: number = FETCH_DEFAULTS.focusThrottleMs): void {
  if (focusThrottleInstalled || typeof window === 'undefined') return;
  focusThrottleInstalled = true;
  let last = Date.now();
  focusManager.setEventListener((notify) => {
    // Called without an argument, TanStack reads focus from document.visibilityState itself, so a skipped
    // notification only skips the refetch; retries are not paused as they would be by a forced "unfocused".
    const onFocusChange = () => {
      if (document.visibilityState === 'visible') {
        const now = Date.now();
        if (now - last < throttleMs) return;
        last = now;
      }
      notify();
    };
    window.addEventListener('visibilitychange', onFocusChange, false);
    window.addEventListener('focus', onFocusChange, false);
    return () => {
      window.removeEventListener('visibilitychange', onFocusChange);
      window.removeEventListener('focus', onFocusChange);
    };
  });
}

export function createQueryClient(): QueryClient {
  installFocusThrottle();
  const client = new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: FETCH_DEFAULTS.dedupeMs,
        refetchOnWindowFocus: true,
        retry: shouldRetry,
        retryDelay: (_attempt, error) => errorRetryDelay(error),
      },
      mutations: { retry: false },
    },
  });
  // The signed-in user stays cached for the whole session, observed or not: the theme reads it from the cache
  // (auth/session.ts useCachedUser) on public pages too.
  client.setQueryDefaults(ME_KEY, { gcTime: Number.POSITIVE_INFINITY });
  return client;
}
