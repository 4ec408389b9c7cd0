/** Name, type, status, tags and the one-click actions (quick status change, assign to me, email checks, card note). */
import { featureGateOpen, formatPhone } from '@harbor/shared';
import { Alert, Badge, Button, Group, Modal, NativeSelect, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { type Contact, contactsApi } from '../../api/contacts';
import { useCurrentUser } from '../../auth/session';
import { paletteOf } from '../../components/colors';
import { PageHeading } from '../../components/PageHeading';
import { subjectOf } from '../../layout/nav';
import { phoneShown, requestDial } from '../../softphone/dial';
import { options, useLookups } from './useLookups';

/**
 * "Assign to me" means something only when the contact is not already yours alone: it sits in a pool, or belongs
 * to someone else. Taking someone else's contact asks first, naming who loses it.
 */
function AssignToMe({ contact, run }: { contact: Contact; run: (f: () => Promise<Contact>) => void }) {
  const me = useCurrentUser();
  const [asking, setAsking] = useState(false);
  const mine = contact.owner?.id === me.id;
  if (mine && !contact.pool) return null;
  const assign = () => run(() => contactsApi.assignToMe(contact.number));
  const name = contact.full_name || 'this contact';
  return (
    <>
      <Button variant="light" onClick={() => (mine || !contact.owner ? assign() : setAsking(true))}>
        Assign to me
      </Button>
      <Modal opened={asking} onClose={() => setAsking(false)} title="Assign to me">
        <Stack>
          <Text size="sm">
            Take {name} from {contact.owner?.name}? {contact.owner?.name} will no longer own this contact
            {contact.pool ? ` and it leaves the pool ${contact.pool.name}` : ''}. The change is recorded on the
            timeline.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAsking(false)}>
              Cancel
            </Button>
            <Button
              onClick={() => {
                setAsking(false);
                assign();
              }}
            >
              Assign to me
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** Opens the contact's conversation in the texting inbox (shown when the SMS gate is open for the user). */
function TextButton({ contact }: { contact: Contact }) {
  const user = useCurrentUser();
  if (!user || !featureGateOpen(subjectOf(user), 'sms_feature') || !contact.phone) return null;
  return (
    <Button variant="light" component={Link} to={`/sms?contact=${contact.id}`}>
      Text
    </Button>
  );
}

export function ContactHeader({ contact, onChanged }: { contact: Contact; onChanged: (c: Contact) => void }) {
  const lookups = useLookups();
  const me = useCurrentUser();
  const canCall = phoneShown(me);
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
        <Group justify="space-between" align="start" gap="sm">
          <Stack gap={4} miw={0}>
            <PageHeading title={contact.full_name || `Contact #${contact.number}`} section="Contacts">
              {contact.full_name || 'Unnamed contact'}
            </PageHeading>
            <Group gap="xs">
              <Badge color={contact.type === 'client' ? 'green' : 'blue'}>
                {contact.type === 'client' ? 'Client' : 'Lead'}
              </Badge>
              {contact.status && (
                <Badge color={paletteOf(contact.status.color)} variant="light">
                  {contact.status.name}
                </Badge>
              )}
              {contact.is_new && <Badge color="orange">New</Badge>}
              {contact.deleted_at && <Badge color="red">Deleted</Badge>}
              {contact.tags.map((t) => (
                <Badge key={t.id} color={paletteOf(t.color)} variant="dot">
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
              {contact.phone ? formatPhone(contact.phone) : 'No phone'} ·{' '}
              <span style={{ overflowWrap: 'anywhere' }}>{contact.email ?? 'No email'}</span>
              {contact.email && (
                // A span: the line is a <p>, and a Badge is a <div> unless told otherwise.
                <Badge
                  component="span"
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
          <Group gap="xs" wrap="wrap">
            <NativeSelect
              aria-label="Quick status"
              value={contact.status ? String(contact.status.id) : ''}
              onChange={(e) => {
                // Read the choice now: React clears currentTarget once the handler returns, before the request runs.
                const value = e.currentTarget.value ? Number(e.currentTarget.value) : null;
                run.mutate(() => contactsApi.quickUpdate(n, { field: 'status_id', value }));
              }}
              data={options(lookups.statuses, 'No status')}
            />
            <AssignToMe contact={contact} run={run.mutate} />
            <TextButton contact={contact} />
            {canCall && (
              <Button
                color="green"
                leftSection={<IconPhone size={16} aria-hidden />}
                disabled={!contact.phone}
                onClick={() => contact.phone && requestDial(contact.phone, n)}
              >
                Call
              </Button>
            )}
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
        <Group align="end" wrap="wrap">
          <Textarea
            label="Card note"
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            rows={2}
            style={{ flex: '1 1 240px' }}
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
