/** Linked contact, activity, data capture, Rx details and transfer history of a contact. */

import { ACTIVITY_TYPES, featureGateOpen } from '@harbor/shared';
import {
  Alert,
  Anchor,
  Button,
  Group,
  NativeSelect,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { type Contact, contactsApi, type DataCapture, type Rx } from '../../api/contacts';
import { callQuery, qk } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';
import { label, when } from './format';

function LinkedContact({ contact, onChanged }: { contact: Contact; onChanged: (c: Contact) => void }) {
  const [other, setOther] = useState('');
  const link = useMutation({
    // The form takes the number people see; the API links by the other contact's id.
    mutationFn: async (n: string | null) =>
      contactsApi.linkContact(contact.number, n ? (await contactsApi.show(n, { keepNew: true })).id : null),
    onSuccess: (c) => {
      setOther('');
      onChanged(c);
    },
  });
  return (
    <Stack gap="xs">
      <Title order={4}>Linked contact</Title>
      {contact.linked_contact ? (
        <Group>
          <Anchor component={Link} to={`/contacts/${contact.linked_contact.number}`}>
            {contact.linked_contact.name} (#{contact.linked_contact.number})
          </Anchor>
          <Button size="compact-xs" variant="subtle" color="red" onClick={() => link.mutate(null)}>
            Unlink
          </Button>
        </Group>
      ) : (
        <Text c="dimmed" size="sm">
          None.
        </Text>
      )}
      <Group align="end">
        <TextInput
          label="Link contact number"
          value={other}
          onChange={(e) => setOther(e.currentTarget.value.replace(/\D/g, ''))}
        />
        <Button onClick={() => link.mutate(other)} disabled={!other} loading={link.isPending}>
          Link
        </Button>
      </Group>
      {link.error && <Alert color="red">{errorMessage(link.error)}</Alert>}
    </Stack>
  );
}

function Activity({ contact, onChanged }: { contact: Contact; onChanged: (c: Contact) => void }) {
  const [type, setType] = useState<(typeof ACTIVITY_TYPES)[number]>('call');
  const [description, setDescription] = useState('');
  const log = useMutation({
    mutationFn: () => contactsApi.activity(contact.number, { type, description: description || null }),
    onSuccess: (c) => {
      setDescription('');
      onChanged(c);
    },
  });
  return (
    <Stack gap="xs">
      <Title order={4}>Activity</Title>
      <Text size="sm">
        Last activity:{' '}
        {contact.last_activity ? `${label(contact.last_activity.type)} · ${when(contact.last_activity.at)}` : 'none'}
      </Text>
      <Group align="end">
        <NativeSelect
          label="Activity type"
          value={type}
          onChange={(e) => setType(e.currentTarget.value as typeof type)}
          data={ACTIVITY_TYPES.map((t) => ({ value: t, label: label(t) }))}
        />
        <TextInput
          label="Activity description"
          value={description}
          onChange={(e) => setDescription(e.currentTarget.value)}
        />
        <Button onClick={() => log.mutate()} loading={log.isPending}>
          Log activity
        </Button>
      </Group>
      {log.error && <Alert color="red">{errorMessage(log.error)}</Alert>}
    </Stack>
  );
}

/** An editable list of rows, saved as a whole. */
function RowsEditor<T extends Record<string, unknown>>(props: {
  title: string;
  rows: T[];
  blank: T;
  columns: Array<{ key: keyof T & string; label: string }>;
  save: (rows: T[]) => Promise<unknown>;
}) {
  const [rows, setRows] = useState<T[]>(props.rows);
  const save = useMutation({ mutationFn: () => props.save(rows) });
  return (
    <Stack gap="xs">
      <Title order={4}>{props.title}</Title>
      {rows.map((r, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity of their own
        <SimpleGrid key={i} cols={{ base: 1, sm: props.columns.length + 1 }}>
          {props.columns.map((c) => (
            <TextInput
              key={c.key}
              label={`${c.label} ${i + 1}`}
              value={String(r[c.key] ?? '')}
              onChange={(e) => setRows(rows.map((x, j) => (j === i ? { ...x, [c.key]: e.currentTarget.value } : x)))}
            />
          ))}
          <Button
            variant="subtle"
            color="red"
            mt="lg"
            onClick={() => setRows(rows.filter((_, j) => j !== i))}
            aria-label={`Remove ${props.title} row ${i + 1}`}
          >
            Remove
          </Button>
        </SimpleGrid>
      ))}
      <Group>
        <Button variant="default" onClick={() => setRows([...rows, { ...props.blank }])}>
          Add row
        </Button>
        <Button onClick={() => save.mutate()} loading={save.isPending}>
          Save {props.title.toLowerCase()}
        </Button>
        {save.isSuccess && (
          <Text size="sm" c="green">
            Saved.
          </Text>
        )}
      </Group>
      {save.error && <Alert color="red">{errorMessage(save.error)}</Alert>}
    </Stack>
  );
}

export function MorePanel({ contact, onChanged }: { contact: Contact; onChanged: (c: Contact) => void }) {
  const n = contact.number;
  const qc = useQueryClient();
  // The server refuses update_linked_contact with the flag off; the section is not offered then.
  const linking = featureGateOpen(subjectOf(useCurrentUser()), 'linked_contacts');
  const capture = useQuery(callQuery('GET /v1/contacts/{id}/data_capture', { params: { id: n } }));
  const rx = useQuery(callQuery('GET /v1/contacts/{id}/rx_details', { params: { id: n } }));
  const transfers = useQuery(callQuery('GET /v1/contacts/{id}/transfer_history', { params: { id: n } }));
  const after = () =>
    void qc.invalidateQueries({ queryKey: qk('GET /v1/contacts/{id}', { params: { id: n } }), exact: true });
  return (
    <Stack gap="lg">
      {linking && <LinkedContact contact={contact} onChanged={onChanged} />}
      <Activity contact={contact} onChanged={onChanged} />
      {capture.data && (
        <RowsEditor<DataCapture>
          title="Data capture"
          rows={capture.data.data_captures}
          blank={{ key: '', label: '', value: '' }}
          columns={[
            { key: 'key', label: 'Question key' },
            { key: 'label', label: 'Question' },
            { key: 'value', label: 'Answer' },
          ]}
          save={(rows) =>
            contactsApi
              .saveDataCapture(
                n,
                rows.map((r) => ({ ...r, label: r.label || null })),
              )
              .then(after)
          }
        />
      )}
      {rx.data && (
        <RowsEditor<Rx>
          title="Rx details"
          rows={rx.data.rx_details}
          blank={{ drug_name: '', dosage: '', frequency: '', pharmacy: '' }}
          columns={[
            { key: 'drug_name', label: 'Drug' },
            { key: 'dosage', label: 'Dosage' },
            { key: 'frequency', label: 'Frequency' },
            { key: 'pharmacy', label: 'Pharmacy' },
          ]}
          save={(rows) =>
            contactsApi
              .saveRx(
                n,
                rows.map((r) => ({
                  ...r,
                  dosage: r.dosage || null,
                  frequency: r.frequency || null,
                  pharmacy: r.pharmacy || null,
                })),
              )
              .then(after)
          }
        />
      )}
      <Stack gap="xs">
        <Title order={4}>Transfer history</Title>
        {transfers.data?.data.length === 0 && (
          <Text c="dimmed" size="sm">
            Never transferred.
          </Text>
        )}
        {!!transfers.data?.data.length && (
          <Table.ScrollContainer minWidth={520}>
            <Table aria-label="Transfer history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>When</Table.Th>
                  <Table.Th>From</Table.Th>
                  <Table.Th>To</Table.Th>
                  <Table.Th>Status</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {transfers.data.data.map((t) => (
                  <Table.Tr key={t.id}>
                    <Table.Td>{when(t.created_at)}</Table.Td>
                    <Table.Td>{t.from_user?.name ?? '—'}</Table.Td>
                    <Table.Td>{t.to_user?.name ?? '—'}</Table.Td>
                    <Table.Td>{t.reverted ? 'reverted' : t.status}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
      </Stack>
    </Stack>
  );
}
