// Kept apart from NotFoundPage, which the error panel (in every page's download) shows: this route loads the user.
import { Center, Loader } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { CurrentUserContext, useMeQuery } from '../auth/session';
import { PublicLayout } from '../layout/PublicLayout';
import { NotFoundPage } from './NotFoundPage';

// The app shell is its own chunk (router.tsx): importing it here statically would fold it into this page's chunk.
const AppLayout = lazy(() => import('../layout/AppLayout').then((m) => ({ default: m.AppLayout })));

/** An unknown address keeps the app's layout for someone signed in, and the public one for everyone else. */
export function NotFoundRoute() {
  const me = useMeQuery();
  if (me.isPending) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  if (me.data) {
    return (
      <CurrentUserContext.Provider value={me.data}>
        <Suspense fallback={<Loader aria-label="Loading" />}>
          <AppLayout>
            <NotFoundPage />
          </AppLayout>
        </Suspense>
      </CurrentUserContext.Provider>
    );
  }
  return (
    <PublicLayout>
      <NotFoundPage />
    </PublicLayout>
  );
}
