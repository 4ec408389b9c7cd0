/**
 * "Send email" from the contacts bulk menu: pick a template or a campaign trigger, see who will receive it and who is
 * removed and why (opted out, bounced, no email, ...), confirm, then watch it go out, with a cancel. One
 * Idempotency-Key per dialog: a second click (or a retried request) never sends twice.
 */

import { BROADCAST_STATUS_LABELS, type Broadcast } from '@harbor/shared';
import { Alert, Button, Group, List, Loader, NativeSelect, Progress, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../api/client';
import type { Selection } from '../../api/contacts-list';
import { sendApi } from '../../api/email';
import { callQuery } from '../../api/queries';

const DONE = new Set(['completed', 'cancelled', 'failed']);

/** A broadcast going out (any channel): progress, removed reasons, cancel. */
export function Progressing({ id, onClose }: { id: number; onClose: () => void }) {
  const q = useQuery({
    ...callQuery('GET /v1/broadcasts/{id}', { params: { id } }),
    refetchInterval: (query) => (query.state.data && DONE.has(query.state.data.status) ? false : 1000),
  });
  const cancel = useMutation({ mutationFn: () => sendApi.cancel(id), onSuccess: () => void q.refetch() });
  const b: Broadcast | undefined = q.data;
  if (!b) return <Loader aria-label="Loading the broadcast" />;
  const pct = b.total ? Math.round((b.processed / b.total) * 100) : 100;
  return (
    <Stack>
      <Text role="status">
        {BROADCAST_STATUS_LABELS[b.status]}: {b.sent} sent, {b.removed} removed{b.failed ? `, ${b.failed} failed` : ''}{' '}
        of {b.total}.
        {b.status === 'scheduled' && b.send_at ? ` Goes out ${new Date(b.send_at).toLocaleString('en-US')}.` : ''}
      </Text>
      <Progress value={pct} aria-label="Broadcast progress" />
      {b.removed_reasons.length > 0 && (
        <List size="sm">
          {b.removed_reasons.map((r) => (
            <List.Item key={r.reason}>
              {r.label}: {r.count}
            </List.Item>
          ))}
        </List>
      )}
      {cancel.error && (
        <Alert color="red" role="alert">
          {errorMessage(cancel.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        {!DONE.has(b.status) && (
          <Button color="red" variant="light" onClick={() => cancel.mutate()} loading={cancel.isPending}>
            Cancel broadcast
          </Button>
        )}
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

/** Who a broadcast reaches and who is removed, and why; a channel adds its own lines (cost, quiet hours) as children. */
export function PreviewSummary({
  p,
  children,
}: {
  p: {
    receive: number;
    total: number;
    removed: Array<{ reason: string; label: string; count: number }>;
    removed_sample: Array<{ name: string; label: string }>;
  };
  children?: ReactNode;
}) {
  return (
    <Stack gap={4} aria-label="Who receives it">
      <Text fw={600}>
        {p.receive} of {p.total} will receive it.
      </Text>
      {p.removed.length > 0 && (
        <>
          <Text size="sm">Removed, and why:</Text>
          <List size="sm">
            {p.removed.map((r) => (
              <List.Item key={r.reason}>
                {r.label}: {r.count}
              </List.Item>
            ))}
          </List>
          <Text size="sm" c="dimmed">
            {p.removed_sample.map((r) => `${r.name} (${r.label.toLowerCase()})`).join(', ')}
          </Text>
        </>
      )}
      {children}
    </Stack>
  );
}

export function EmailBroadcastDialog({ selection, onDone }: { selection: Selection; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const [choice, setChoice] = useState('');
  const [when, setWhen] = useState('');
  const [sentId, setSentId] = useState<number | null>(null);
  const templates = useQuery(callQuery('GET /v1/contacts/emails'));
  const triggers = useQuery({
    ...callQuery('GET /v1/contacts/email_campaign_triggers', { query: { show_on: 'bulk' } }),
  });
  const preview = useMutation({ mutationFn: () => sendApi.preview(selection) });
  const [kind, id] = choice.split(':');
  const body = () => ({
    ...(kind === 'email' ? { email_id: Number(id) } : { email_campaign_trigger_id: Number(id) }),
    ...(when ? { send_at: new Date(when).toISOString() } : {}),
  });
  const send = useMutation({
    mutationFn: () => sendApi.broadcast(selection, body(), key),
    onSuccess: (b) => setSentId(b.id),
  });
  const test = useMutation({
    mutationFn: () =>
      sendApi.test({
        ...(kind === 'email' ? { email_id: Number(id) } : {}),
        ids: 'ids' in selection ? selection.ids.slice(0, 1) : undefined,
      }),
  });
  if (sentId) return <Progressing id={sentId} onClose={onDone} />;
  const options = [
    { value: '', label: 'Choose an email or a campaign trigger' },
    ...(templates.data?.data ?? []).map((t) => ({ value: `email:${t.id}`, label: `Email: ${t.name}` })),
    ...(triggers.data?.data ?? []).map((t) => ({ value: `trigger:${t.id}`, label: `Campaign: ${t.name}` })),
  ];
  const error = preview.error ?? send.error ?? test.error;
  return (
    <Stack>
      <NativeSelect
        label="What to send"
        value={choice}
        onChange={(e) => setChoice(e.currentTarget.value)}
        data={options}
      />
      <TextInput
        type="datetime-local"
        label="Send at (leave empty to send now)"
        value={when}
        onChange={(e) => setWhen(e.currentTarget.value)}
      />
      <Group wrap="wrap">
        <Button variant="default" onClick={() => preview.mutate()} loading={preview.isPending}>
          Preview recipients
        </Button>
        <Button variant="subtle" disabled={kind !== 'email'} onClick={() => test.mutate()} loading={test.isPending}>
          Send a test to me
        </Button>
      </Group>
      {test.data && (
        <Alert color="green" role="status">
          Test sent to {test.data.sent_to}.
        </Alert>
      )}
      {preview.data && <PreviewSummary p={preview.data} />}
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onDone}>
          Cancel
        </Button>
        <Button
          onClick={() => send.mutate()}
          loading={send.isPending}
          disabled={!choice || !preview.data || preview.data.receive === 0}
        >
          {preview.data ? `Send to ${preview.data.receive} contact${preview.data.receive === 1 ? '' : 's'}` : 'Send'}
        </Button>
      </Group>
    </Stack>
  );
}
