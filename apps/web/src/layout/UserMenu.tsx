import { Avatar, Group, Menu, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconChevronDown, IconLogout, IconUser } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../api/client';
import { useCurrentUser, useSignOut } from '../auth/session';
import { fullName } from './ImpersonationBanner';

export function UserMenu() {
  const user = useCurrentUser();
  const signOut = useSignOut();
  const name = fullName(user);
  const initials = `${user.profile.first_name[0] ?? ''}${user.profile.last_name[0] ?? ''}`.toUpperCase();
  return (
    <Menu position="bottom-end" width={200} shadow="md">
      <Menu.Target>
        {/* Named by its content ("User menu for Ada Lovelace"), so the visible name is part of the accessible one. */}
        <UnstyledButton>
          <Group gap={6} wrap="nowrap">
            <Avatar src={user.profile.personal_photo} radius="xl" size="sm" alt="" aria-hidden>
              {initials}
            </Avatar>
            <VisuallyHidden>User menu for </VisuallyHidden>
            {/* One element for the name: shown from 48em, below that kept for screen readers only (global.css). */}
            <Text size="sm" fw={500} component="span" className="visually-hidden-below-sm">
              {name}
            </Text>
            <IconChevronDown size={14} aria-hidden />
          </Group>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{user.email}</Menu.Label>
        <Menu.Item component={Link} to="/account/profile" leftSection={<IconUser size={16} />}>
          Profile
        </Menu.Item>
        <Menu.Item
          leftSection={<IconLogout size={16} />}
          onClick={() =>
            signOut.mutate(undefined, {
              onError: (error) => notifications.show({ color: 'red', message: errorMessage(error) }),
            })
          }
        >
          Sign out
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
