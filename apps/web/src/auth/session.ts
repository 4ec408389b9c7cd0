/**
 * The signed-in user lives in the query cache under ME_KEY (its contract key): the bootstrap fills it, sign-in and
 * every account PATCH replace it, a 401 or sign-out empties it. Everything else (theme, nav, guard) reads it from there. The cache
 * helpers every page downloads are in ./userCache.ts (re-exported here); the hooks that fetch are here.
 */
import type { CurrentUser } from '@harbor/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext } from 'react';
import { useNavigate } from 'react-router';
import { fetchMe, logout } from '../api/endpoints';
import { clearClientStorage, saveLoginStack } from './storage';
import { ME_KEY, resetClientState, setCurrentUser } from './userCache';

export { ME_KEY, onClientReset, resetClientState, setCurrentUser, useCachedUser } from './userCache';

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
