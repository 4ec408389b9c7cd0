/** Admin > Office locations: the company's offices (one main, any number of branches); people pick theirs. */

import { OFFICE_TYPES, type OfficeLocation, type OfficeLocationBody, US_STATES } from '@harbor/shared';
import { Alert, Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { createOffice, deleteOffice, updateOffice } from '../../api/people';
import { callQuery, qk } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';

type Draft = Record<'name' | 'office_type' | 'address' | 'city' | 'state' | 'zip_code' | 'phone', string>;
const EMPTY: Draft = { name: '', office_type: 'branch', address: '', city: '', state: '', zip_code: '', phone: '' };
const draftOf = (o: OfficeLocation): Draft => ({
  name: o.name,
  office_type: o.office_type,
  address: o.address ?? '',
  city: o.city ?? '',
  state: o.state ?? '',
  zip_code: o.zip_code ?? '',
  phone: o.phone ?? '',
});
const bodyOf = (d: Draft) =>
  ({
    name: d.name,
    office_type: d.office_type,
    address: d.address || null,
    city: d.city || null,
    state: d.state || null,
    zip_code: d.zip_code || null,
    phone: d.phone || null,
  }) as OfficeLocationBody;

function OfficeForm(props: { office: OfficeLocation | null; onDone: () => void }) {
  const [draft, setDraft] = useState<Draft>(props.office ? draftOf(props.office) : EMPTY);
  const save = useMutation({
    mutationFn: () => (props.office ? updateOffice(props.office.id, bodyOf(draft)) : createOffice(bodyOf(draft))),
    onSuccess: props.onDone,
  });
  const err = (k: string) => (save.error instanceof ApiError ? save.error.errors[k]?.[0] : undefined);
  // Field errors show under their field; the alert is for the rest (a network failure, a refusal).
  const shownOnFields = save.error instanceof ApiError && Object.keys(save.error.errors).every((k) => k in EMPTY);
  const field = (k: keyof Draft, label: string) => (
    <TextInput
      label={label}
      value={draft[k]}
      onChange={(e) => setDraft({ ...draft, [k]: e.currentTarget.value })}
      error={err(k)}
    />
  );
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  return (
    <form onSubmit={submit} aria-label={props.office ? `Edit ${props.office.name}` : 'New office'}>
      <Stack>
        {field('name', 'Office name')}
        <NativeSelect
          label="Office type"
          value={draft.office_type}
          onChange={(e) => setDraft({ ...draft, office_type: e.currentTarget.value })}
          data={OFFICE_TYPES.map((t) => ({ value: t, label: t === 'main' ? 'Main office' : 'Branch' }))}
          error={err('office_type')}
        />
        {field('address', 'Address')}
        <SimpleGrid cols={3}>
          {field('city', 'City')}
          <NativeSelect
            label="State"
            value={draft.state}
            onChange={(e) => setDraft({ ...draft, state: e.currentTarget.value })}
            data={[{ value: '', label: 'Not set' }, ...US_STATES]}
            error={err('state')}
          />
          {field('zip_code', 'ZIP code')}
        </SimpleGrid>
        {field('phone', 'Phone')}
        {save.isError && !shownOnFields && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {props.office ? 'Save office' : 'Add office'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function OfficeLocationsPage() {
  const qc = useQueryClient();
  const offices = useQuery({
    ...callQuery('GET /v1/admin/office_locations', { query: { limit: 100 } }),
  });
  const [editing, setEditing] = useState<OfficeLocation | 'new' | null>(null);
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: qk('GET /v1/admin/office_locations') });
    void qc.invalidateQueries({ queryKey: qk('GET /v1/users/office_locations') });
  };
  const remove = useMutation({ mutationFn: deleteOffice, onSuccess: refresh });
  return (
    <Stack>
      <Group justify="space-between">
        <PageHeading title="Office locations" section="Admin" />
        <Button onClick={() => setEditing('new')}>New office</Button>
      </Group>
      <Text size="sm" c="dimmed">
        One main office and any number of branches. Removing an office leaves its people without one.
      </Text>
      {(offices.isError || remove.isError) && (
        <Alert color="red" role="alert">
          {errorMessage(offices.error ?? remove.error)}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={640}>
        <Table aria-label="Office locations">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Type</Table.Th>
              <Table.Th>Address</Table.Th>
              <Table.Th>Phone</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {offices.data?.data.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{o.name}</Table.Td>
                <Table.Td>{o.office_type === 'main' ? 'Main office' : 'Branch'}</Table.Td>
                <Table.Td>
                  {[o.address, o.city, [o.state, o.zip_code].filter(Boolean).join(' ')].filter(Boolean).join(', ')}
                </Table.Td>
                <Table.Td>{o.phone ?? ''}</Table.Td>
                <Table.Td>
                  <Group gap="xs" justify="flex-end">
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={() => setEditing(o)}
                      aria-label={`Edit ${o.name}`}
                    >
                      Edit
                    </Button>
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      color="red"
                      onClick={() => window.confirm(`Remove ${o.name}?`) && remove.mutate(o.id)}
                      aria-label={`Remove ${o.name}`}
                    >
                      Remove
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? 'New office' : editing ? `Edit ${editing.name}` : ''}
      >
        {editing !== null && (
          <OfficeForm
            office={editing === 'new' ? null : editing}
            onDone={() => {
              setEditing(null);
              refresh();
            }}
          />
        )}
      </Modal>
    </Stack>
  );
}
