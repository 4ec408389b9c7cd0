import { ActionIcon, Anchor, Button, Divider, Group, Indicator, Popover, ScrollArea, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link } from 'react-router';
import { clearNotifications, formatNotificationTime, markAllRead, useNotifications } from '../stores/notifications';

export function NotificationsBell() {
  const { list, unread } = useNotifications();
  const label = unread ? `Notifications, ${unread} unread` : 'Notifications';
  return (
    <Popover width={320} position="bottom-end" shadow="md" onClose={markAllRead}>
      {/* The target is the button itself: Popover puts aria-expanded on its target, which a plain div may not carry. */}
      <Popover.Target>
        <ActionIcon variant="subtle" size="lg" aria-label={label}>
          <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={!unread} offset={2} aria-hidden>
            <IconBell size={20} />
          </Indicator>
        </ActionIcon>
      </Popover.Target>
      <Popover.Dropdown p={0}>
        <Group justify="space-between" px="sm" py="xs">
          <Text fw={600} size="sm">
            Notifications
          </Text>
          {list.length > 0 && (
            <Button variant="subtle" size="compact-xs" onClick={clearNotifications}>
              Clear all
            </Button>
          )}
        </Group>
        <Divider />
        {list.length === 0 ? (
          <Text size="sm" c="dimmed" p="sm">
            No notifications yet.
          </Text>
        ) : (
          <ScrollArea.Autosize mah={360}>
            <Stack
              gap={0}
              component="ul"
              style={{ listStyle: 'none', margin: 0, padding: 0 }}
              aria-label="Notifications"
            >
              {list.map((n) => (
                <li
                  key={n.id}
                  style={{ padding: '8px 12px', borderBottom: '1px solid var(--mantine-color-default-border)' }}
                >
                  <Group justify="space-between" gap="xs" wrap="nowrap">
                    <Text size="sm" fw={n.read ? 500 : 700} lineClamp={1}>
                      {n.title}
                    </Text>
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                      {formatNotificationTime(n.receivedAt)}
                    </Text>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {n.body}
                  </Text>
                  {n.link && (
                    <Anchor component={Link} to={n.link} size="sm">
                      Open
                    </Anchor>
                  )}
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
        )}
      </Popover.Dropdown>
    </Popover>
  );
}
