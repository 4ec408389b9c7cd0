import { AppShell, Burger, Group, NavLink, ScrollArea, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useIsFetching } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useMemo, useRef } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useSlowLoading } from '../api/useSlowLoading';
import { useCurrentUser } from '../auth/session';
import { Brand, MAIN_ID } from '../components/Brand';
import { useLiveConnection } from '../live/useLive';
import { ErrorBoundary } from '../pages/ErrorPanel';
import { PHONE_SLOT_ID, phoneShown } from '../softphone/dial';
import { ConnectionIndicator } from './ConnectionIndicator';
import { ImpersonationBanner } from './ImpersonationBanner';
import { NotificationsBell } from './NotificationsBell';
import { activeNavItem, subjectOf, visibleNavItems } from './nav';
import { NAV_ICONS } from './navIcons';
import { ProcessNotificationCard } from './ProcessNotificationCard';
import { UserMenu } from './UserMenu';
import { useHeadingFocus } from './useHeadingFocus';

// Not part of the download before a page shows (scripts/check-bundle.mjs).
const Toasts = lazy(() => import('./Toasts').then((m) => ({ default: m.Toasts })));
// The softphone and its engine load after the shell renders, for people with the dialer only.
const Softphone = lazy(() => import('../softphone/Softphone').then((m) => ({ default: m.Softphone })));

function SlowLoadingNote() {
  // First loads only: a background refetch of data already on screen is not worth a note.
  const pending = useIsFetching({ predicate: (q) => q.state.status === 'pending' }) > 0;
  const slow = useSlowLoading(pending);
  if (!slow) return null;
  return (
    <Text size="xs" c="dimmed" role="status" aria-live="polite" visibleFrom="xs">
      Still loading…
    </Text>
  );
}

/** The shell every signed-in screen lives in; `children` stands in for the route's page (the not-found page). */
export function AppLayout({ children }: { children?: ReactNode }) {
  const user = useCurrentUser();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const items = useMemo(() => visibleNavItems(subjectOf(user)), [user]);
  const active = activeNavItem(location.pathname, items);
  const main = useRef<HTMLElement>(null);
  useLiveConnection();
  useHeadingFocus(main);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding={{ base: 'xs', sm: 'md' }}
    >
      <a className="skip-link" href={`#${MAIN_ID}`}>
        Skip to main content
      </a>
      <AppShell.Header>
        <Group h="100%" px={{ base: 'xs', sm: 'md' }} justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap" miw={0}>
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close navigation' : 'Open navigation'}
              aria-expanded={opened}
            />
            <Brand />
            <Text size="sm" c="dimmed" visibleFrom="md" truncate maw={240}>
              {user.company.name}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            <SlowLoadingNote />
            <ConnectionIndicator />
            {/* Filled by the softphone at phone width (empty, it takes no room). */}
            {phoneShown(user) && <Group id={PHONE_SLOT_ID} />}
            <NotificationsBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main navigation" component="nav">
        <AppShell.Section grow component={ScrollArea}>
          {items.map((item) => {
            const Icon = NAV_ICONS[item.icon];
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                leftSection={<Icon size={18} stroke={1.6} aria-hidden />}
                active={active?.to === item.to}
                aria-current={active?.to === item.to ? 'page' : undefined}
                onClick={close}
              />
            );
          })}
        </AppShell.Section>
        <AppShell.Section>
          <Text size="xs" c="dimmed" px="sm" hiddenFrom="md">
            {user.company.name}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main id={MAIN_ID} ref={main} tabIndex={-1} style={{ outline: 'none', minWidth: 0 }}>
        <ImpersonationBanner />
        {/* A page that fails to render keeps the shell around it; a new path gets a fresh try. */}
        <ErrorBoundary key={location.pathname}>{children ?? <Outlet />}</ErrorBoundary>
      </AppShell.Main>
      <ProcessNotificationCard />
      {/* Toasts belong to the signed-in app; here, their code is not part of the public pages' download. */}
      <Suspense fallback={null}>
        <Toasts />
      </Suspense>
      {phoneShown(user) && (
        <Suspense fallback={null}>
          <Softphone />
        </Suspense>
      )}
    </AppShell>
  );
}
