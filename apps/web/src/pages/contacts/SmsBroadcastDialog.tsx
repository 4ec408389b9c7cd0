/**
 * "Send text" from the contacts bulk menu: write the text (segments counted as charged), preview who receives it,
 * who is removed and why (opted out, no consent, landline or invalid number, ...), who waits for 8 a.m. in their
 * time zone, and what it costs against the wallet balance; then confirm and watch it go out. One Idempotency-Key
 * per dialog.
 */
import { formatUsd, SMS_MAX_SEGMENTS, smsSegments } from '@harbor/shared';
import { Alert, Button, Group, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import type { Selection } from '../../api/contacts-list';
import { smsBulkApi } from '../../api/sms';
import { PreviewSummary, Progressing } from './EmailBroadcastDialog';

export function SmsBroadcastDialog({ selection, onDone }: { selection: Selection; onDone: () => void }) {
  const [key] = useState(() => crypto.randomUUID());
  const [message, setMessage] = useState('');
  const [when, setWhen] = useState('');
  const [sentId, setSentId] = useState<number | null>(null);
  const seg = smsSegments(message);
  const preview = useMutation({ mutationFn: () => smsBulkApi.preview(selection, message) });
  const send = useMutation({
    mutationFn: () =>
      smsBulkApi.broadcast(selection, { message, ...(when ? { send_at: new Date(when).toISOString() } : {}) }, key),
    onSuccess: (b) => setSentId(b.id),
  });
  if (sentId) return <Progressing id={sentId} onClose={onDone} />;
  const p = preview.data;
  const error = preview.error ?? send.error;
  return (
    <Stack>
      <Textarea
        label="Text"
        autosize
        minRows={3}
        value={message}
        onChange={(e) => {
          setMessage(e.currentTarget.value);
          preview.reset();
        }}
        description={`${seg.units} characters · ${seg.segments} segment${seg.segments === 1 ? '' : 's'} a recipient`}
        error={seg.segments > SMS_MAX_SEGMENTS ? `Too long: at most ${SMS_MAX_SEGMENTS} segments` : undefined}
      />
      <TextInput
        type="datetime-local"
        label="Send at (leave empty to send now)"
        value={when}
        onChange={(e) => setWhen(e.currentTarget.value)}
      />
      <Group>
        <Button
          variant="default"
          onClick={() => preview.mutate()}
          loading={preview.isPending}
          disabled={!message.trim()}
        >
          Preview recipients
        </Button>
      </Group>
      {p && (
        <PreviewSummary p={p}>
          {p.waiting_for_morning > 0 && (
            <Text size="sm">
              In quiet hours where they are now: {p.waiting_for_morning} (theirs go out at 8 a.m. their time).
            </Text>
          )}
          <Text size="sm">
            Cost: {p.receive} × {p.segments} segment{p.segments === 1 ? '' : 's'} × {formatUsd(p.unit_price)} ={' '}
            {p.cost_label}. Wallet balance: {formatUsd(p.balance)}.
          </Text>
          {!p.affordable && (
            <Alert color="red" role="alert">
              Your wallet does not cover this broadcast. Top up your wallet first.
            </Alert>
          )}
        </PreviewSummary>
      )}
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
          disabled={!p || p.receive === 0 || !p.affordable}
        >
          {p ? `Send to ${p.receive} contact${p.receive === 1 ? '' : 's'}` : 'Send'}
        </Button>
      </Group>
    </Stack>
  );
}
