/**
 * The signed-in user lives in the query cache under ['me']: the bootstrap fills it, sign-in and every account PATCH
 * replace it, a 401 or sign-out empties it. Everything else (theme, nav, guard) reads it from there.
 */
import type { CurrentUser } from '@harbor/shared';
import { type QueryClient, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { useNavigate } from 'react-router';
import { fetchMe, logout } from '../api/endpoints';
import { cable } from '../live/cable';
import { clearNotifications } from '../stores/notifications';
import { closeProcessNotification } from '../stores/processNotification';
import { clearClientStorage, saveLoginStack } from './storage';

export const ME_KEY = ['me'] as const;

/** The bootstrap query. Only guarded pages call it; public pages never load the user (spec §2). */
export function useMeQuery() {
  return useQuery({
    queryKey: ME_KEY,
    queryFn: async ({ signal }) => {
      const user = await fetchMe(signal);
      if (user) saveLoginStack(user.login_stack);
      return user;
    },
  });
}

/** Read the user without ever fetching it: for public pages and the theme, which must not load the user. */
export function useCachedUser(): CurrentUser | null {
  const { data } = useQuery({ queryKey: ME_KEY, queryFn: () => fetchMe(), enabled: false });
  return data ?? null;
}

/**
 * The guard hands the user down through context rather than letting each component read the cache: when a 401 or
 * sign-out empties the cache, the guard unmounts the shell instead of the shell rendering once without a user.
 */
export const CurrentUserContext = createContext<CurrentUser | null>(null);

/** Inside the guarded shell the user is always there. */
export function useCurrentUser(): CurrentUser {
  const user = useContext(CurrentUserContext);
  if (!user) throw new Error('useCurrentUser used outside the signed-in shell');
  return user;
}

export function setCurrentUser(queryClient: QueryClient, user: CurrentUser): void {
  saveLoginStack(user.login_stack);
  queryClient.setQueryData(ME_KEY, user);
}

/** Everything the browser holds about the session goes; the user key is set to "signed out" rather than removed. */
export function resetClientState(queryClient: QueryClient): void {
  queryClient.setQueryData(ME_KEY, null);
  queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
  cable.stop();
  clearNotifications();
  closeProcessNotification();
}

export function useSignOut() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSuccess: (reply) => {
      if (reply?.user) {
        // An impersonation was popped: the previous user is signed in again.
        queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== ME_KEY[0] });
        setCurrentUser(queryClient, reply.user);
        navigate('/');
        return;
      }
      clearClientStorage();
      resetClientState(queryClient);
      navigate('/login');
    },
  });
}

/** For the account PATCHes, which all answer the updated user. */
export function useUserMutation<TVars>(mutationFn: (vars: TVars) => Promise<CurrentUser>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (user) => setCurrentUser(queryClient, user),
  });
}
