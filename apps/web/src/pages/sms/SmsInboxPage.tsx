/**
 * The texting inbox (/sms): conversations newest first with unread counts and search, and the open contact's thread
 * beside it (on a phone, one or the other). The open conversation and the search live in the URL (?contact=, ?q=).
 * Replies arrive over the SMS channel of /cable (live/sms.ts) and update the list and the thread at once.
 */

import {
  Alert,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  Modal,
  Paper,
  ScrollArea,
  Stack,
  Text,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { qk } from '../../api/queries';
import { type Conversation, textingQueries } from '../../api/sms';
import { PageHeading } from '../../components/PageHeading';
import { onSmsMessage } from '../../live/sms';
import { NumbersPanel } from './NumbersPanel';
import { SmsThread } from './SmsThread';

const when = (iso: string) => {
  const d = new Date(iso);
  const today = new Date().toDateString() === d.toDateString();
  return today
    ? d.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })
    : d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' });
};

function ConversationRow({ c, active, onOpen }: { c: Conversation; active: boolean; onOpen: () => void }) {
  return (
    <UnstyledButton
      onClick={onOpen}
      aria-current={active ? 'true' : undefined}
      p="sm"
      style={{
        display: 'block',
        width: '100%',
        borderRadius: 8,
        background: active ? 'var(--mantine-color-default-hover)' : undefined,
      }}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text fw={c.unread_count ? 700 : 500} truncate style={{ minWidth: 0 }}>
          {c.contact.name}
        </Text>
        <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
          {when(c.last_message.at)}
        </Text>
      </Group>
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" c="dimmed" truncate style={{ minWidth: 0, flex: 1 }}>
          {c.last_message.direction === 'outbound' ? 'You: ' : ''}
          {c.last_message.body}
        </Text>
        <Group gap={4} wrap="nowrap" style={{ flexShrink: 0 }}>
          {c.flagged && (
            <Badge color="orange" size="sm" variant="light">
              Check reply
            </Badge>
          )}
          {c.opted_out && (
            <Badge color="gray" size="sm" variant="light">
              Opted out
            </Badge>
          )}
          {c.unread_count > 0 && (
            <Badge color="blue" size="sm" circle aria-label={`${c.unread_count} unread`}>
              {c.unread_count}
            </Badge>
          )}
        </Group>
      </Group>
    </UnstyledButton>
  );
}

export function SmsInboxPage() {
  const [params, setParams] = useSearchParams();
  const contactId = Number(params.get('contact')) || null;
  const q = params.get('q') ?? '';
  const [search, setSearch] = useState(q);
  const [numbersOpen, setNumbersOpen] = useState(false);
  const narrow = useMediaQuery('(max-width: 48em)');
  const qc = useQueryClient();

  useEffect(() => {
    const t = setTimeout(() => {
      if (search !== q) {
        setParams(
          (p) => {
            const n = new URLSearchParams(p);
            if (search) n.set('q', search);
            else n.delete('q');
            return n;
          },
          { replace: true },
        );
      }
    }, 300);
    return () => clearTimeout(t);
  }, [search, q, setParams]);

  const list = useQuery({
    ...textingQueries.conversations({ q }),
  });
  const numbers = useQuery(textingQueries.myNumbers());

  useEffect(
    () =>
      onSmsMessage((m) => {
        void qc.invalidateQueries({ queryKey: qk('POST /v1/sms/fetch_conversations') });
        if (m.contact_id) void qc.invalidateQueries({ queryKey: textingQueries.thread(m.contact_id).queryKey });
      }),
    [qc],
  );

  const open = (id: number | null) =>
    setParams((p) => {
      const n = new URLSearchParams(p);
      if (id) n.set('contact', String(id));
      else n.delete('contact');
      return n;
    });

  const noNumber = numbers.data && numbers.data.data.length === 0;
  const showList = !narrow || !contactId;
  const showThread = !narrow || !!contactId;

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <PageHeading title="Texts" />
        <Button variant="default" onClick={() => setNumbersOpen(true)}>
          Numbers
        </Button>
      </Group>
      {noNumber && (
        <Alert color="blue" title="Get a number to text from">
          <Stack gap="xs" align="flex-start">
            <Text size="sm">
              Texts go out from a number of your own. Pick one in your area code; it is paid from your wallet.
            </Text>
            <Button size="xs" onClick={() => setNumbersOpen(true)}>
              Get a number
            </Button>
          </Stack>
        </Alert>
      )}
      <Group align="stretch" gap="md" wrap="nowrap">
        {showList && (
          <Paper withBorder p="xs" style={{ width: narrow ? '100%' : 320, flexShrink: 0 }}>
            <Stack gap="xs">
              <TextInput
                aria-label="Search conversations"
                placeholder="Search by name or number"
                value={search}
                onChange={(e) => setSearch(e.currentTarget.value)}
              />
              {list.isPending && <Loader size="sm" aria-label="Loading conversations" />}
              {list.error && <Alert color="red">{errorMessage(list.error)}</Alert>}
              {list.data && list.data.data.length === 0 && (
                <Text size="sm" c="dimmed" p="sm">
                  {q
                    ? 'No conversation matches your search.'
                    : 'No conversations yet. Text a contact from their page to start one.'}
                </Text>
              )}
              <ScrollArea.Autosize mah={narrow ? undefined : 600}>
                <Stack gap={2} component="nav" aria-label="Conversations">
                  {list.data?.data.map((c) => (
                    <ConversationRow
                      key={c.contact.id}
                      c={c}
                      active={c.contact.id === contactId}
                      onOpen={() => open(c.contact.id)}
                    />
                  ))}
                </Stack>
              </ScrollArea.Autosize>
            </Stack>
          </Paper>
        )}
        {showThread && (
          <Box style={{ flex: 1, minWidth: 0 }}>
            {contactId ? (
              <SmsThread contactId={contactId} onBack={narrow ? () => open(null) : undefined} />
            ) : (
              <Paper withBorder p="xl">
                <Text c="dimmed">Pick a conversation to read it and reply.</Text>
              </Paper>
            )}
          </Box>
        )}
      </Group>
      <Modal opened={numbersOpen} onClose={() => setNumbersOpen(false)} title="Your numbers" size="lg">
        <NumbersPanel />
      </Modal>
    </Stack>
  );
}
