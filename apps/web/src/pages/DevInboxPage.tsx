import {
  Alert,
  Anchor,
  Badge,
  Card,
  Group,
  Loader,
  ScrollArea,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Fragment } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../api/client';
import type { DevMail } from '../api/endpoints';
import { callQuery } from '../api/queries';
import { PageHeading } from '../components/PageHeading';

const URL_PATTERN = /(https?:\/\/[^\s<>"')]+)/g;

/** Split text into plain parts and links, so reset and invitation links in mails are clickable. */
export function linkify(text: string): { text: string; href?: string }[] {
  return text
    .split(URL_PATTERN)
    .filter((part) => part !== '')
    .map((part) => (/^https?:\/\//.test(part) ? { text: part, href: part } : { text: part }));
}

function MailText({ text }: { text: string }) {
  return (
    <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word', margin: 0 }}>
      {linkify(text).map((part, i) =>
        part.href ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable string
          <Anchor key={i} href={part.href}>
            {part.text}
          </Anchor>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: parts of one immutable string
          <Fragment key={i}>{part.text}</Fragment>
        ),
      )}
    </Text>
  );
}

function MailView({ mail }: { mail: DevMail }) {
  return (
    <Stack gap="sm">
      <div>
        <Title order={3} size="h4">
          {mail.subject}
        </Title>
        <Text size="sm" c="dimmed">
          From {mail.from} to {mail.to} · {new Date(mail.created_at).toLocaleString('en-US')}
        </Text>
      </div>
      {mail.html && (
        <iframe
          title={`HTML body of ${mail.subject}`}
          srcDoc={mail.html}
          sandbox=""
          style={{ width: '100%', minHeight: 320, border: '1px solid var(--mantine-color-default-border)' }}
        />
      )}
      {mail.text && (
        <Card withBorder>
          <MailText text={mail.text} />
        </Card>
      )}
    </Stack>
  );
}

/** The development inbox of the local mail stand-in: what the app "sent", readable without a mail server. */
export function DevInboxPage() {
  const [params, setParams] = useSearchParams();
  const selected = params.get('mail');
  const list = useQuery(callQuery('GET /v1/dev/mails'));
  const mail = useQuery({
    ...callQuery('GET /v1/dev/mails/{id}', { params: { id: selected ?? '' } }),
    enabled: !!selected,
  });

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <PageHeading title="Development inbox" />
        {list.data && <Badge variant="light">{list.data.data.length} messages</Badge>}
      </Group>
      <Text size="sm" c="dimmed">
        Mail Harbor sent on this machine. Signed out, you see what this browser asked for (a reset link, a sign-in
        code); signed in, your own mail, or all of it as a System Admin.
      </Text>
      {list.isPending && <Loader aria-label="Loading mail" />}
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      {list.data && list.data.data.length === 0 && <Text c="dimmed">No mail for you yet.</Text>}
      {list.data && list.data.data.length > 0 && (
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          <ScrollArea.Autosize mah="70vh">
            <Stack gap={4} component="ul" aria-label="Messages" style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {list.data.data.map((m) => (
                <li key={m.id}>
                  <UnstyledButton
                    onClick={() => setParams({ mail: String(m.id) })}
                    aria-current={String(m.id) === selected ? 'true' : undefined}
                    p="xs"
                    w="100%"
                    style={{
                      borderRadius: 6,
                      background: String(m.id) === selected ? 'var(--mantine-primary-color-light)' : undefined,
                    }}
                  >
                    <Text size="sm" fw={600} lineClamp={1}>
                      {m.subject}
                    </Text>
                    <Text size="xs" c="dimmed">
                      To {m.to} · {new Date(m.created_at).toLocaleString('en-US')}
                    </Text>
                  </UnstyledButton>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <div>
            {!selected && <Text c="dimmed">Choose a message to read it.</Text>}
            {selected && mail.isPending && <Loader aria-label="Loading message" />}
            {mail.isError && <Alert color="red">{errorMessage(mail.error)}</Alert>}
            {mail.data && <MailView mail={mail.data} />}
          </div>
        </SimpleGrid>
      )}
    </Stack>
  );
}
