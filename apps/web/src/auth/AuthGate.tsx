import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { errorMessage } from '../api/client';
import { useSlowLoading } from '../api/useSlowLoading';
import { guardRedirect, needsTerms } from './guard';
import { CurrentUserContext, useMeQuery } from './session';
import { rememberPostLoginTarget } from './storage';
import { TermsModal } from './TermsModal';

function SignedOut() {
  const location = useLocation();
  useEffect(() => rememberPostLoginTarget(`${location.pathname}${location.search}`), [location]);
  return <Navigate to="/login" replace />;
}

/** Loads the user and applies the access guard of spec §2 before any guarded page renders. */
export function AuthGate() {
  const me = useMeQuery();
  const location = useLocation();
  const slow = useSlowLoading(me.isPending);

  // A failed background refetch keeps the user we have; only a first load without data blocks the page.
  if (me.data === undefined && !me.isError) {
    return (
      <Center h="100vh">
        <Stack align="center" gap="xs">
          <Loader aria-label="Loading your account" />
          {slow && <Text size="sm">Still loading…</Text>}
        </Stack>
      </Center>
    );
  }

  if (me.data === undefined) {
    return (
      <Center h="100vh">
        <Stack align="center" gap="sm">
          <Text>{errorMessage(me.error, 'Your account could not be loaded.')}</Text>
          <Button onClick={() => me.refetch()}>Try again</Button>
        </Stack>
      </Center>
    );
  }

  const user = me.data;
  if (!user) return <SignedOut />;
  // Terms come before everything: nothing else renders or redirects until they are accepted.
  if (needsTerms(user)) return <TermsModal />;

  const to = guardRedirect(user, location.pathname, location.search);
  if (to) return <Navigate to={to} replace />;
  return (
    <CurrentUserContext.Provider value={user}>
      <Outlet />
    </CurrentUserContext.Provider>
  );
}
