import { AppShell, Burger, Group, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useIsFetching } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { useSlowLoading } from '../api/useSlowLoading';
import { useCurrentUser } from '../auth/session';
import { useLiveConnection } from '../live/useLive';
import { ConnectionIndicator } from './ConnectionIndicator';
import { ImpersonationBanner } from './ImpersonationBanner';
import { NotificationsBell } from './NotificationsBell';
import { activeNavItem, subjectOf, visibleNavItems } from './nav';
import { NAV_ICONS } from './navIcons';
import { ProcessNotificationCard } from './ProcessNotificationCard';
import { UserMenu } from './UserMenu';

function SlowLoadingNote() {
  // First loads only: a background refetch of data already on screen is not worth a note.
  const pending = useIsFetching({ predicate: (q) => q.state.status === 'pending' }) > 0;
  const slow = useSlowLoading(pending);
  if (!slow) return null;
  return (
    <Text size="xs" c="dimmed" role="status" aria-live="polite">
      Still loading…
    </Text>
  );
}

/** The shell every signed-in screen lives in. */
export function AppLayout() {
  const user = useCurrentUser();
  const location = useLocation();
  const [opened, { toggle, close }] = useDisclosure(false);
  const items = useMemo(() => visibleNavItems(subjectOf(user)), [user]);
  const active = activeNavItem(location.pathname, items);
  useLiveConnection();

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 232, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={1} size="h3" c="var(--mantine-primary-color-filled)">
              <Link to="/" style={{ color: 'inherit', textDecoration: 'none' }}>
                Harbor
              </Link>
            </Title>
            <Text size="sm" c="dimmed" visibleFrom="sm" truncate maw={240}>
              {user.company.name}
            </Text>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <SlowLoadingNote />
            <ConnectionIndicator />
            <NotificationsBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main navigation">
        <AppShell.Section grow component={ScrollArea}>
          {items.map((item) => {
            const Icon = NAV_ICONS[item.icon];
            return (
              <NavLink
                key={item.to}
                component={Link}
                to={item.to}
                label={item.label}
                leftSection={<Icon size={18} stroke={1.6} />}
                active={active?.to === item.to}
                aria-current={active?.to === item.to ? 'page' : undefined}
                onClick={close}
              />
            );
          })}
        </AppShell.Section>
        <AppShell.Section>
          <Text size="xs" c="dimmed" px="sm" hiddenFrom="sm">
            {user.company.name}
          </Text>
        </AppShell.Section>
      </AppShell.Navbar>

      <AppShell.Main>
        <ImpersonationBanner />
        <Outlet />
      </AppShell.Main>
      <ProcessNotificationCard />
    </AppShell>
  );
}
