/**
 * The contact's Calls tab: every call with this contact (direction, agent, length, status), whether the TPMO
 * disclaimer was played within the first minute, and the recordings (call_files) to play back.
 */

import { type CallItem, formatPhone } from '@harbor/shared';
import { Alert, Badge, Loader, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { RecordTable } from '../../components/RecordTable';

const length = (s: number | null) =>
  s == null ? '—' : `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;

function Disclaimer({ call }: { call: CallItem }) {
  if (call.answered_at == null) return <>Not connected</>;
  if (call.disclaimer_in_first_minute)
    return <Badge color="green">Yes, at {length(call.disclaimer_played_at_s)}</Badge>;
  if (call.disclaimer_played_at_s != null)
    return <Badge color="orange">Late, at {length(call.disclaimer_played_at_s)}</Badge>;
  return <Badge color="red">No</Badge>;
}

export function CallsPanel({ number }: { number: number }) {
  const q = useQuery({
    ...callQuery('GET /v1/contacts/{id}/call_files', { params: { id: number } }),
  });
  if (q.isPending) return <Loader aria-label="Loading calls" />;
  if (q.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(q.error, 'The calls could not be loaded.')}
      </Alert>
    );
  const { calls, call_files } = q.data;
  if (!calls.length) return <Text c="dimmed">No calls with this contact yet. Use Call above to place one.</Text>;
  const recordingsOf = (id: number) => call_files.filter((f) => f.call_id === id);
  return (
    <Stack>
      <RecordTable
        label="Calls with this contact"
        minWidth={760}
        rows={calls}
        rowKey={(c) => c.id}
        columns={[
          { header: 'When', cell: (c) => new Date(c.created_at).toLocaleString() },
          {
            header: 'Direction',
            cell: (c) =>
              c.call_direction === 'outbound'
                ? `Out to ${formatPhone(c.call_to)}`
                : `In from ${formatPhone(c.call_from)}`,
          },
          { header: 'Agent', cell: (c) => c.agent.name },
          { header: 'Length', cell: (c) => `${length(c.duration_s)} · ${c.status}` },
          { header: 'Disclaimer in first minute', cell: (c) => <Disclaimer call={c} /> },
          {
            header: 'Recording',
            cell: (c) => {
              const files = recordingsOf(c.id);
              if (!files.length) return <>None</>;
              return (
                <Stack gap={4}>
                  {files.map((f) => (
                    // biome-ignore lint/a11y/useMediaCaption: a phone call recording has no captions to offer
                    <audio
                      key={f.id}
                      controls
                      preload="none"
                      src={f.url}
                      aria-label={`Recording of the call of ${new Date(c.created_at).toLocaleString()}`}
                      style={{ maxWidth: 240 }}
                    />
                  ))}
                  <Text size="xs" c="dimmed">
                    Kept until {new Date(files[0].retain_until).toLocaleDateString()}
                  </Text>
                </Stack>
              );
            },
          },
        ]}
      />
    </Stack>
  );
}
