import { Button, Center, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { CurrentUserContext, useMeQuery } from '../auth/session';
import { PageHeading } from '../components/PageHeading';
import { PublicLayout } from '../layout/PublicLayout';

// The app shell is its own chunk (router.tsx): importing it here statically would fold it into this page's chunk.
const AppLayout = lazy(() => import('../layout/AppLayout').then((m) => ({ default: m.AppLayout })));

export function NotFoundPage({
  title = 'Page not found',
  text = 'The page you are looking for does not exist or has moved.',
  back = { to: '/', label: 'Go to the dashboard' },
}: {
  title?: string;
  text?: string;
  back?: { to: string; label: string };
}) {
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Text fz={48} fw={700} c="dimmed" aria-hidden>
          404
        </Text>
        <PageHeading title={title} />
        <Text c="dimmed">{text}</Text>
        <Button component={Link} to={back.to}>
          {back.label}
        </Button>
      </Stack>
    </Center>
  );
}

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
