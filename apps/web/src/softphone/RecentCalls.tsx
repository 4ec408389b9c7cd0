/** The Recent tab: the person's call history (fetch_historical_calls); picking one puts its number on the keypad. */

import { formatPhone } from '@harbor/shared';
import { Alert, Loader, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconPhoneIncoming, IconPhoneOutgoing } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../api/client';
import { callQuery } from '../api/queries';
import { mmss } from './store';

export function RecentCalls({ onPick }: { onPick: (number: string) => void }) {
  const q = useQuery(callQuery('POST /v1/dialer/fetch_historical_calls', { body: {} }));
  if (q.isPending) return <Loader size="sm" aria-label="Loading recent calls" />;
  if (q.isError) return <Alert color="red">{errorMessage(q.error)}</Alert>;
  const calls = q.data.call_history;
  if (!calls.length) return <Text c="dimmed">No calls yet. Calls you make or take show here.</Text>;
  return (
    <ScrollArea.Autosize mah={300}>
      <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {calls.map((c) => {
          const other = c.call_direction === 'outbound' ? c.call_to : c.call_from;
          const Icon = c.call_direction === 'outbound' ? IconPhoneOutgoing : IconPhoneIncoming;
          return (
            <li key={c.id}>
              <UnstyledButton
                onClick={() => onPick(other)}
                w="100%"
                p={4}
                aria-label={`Call ${formatPhone(other)} again`}
              >
                <Text size="sm" fw={500} truncate>
                  <Icon size={14} aria-hidden style={{ verticalAlign: 'middle', marginRight: 4 }} />
                  {c.contact?.name ?? formatPhone(other)}
                </Text>
                <Text size="xs" c="dimmed">
                  {new Date(c.created_at).toLocaleString()} · {c.status}
                  {c.duration_s != null ? ` · ${mmss(c.duration_s)}` : ''}
                </Text>
              </UnstyledButton>
            </li>
          );
        })}
      </Stack>
    </ScrollArea.Autosize>
  );
}
