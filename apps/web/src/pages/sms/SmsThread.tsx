/**
 * One contact's texts and the composer: templates from the campaign triggers marked show_on_conversation, a segment
 * counter (what is charged), an optional picture, delivery status on each message, and the agent's decision on a
 * reply flagged as a possible stop.
 */

import {
  formatUsd,
  MMS_MAX_BYTES,
  MMS_TYPES,
  SMS_MAX_SEGMENTS,
  SMS_STATUS_LABELS,
  type SmsMessage,
  smsSegments,
} from '@harbor/shared';
import {
  Alert,
  Anchor,
  Box,
  Button,
  FileInput,
  Group,
  Loader,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { qk } from '../../api/queries';
import { invalidateTexting, smsApi, type Thread, textingQueries } from '../../api/sms';

const BAD = new Set(['failed', 'undelivered']);

function Bubble({ m }: { m: SmsMessage }) {
  const out = m.direction === 'outbound';
  return (
    <Box style={{ alignSelf: out ? 'flex-end' : 'flex-start', maxWidth: '80%' }} data-testid="sms-message">
      <Paper
        p="xs"
        radius="md"
        bg={out ? 'var(--mantine-color-blue-light)' : 'var(--mantine-color-default-hover)'}
        style={{ wordBreak: 'break-word', whiteSpace: 'pre-wrap' }}
      >
        {m.media.map((x) => (
          <Anchor key={x.url} href={x.url} target="_blank" size="sm" display="block">
            Picture
          </Anchor>
        ))}
        <Text size="sm">{m.body}</Text>
      </Paper>
      <Text size="xs" c={BAD.has(m.status) ? 'red' : 'dimmed'} ta={out ? 'right' : 'left'}>
        {new Date(m.created_at).toLocaleString('en-US', {
          month: 'short',
          day: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
        })}
        {out && ` · ${SMS_STATUS_LABELS[m.status]}`}
        {m.error_message && ` · ${m.error_message}`}
        {m.refunded_cents > 0 && ` · Refunded ${formatUsd(m.refunded_cents)}`}
        {m.consent_change === 'opted_out' && ' · Opted out'}
        {m.consent_change === 'opted_in' && ' · Opted back in'}
      </Text>
    </Box>
  );
}

function Composer({ thread, contactId }: { thread: Thread; contactId: number }) {
  const qc = useQueryClient();
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [triggerId, setTriggerId] = useState('');
  const key = useRef(crypto.randomUUID());
  const templates = useQuery(textingQueries.templates());
  const seg = smsSegments(text);
  const tooLong = seg.segments > SMS_MAX_SEGMENTS;
  const fileError =
    file && !(MMS_TYPES as readonly string[]).includes(file.type)
      ? 'Pick a JPG, PNG or GIF picture'
      : file && file.size > MMS_MAX_BYTES
        ? 'A picture may be at most 5 MB'
        : null;
  const send = useMutation({
    mutationFn: () => {
      const form = new FormData();
      form.set('contact_id', String(contactId));
      form.set('message_to', thread.contact.phone ?? '');
      form.set('message_content', text);
      if (triggerId) form.set('campaign_trigger_id', triggerId);
      if (file) {
        form.set('mms', 'true');
        form.set('file', file);
      }
      return smsApi.send(form, key.current);
    },
    onSuccess: () => {
      setText('');
      setFile(null);
      setTriggerId('');
      key.current = crypto.randomUUID();
      void invalidateTexting(qc);
    },
  });
  const options = templates.data?.data ?? [];
  return (
    <Stack gap="xs">
      {send.error && (
        <Alert color="red" role="alert">
          {errorMessage(send.error)}
        </Alert>
      )}
      {options.length > 0 && (
        <NativeSelect
          label="Template"
          value={triggerId}
          onChange={(e) => {
            const id = e.currentTarget.value;
            setTriggerId(id);
            const t = options.find((o) => String(o.id) === id);
            if (t?.body) setText(t.body);
          }}
          data={[{ value: '', label: 'No template' }, ...options.map((o) => ({ value: String(o.id), label: o.name }))]}
        />
      )}
      <Textarea
        label="Message"
        autosize
        minRows={2}
        maxRows={8}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={tooLong ? `Too long: ${seg.segments} segments (at most ${SMS_MAX_SEGMENTS})` : undefined}
        description={`${seg.units} characters · ${seg.segments} segment${seg.segments === 1 ? '' : 's'} (${seg.encoding})`}
      />
      <Group align="end" justify="space-between" wrap="wrap">
        <FileInput
          label="Picture (optional)"
          placeholder="JPG, PNG or GIF, up to 5 MB"
          accept={MMS_TYPES.join(',')}
          clearable
          value={file}
          onChange={setFile}
          error={fileError}
          style={{ flex: '1 1 200px' }}
        />
        <Button
          onClick={() => send.mutate()}
          loading={send.isPending}
          disabled={(!text.trim() && !file) || tooLong || !!fileError}
        >
          Send
        </Button>
      </Group>
    </Stack>
  );
}

export function SmsThread({ contactId, onBack }: { contactId: number; onBack?: () => void }) {
  const qc = useQueryClient();
  const thread = useQuery({
    ...textingQueries.thread(contactId),
  });
  const unread = thread.data?.conversation?.unread_count ?? 0;
  useEffect(() => {
    if (unread > 0) {
      void smsApi
        .read(contactId)
        .then(() => qc.invalidateQueries({ queryKey: qk('POST /v1/sms/fetch_conversations') }));
    }
  }, [unread, contactId, qc]);
  const decide = useMutation({
    mutationFn: (status: 'allowed' | 'opted_out') =>
      smsApi.permission({ contact_id: contactId, status, clear_flag: true }),
    onSuccess: () => invalidateTexting(qc),
  });
  const end = useRef<HTMLDivElement>(null);
  const count = thread.data?.messages.length ?? 0;
  useEffect(() => {
    if (count) end.current?.scrollIntoView?.({ block: 'end' });
  }, [count]);

  if (thread.isPending) return <Loader aria-label="Loading the conversation" />;
  if (thread.error) return <Alert color="red">{errorMessage(thread.error)}</Alert>;
  const t = thread.data;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <div>
            <Title order={2} size="h3">
              {t.contact.name}
            </Title>
            <Text size="sm" c="dimmed">
              {t.contact.phone
                ? `${t.contact.phone.replace(/^(\d)(\d{3})(\d{3})(\d{4})$/, '$1-$2-$3-$4')}`
                : 'No phone number'}
              {t.line_type && ` · ${t.line_type}`} ·{' '}
              <Anchor component={Link} to={`/contacts/${t.contact.number}`} size="sm">
                Contact page
              </Anchor>
            </Text>
          </div>
          {onBack && (
            <Button variant="default" size="xs" onClick={onBack}>
              All conversations
            </Button>
          )}
        </Group>
        {t.conversation?.flagged && (
          <Alert color="orange" title="This reply may ask you to stop texting">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">It is not a clear STOP, so it was not treated as one. Read it and decide.</Text>
              <Group gap="xs">
                <Button size="xs" color="red" onClick={() => decide.mutate('opted_out')} loading={decide.isPending}>
                  Opt them out
                </Button>
                <Button size="xs" variant="default" onClick={() => decide.mutate('allowed')} loading={decide.isPending}>
                  Not a stop request
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        <Stack gap="xs" role="log" aria-label={`Texts with ${t.contact.name}`} aria-live="polite">
          {t.messages.length === 0 && <Text c="dimmed">No texts yet. Say hello.</Text>}
          {t.messages.map((m) => (
            <Bubble key={m.id} m={m} />
          ))}
          <div ref={end} />
        </Stack>
        {t.can_text ? (
          <Composer thread={t} contactId={contactId} />
        ) : (
          <Alert color="gray" role="status">
            {t.blocked_reason}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
