/**
 * A contact's Email tab: write and send one email (consent is checked by the server; a refusal says why), the
 * emails sent, and what became of them (delivered, opened, clicked, bounced, complained: 5 at first, more on demand;
 * shown when the email log feature is on).
 */

import { EMAIL_MESSAGE_STATUS_LABELS } from '@harbor/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  List,
  Loader,
  Paper,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import type { Contact } from '../../api/contacts';
import { contactEmailApi } from '../../api/email';
import { callQuery, qkUnder } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { when } from './format';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
/** Plain text as paragraphs: a blank line starts a new one. */
const toHtml = (text: string) =>
  text
    .split(/\n{2,}/)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`)
    .join('');

const BAD = new Set(['bounced', 'dropped', 'failed', 'complained']);

function EmailLog({ number }: { number: number }) {
  const [limit, setLimit] = useState(5);
  const log = useQuery({
    ...callQuery('GET /v1/contacts/{id}/email_logs', { params: { id: number }, query: { limit } }),
  });
  if (log.isPending) return <Loader size="sm" aria-label="Loading the email log" />;
  if (log.isError) return <Alert color="red">{errorMessage(log.error)}</Alert>;
  return (
    <Stack gap="xs">
      {log.data.data.length === 0 ? (
        <Text size="sm">Nothing reported yet.</Text>
      ) : (
        <List size="sm" spacing={4} aria-label="Email log">
          {log.data.data.map((e) => (
            <List.Item key={e.id}>
              <Text span fw={600} size="sm">
                {e.label}
              </Text>{' '}
              · {e.subject} · {when(e.at)}
              {e.count > 1 ? ` (${e.count} times)` : ''}
              {e.detail ? ` — ${e.detail}` : ''}
            </List.Item>
          ))}
        </List>
      )}
      {log.data.has_more && (
        <Button variant="subtle" size="compact-sm" onClick={() => setLimit((l) => l + 5)}>
          Show more
        </Button>
      )}
    </Stack>
  );
}

export function EmailPanel({ contact }: { contact: Contact }) {
  const n = contact.number;
  const me = useCurrentUser();
  const qc = useQueryClient();
  const [subject, setSubject] = useState('');
  const [text, setText] = useState('');
  const [key, setKey] = useState(() => crypto.randomUUID());
  const history = useQuery(
    callQuery('POST /v1/contacts/{id}/email_history', { params: { id: n }, body: { page: 1, limit: 10 } }),
  );
  const send = useMutation({
    mutationFn: () => contactEmailApi.send(n, { subject, email_body: toHtml(text) }, key),
    onSuccess: () => {
      setSubject('');
      setText('');
      setKey(crypto.randomUUID());
      void qc.invalidateQueries(qkUnder('/v1/contacts/{id}', { params: { id: n } }));
    },
  });
  return (
    <Stack>
      <Paper withBorder p="md">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate();
          }}
        >
          <Stack>
            <Title order={2} size="h4">
              Email {contact.full_name || 'this contact'}
            </Title>
            {!contact.email && <Alert color="yellow">This contact has no email address.</Alert>}
            <TextInput
              label="Subject"
              required
              value={subject}
              onChange={(e) => setSubject(e.currentTarget.value)}
              maxLength={200}
            />
            <Textarea
              label="Message"
              required
              autosize
              minRows={5}
              value={text}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            {send.error && (
              <Alert color="red" role="alert">
                {errorMessage(send.error)}
              </Alert>
            )}
            {send.isSuccess && (
              <Alert color="green" role="status">
                Email queued to {send.data.to}.
              </Alert>
            )}
            <Group justify="flex-end">
              <Button
                type="submit"
                loading={send.isPending}
                disabled={!contact.email || !subject.trim() || !text.trim()}
              >
                Send email
              </Button>
            </Group>
          </Stack>
        </form>
      </Paper>
      <Title order={2} size="h4">
        Emails sent
      </Title>
      {history.isPending && <Loader size="sm" aria-label="Loading the email history" />}
      {history.data && history.data.data.length === 0 && <Text size="sm">No email sent to this contact yet.</Text>}
      {history.data && history.data.data.length > 0 && (
        <List size="sm" spacing={6} aria-label="Emails sent">
          {history.data.data.map((m) => (
            <List.Item key={m.id}>
              <Group gap="xs" wrap="wrap">
                <Text span size="sm" fw={600}>
                  {m.subject}
                </Text>
                <Badge
                  size="sm"
                  variant="light"
                  color={BAD.has(m.status) ? 'red' : m.status === 'queued' || m.status === 'sending' ? 'gray' : 'green'}
                >
                  {EMAIL_MESSAGE_STATUS_LABELS[m.status]}
                </Badge>
                <Text span size="sm" c="dimmed">
                  {when(m.created_at)} · from {m.from.name}
                  {m.broadcast_id ? ' · broadcast' : ''}
                </Text>
              </Group>
            </List.Item>
          ))}
        </List>
      )}
      {me.features.email_log !== false && (
        <>
          <Title order={2} size="h4">
            Email log
          </Title>
          <EmailLog number={n} />
        </>
      )}
    </Stack>
  );
}
