/**
 * Merging duplicates, side by side: the records in columns, which one is kept, and for every field whose values
 * differ, the value the person picks (nothing is dropped silently: the kept contact's history keeps the others'
 * values). The server moves the merged contacts' notes, files, policies, securities, tags and history to the kept one.
 */

import { type ContactDetail, fieldLabel, MERGE_FIELDS, type MergeField, optionLabel } from '@harbor/shared';
import { Alert, Button, Group, Loader, Radio, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQueries } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { mergeContacts } from '../../api/contacts-list';
import { callQuery } from '../../api/queries';

type Choices = Partial<Record<MergeField, number>>;

/** The stored value (what is compared) and what a person reads, of one field of a contact. */
export function fieldValue(c: ContactDetail, f: MergeField): { key: string; text: string } {
  const text = (v: string | number | null | undefined) => (v === null || v === undefined || v === '' ? '' : String(v));
  switch (f) {
    case 'status_id':
      return { key: text(c.status?.id), text: c.status?.name ?? '' };
    case 'source_id':
      return { key: text(c.source?.id), text: c.source?.name ?? '' };
    case 'phone_type':
      return { key: text(c.phone_type), text: c.phone_type === 2 ? 'Mobile' : c.phone_type === 9 ? 'Other' : '' };
    case 'gender':
      return { key: text(c.gender), text: c.gender_label ?? '' };
    case 'type':
    case 'category':
    case 'language':
      return { key: text(c[f]), text: optionLabel(f, c[f]) ?? '' };
    default:
      return { key: text(c[f]), text: text(c[f]) };
  }
}

/** The fields whose values differ, and the default pick for each: the kept record's, else the first that has one. */
export function differingFields(records: ContactDetail[], keptId: number) {
  const kept = records.find((r) => r.id === keptId) ?? records[0];
  const fields = MERGE_FIELDS.filter((f) => new Set(records.map((r) => fieldValue(r, f).key)).size > 1);
  const defaults: Choices = {};
  for (const f of fields) {
    const own = fieldValue(kept, f).key;
    defaults[f] = own ? kept.id : (records.find((r) => fieldValue(r, f).key)?.id ?? kept.id);
  }
  return { fields, defaults };
}

export function MergeDialog(props: {
  contacts: Array<{ id: number; number: number }>;
  onDone: (message: string) => void;
  onCancel: () => void;
}) {
  const details = useQueries({
    queries: props.contacts.map((c) =>
      callQuery('GET /v1/contacts/{id}', { params: { id: c.number }, query: { not_remove_new_tag: 'true' } }),
    ),
  });
  const [keptId, setKeptId] = useState(props.contacts[0]?.id ?? 0);
  const [picked, setPicked] = useState<Choices>({});
  const records = details.map((d) => d.data).filter((d): d is ContactDetail => !!d);
  const loaded = records.length === props.contacts.length;
  const { fields, defaults } = loaded ? differingFields(records, keptId) : { fields: [], defaults: {} };
  const choices: Choices = { ...defaults, ...picked };
  const run = useMutation({
    mutationFn: () =>
      mergeContacts(
        keptId,
        records.map((r) => r.id).filter((id) => id !== keptId),
        choices,
      ),
    onSuccess: (r) => props.onDone(`${r.merged_ids.length + 1} contacts merged into one.`),
  });
  const failed = details.find((d) => d.error)?.error;
  if (failed) {
    return (
      <Alert color="red" role="alert">
        {errorMessage(failed)}
      </Alert>
    );
  }
  if (!loaded) return <Loader aria-label="Loading the contacts" />;
  const same = MERGE_FIELDS.length - fields.length;
  return (
    <Stack>
      <Text size="sm">
        Pick the record to keep and, for each field that differs, the value to keep. The other records' notes, files,
        policies, tags and history move to the kept one, and their values stay in its history.
      </Text>
      <Table.ScrollContainer minWidth={120 + 180 * records.length}>
        <Table aria-label="Records to merge" withColumnBorders verticalSpacing="xs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Field</Table.Th>
              {records.map((r) => (
                <Table.Th key={r.id}>
                  <Stack gap={2}>
                    <Text fw={700} size="sm">
                      {r.full_name || `#${r.number}`} (#{r.number})
                    </Text>
                    <Text size="xs" c="dimmed">
                      Owner: {r.owner?.name ?? 'nobody'}
                    </Text>
                    <Radio
                      name="kept"
                      checked={keptId === r.id}
                      onChange={() => {
                        setKeptId(r.id);
                        setPicked({});
                      }}
                      label="Keep this record"
                      aria-label={`Keep #${r.number}`}
                    />
                  </Stack>
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {fields.map((f) => (
              <Table.Tr key={f}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {fieldLabel(f)}
                  </Text>
                </Table.Td>
                {records.map((r) => {
                  const v = fieldValue(r, f);
                  return (
                    <Table.Td key={r.id}>
                      <Radio
                        name={`field-${f}`}
                        checked={choices[f] === r.id}
                        onChange={() => setPicked((p) => ({ ...p, [f]: r.id }))}
                        label={v.text || '(blank)'}
                        aria-label={`${fieldLabel(f)}: ${v.text || 'blank'} (#${r.number})`}
                        styles={{ label: { overflowWrap: 'anywhere' } }}
                      />
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text size="sm" c="dimmed">
        {fields.length === 0
          ? 'Every field is the same in these records.'
          : `${same} other fields are the same in every record.`}
      </Text>
      {run.error && (
        <Alert color="red" role="alert">
          {errorMessage(run.error)}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={props.onCancel}>
          Cancel
        </Button>
        <Button onClick={() => run.mutate()} loading={run.isPending}>
          Merge into #{records.find((r) => r.id === keptId)?.number}
        </Button>
      </Group>
    </Stack>
  );
}
