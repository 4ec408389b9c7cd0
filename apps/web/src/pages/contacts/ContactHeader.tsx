/** Name, type, status, tags and the one-click actions (quick status change, assign to me, email checks, card note). */
import { Alert, Badge, Button, Group, NativeSelect, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { type Contact, contactsApi } from '../../api/contacts';
import { options, useLookups } from './useLookups';

export function ContactHeader({ contact, onChanged }: { contact: Contact; onChanged: (c: Contact) => void }) {
  const lookups = useLookups();
  const n = contact.number;
  const [note, setNote] = useState(contact.note ?? '');
  const [validation, setValidation] = useState<string | null>(null);
  const run = useMutation({ mutationFn: (f: () => Promise<Contact>) => f(), onSuccess: onChanged });
  const validate = useMutation({
    mutationFn: () => contactsApi.validateEmail(n),
    onSuccess: (r) => {
      onChanged(r.contact);
      setValidation(
        r.valid
          ? 'The address looks valid (checked offline; the mailbox itself was not contacted).'
          : `Invalid: ${r.reasons.join('; ')}${r.suggestion ? `. Did you mean ${r.suggestion}?` : ''}`,
      );
    },
  });
  const error = run.error ?? validate.error;
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" align="start">
          <Stack gap={4}>
            <Title order={2}>{contact.full_name || 'Unnamed contact'}</Title>
            <Group gap="xs">
              <Badge color={contact.type === 'client' ? 'green' : 'blue'}>
                {contact.type === 'client' ? 'Client' : 'Lead'}
              </Badge>
              {contact.status && (
                <Badge color={contact.status.color} variant="light">
                  {contact.status.name}
                </Badge>
              )}
              {contact.is_new && <Badge color="orange">New</Badge>}
              {contact.deleted_at && <Badge color="red">Deleted</Badge>}
              {contact.tags.map((t) => (
                <Badge key={t.id} color={t.color} variant="dot">
                  {t.name}
                </Badge>
              ))}
            </Group>
            <Text size="sm" c="dimmed">
              #{contact.number} · Owner: {contact.owner?.name ?? 'none'}
              {contact.pool ? ` · Pool: ${contact.pool.name}` : ''}
              {contact.age !== null ? ` · Age ${contact.age}` : ''}
            </Text>
            <Text size="sm">
              {contact.phone ?? 'No phone'} · {contact.email ?? 'No email'}
              {contact.email && (
                <Badge
                  ml="xs"
                  size="xs"
                  variant="outline"
                  color={
                    contact.email_status === 'invalid' ? 'red' : contact.email_status === 'unknown' ? 'gray' : 'green'
                  }
                >
                  email {contact.email_status}
                </Badge>
              )}
            </Text>
          </Stack>
          <Group gap="xs">
            <NativeSelect
              aria-label="Quick status"
              value={contact.status ? String(contact.status.id) : ''}
              onChange={(e) =>
                run.mutate(() =>
                  contactsApi.quickUpdate(n, {
                    field: 'status_id',
                    value: e.currentTarget.value ? Number(e.currentTarget.value) : null,
                  }),
                )
              }
              data={options(lookups.statuses, 'No status')}
            />
            <Button variant="light" onClick={() => run.mutate(() => contactsApi.assignToMe(n))}>
              Assign to me
            </Button>
            <Button
              variant="default"
              disabled={!contact.email}
              onClick={() => validate.mutate()}
              loading={validate.isPending}
            >
              Validate email
            </Button>
            <Button
              variant="default"
              disabled={!contact.email || contact.email_status === 'forced'}
              onClick={() => run.mutate(() => contactsApi.forceVerifyEmail(n))}
            >
              Force-verify email
            </Button>
          </Group>
        </Group>
        {validation && (
          <Alert color={validation.startsWith('Invalid') ? 'yellow' : 'green'} role="status">
            {validation}
          </Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {errorMessage(error)}
          </Alert>
        )}
        <Group align="end">
          <Textarea
            label="Card note"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            rows={2}
            style={{ flex: 1 }}
          />
          <Button
            variant="default"
            onClick={() => run.mutate(() => contactsApi.updateNote(n, note.trim() || null))}
            disabled={note === (contact.note ?? '')}
          >
            Save card note
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
