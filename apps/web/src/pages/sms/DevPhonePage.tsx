/**
 * "Be the phone" (/dev/phone, development only, like /dev/inbox): the texts the loopback carrier delivered to a
 * number, and a reply from it, which reaches Harbor as a signed inbound webhook exactly as a carrier's would.
 */

import { formatPhone } from '@harbor/shared';
import {
  Alert,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  UnstyledButton,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { callQuery, qkUnder } from '../../api/queries';
import { devPhoneApi } from '../../api/sms';
import { PageHeading } from '../../components/PageHeading';

export function DevPhonePage() {
  const [params, setParams] = useSearchParams();
  const number = params.get('number') ?? '';
  const [typed, setTyped] = useState(number);
  const [text, setText] = useState('');
  const qc = useQueryClient();
  const phones = useQuery({
    ...callQuery('GET /v1/dev/phones'),
    refetchInterval: 2000,
  });
  const phone = useQuery({
    ...callQuery('GET /v1/dev/phone', { query: { number } }),
    enabled: !!number,
    refetchInterval: 1500,
  });
  const entries = phone.data?.entries ?? [];
  const business = [...entries].reverse().find((e) => e.business)?.business ?? '';
  const reply = useMutation({
    mutationFn: () => devPhoneApi.reply({ from: number, to: business, body: text }),
    onSuccess: () => {
      setText('');
      void qc.invalidateQueries(qkUnder('/v1/dev'));
    },
  });
  return (
    <Stack gap="md" p="md" maw={1000} mx="auto">
      <PageHeading title="Be the phone" section="Development" />
      <Text c="dimmed" size="sm">
        Development only: the texts the local carrier delivered, and replies as if from the phone itself.
      </Text>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Paper withBorder p="sm">
          <Stack gap="xs">
            <form
              onSubmit={(e) => {
                e.preventDefault();
                setParams({ number: typed.replace(/\D/g, '') });
              }}
            >
              <Group align="end" gap="xs" wrap="nowrap">
                <TextInput
                  label="Phone number"
                  value={typed}
                  onChange={(e) => setTyped(e.currentTarget.value)}
                  style={{ flex: 1 }}
                />
                <Button type="submit" variant="default">
                  Open
                </Button>
              </Group>
            </form>
            {phones.data?.data.length === 0 && (
              <Text size="sm" c="dimmed">
                No texts delivered yet.
              </Text>
            )}
            {phones.data?.data.map((p) => (
              <UnstyledButton
                key={p.number}
                onClick={() => {
                  setTyped(p.number);
                  setParams({ number: p.number });
                }}
                p={4}
              >
                <Text fw={p.number === number ? 700 : 500}>{formatPhone(p.number)}</Text>
                <Text size="xs" c="dimmed" truncate>
                  {p.last.body}
                </Text>
              </UnstyledButton>
            ))}
          </Stack>
        </Paper>
        <Paper withBorder p="sm" style={{ gridColumn: 'span 2' }}>
          {!number ? (
            <Text c="dimmed">Open a phone number to see its texts.</Text>
          ) : (
            <Stack gap="xs">
              <Text fw={700}>{formatPhone(number)}</Text>
              <Stack gap={6} role="log" aria-label={`Texts on ${formatPhone(number)}`}>
                {entries.length === 0 && <Text c="dimmed">Nothing delivered to this phone yet.</Text>}
                {entries.map((e) => (
                  <Paper
                    key={e.sid}
                    p="xs"
                    radius="md"
                    bg={
                      e.direction === 'from_phone'
                        ? 'var(--mantine-color-blue-light)'
                        : 'var(--mantine-color-default-hover)'
                    }
                    style={{
                      alignSelf: e.direction === 'from_phone' ? 'flex-end' : 'flex-start',
                      maxWidth: '85%',
                      wordBreak: 'break-word',
                    }}
                  >
                    <Text size="sm">{e.body}</Text>
                    <Text size="xs" c="dimmed">
                      {e.direction === 'from_phone'
                        ? `To ${formatPhone(e.business)}`
                        : `From ${formatPhone(e.business)}`}{' '}
                      · {new Date(e.at).toLocaleTimeString('en-US')}
                    </Text>
                  </Paper>
                ))}
              </Stack>
              {reply.error && <Alert color="red">{errorMessage(reply.error)}</Alert>}
              <Textarea
                label="Reply from this phone"
                value={text}
                onChange={(e) => setText(e.currentTarget.value)}
                autosize
                minRows={2}
              />
              <Group justify="flex-end">
                <Button onClick={() => reply.mutate()} disabled={!text.trim() || !business} loading={reply.isPending}>
                  Send reply
                </Button>
              </Group>
            </Stack>
          )}
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}
