import { Alert, Anchor, Stack, Text } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCurrentUser } from '../auth/session';
import { PageHeading } from '../components/PageHeading';

/** Where the guard sends an unpaid account. Plans themselves are managed by the company admin. */
export function BillingPage() {
  const user = useCurrentUser();
  const paid = user['paid_user?'];
  return (
    <Stack maw={640} gap="md">
      <PageHeading title="Billing" />
      {paid ? (
        <Text>Your account at {user.company.name} is active. There is nothing you need to do here.</Text>
      ) : (
        <Alert color="yellow" icon={<IconInfoCircle />} title="Your account is not active">
          <Stack gap="xs">
            <Text size="sm">
              Your access to Harbor at <b>{user.company.name}</b> is paused because there is no active plan for your
              account.
            </Text>
            <Text size="sm">
              Billing plans are managed by your company admin. Please ask them to activate or renew your plan; once they
              do, sign in again and you will go straight to your dashboard.
            </Text>
          </Stack>
        </Alert>
      )}
      <Text size="sm">
        You can still update your account in your{' '}
        <Anchor component={Link} to="/account/profile">
          profile
        </Anchor>
        .
      </Text>
    </Stack>
  );
}
