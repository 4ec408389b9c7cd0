/**
 * The signed-in user in the query cache under its contract key, for the code in every page's download (theme, router, sign-in
 * page). The hooks that fetch it live in auth/session.ts, which re-exports these: TanStack's query observer and the
 * sign-out mutation stay out of the sign-in page's JavaScript (scripts/check-bundle.mjs).
 */
import type { CurrentUser } from '@harbor/shared';
import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { clearNotifications } from '../stores/notifications';
import { closeProcessNotification } from '../stores/processNotification';
import { saveLoginStack } from './storage';

/** `qk('GET /v1/users/me')` written out: api/queries.ts stays out of the sign-in page (call.test.ts checks they agree). */
export const ME_KEY = ['GET /v1/users/me'] as const;

/**
 * Read the user without ever fetching it: for public pages and the theme, which must not load the user. A cache
 * subscription rather than a disabled `useQuery`, for the reason above; the user's entry is never garbage collected
 * (api/queryClient.ts), so this sees the user for as long as the session lasts.
 */
export function useCachedUser(): CurrentUser | null {
  const queryClient = useQueryClient();
  return useSyncExternalStore(
    (onChange) => queryClient.getQueryCache().subscribe(onChange),
    () => queryClient.getQueryData<CurrentUser | null>(ME_KEY) ?? null,
  );
}

export function setCurrentUser(queryClient: QueryClient, user: CurrentUser): void {
  saveLoginStack(user.login_stack);
  queryClient.setQueryData(ME_KEY, user);
}

/**
 * What else must forget the session when it ends (the live connection): each such module registers here when it
 * loads, so this module does not import it.
 */
const resetHooks = new Set<() => void>();
export function onClientReset(hook: () => void): void {
  resetHooks.add(hook);
}

/** Everything the browser holds about the session goes; the user key is set to "signed out" rather than removed. */
export function resetClientState(queryClient: QueryClient): void {
  queryClient.setQueryData(ME_KEY, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
  for (const hook of resetHooks) hook();
  clearNotifications();
  closeProcessNotification();
}
