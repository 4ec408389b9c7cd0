import { Alert, Button, Group, Text } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { errorMessage } from '../api/client';
import { useCurrentUser, useSignOut } from '../auth/session';

export function fullName(user: { profile: { first_name: string; last_name: string }; username: string }): string {
  return `${user.profile.first_name} ${user.profile.last_name}`.trim() || user.username;
}

/** Shown while acting for someone else; Return pops one login-stack entry on the server. */
export function ImpersonationBanner() {
  const user = useCurrentUser();
  const signOut = useSignOut();
  const behalf = user.login_stack[user.login_stack.length - 1];
  if (!behalf) return null;
  return (
    <Alert color="yellow" mb="md" role="region" aria-label="Impersonation">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm">
          You are signed in as {fullName(user)} on behalf of {behalf.name}
        </Text>
        <Button
          size="xs"
          variant="white"
          color="dark"
          leftSection={<IconArrowBackUp size={14} />}
          onClick={() => signOut.mutate()}
          loading={signOut.isPending}
        >
          Return
        </Button>
      </Group>
      {signOut.isError && (
        <Text size="sm" c="red" mt={4}>
          {errorMessage(signOut.error)}
        </Text>
      )}
    </Alert>
  );
}
