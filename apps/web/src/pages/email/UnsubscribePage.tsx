/**
 * /unsubscribe/:token: where an email's unsubscribe link lands. No sign-in. The person chooses this agent's emails
 * or every email of the agency; either is recorded at once (and mail clients' one-click already stopped them all).
 */

import { Alert, Button, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { unsubscribeApi } from '../../api/email';
import { callQuery } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';

export function UnsubscribePage() {
  const { token = '' } = useParams();
  const info = useQuery({
    ...callQuery('GET /v1/unsubscribe/{token}', { params: { token } }),
    retry: false,
  });
  const choose = useMutation({ mutationFn: (scope: 'agent' | 'all') => unsubscribeApi.choose(token, scope) });
  return (
    <Stack maw={560} mx="auto" py="xl">
      <PageHeading title="Unsubscribe">Unsubscribe</PageHeading>
      {info.isPending && <Loader aria-label="Loading" />}
      {info.isError && (
        <Alert color="red" role="alert">
          {errorMessage(info.error, 'This unsubscribe link is not valid.')}
        </Alert>
      )}
      {info.data && (
        <Paper withBorder p="lg">
          <Stack>
            {choose.data ? (
              <Alert color="green" role="status">
                {choose.data.scope === 'all'
                  ? `You will get no more email from ${info.data.company_name}.`
                  : `You will get no more email from ${info.data.agent_name}.`}
              </Alert>
            ) : (
              <>
                <Text>
                  Which emails should {info.data.email} stop getting?{' '}
                  {info.data.opted_out_all ? 'You are already unsubscribed from all of them.' : ''}
                </Text>
                <Group wrap="wrap">
                  <Button
                    variant="default"
                    onClick={() => choose.mutate('agent')}
                    loading={choose.isPending && choose.variables === 'agent'}
                  >
                    Only {info.data.agent_name}'s emails
                  </Button>
                  <Button
                    color="red"
                    onClick={() => choose.mutate('all')}
                    loading={choose.isPending && choose.variables === 'all'}
                  >
                    All emails from {info.data.company_name}
                  </Button>
                </Group>
              </>
            )}
            {choose.error && (
              <Alert color="red" role="alert">
                {errorMessage(choose.error)}
              </Alert>
            )}
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
