/**
 * One admin screen for a /v1/admin/<path> lookup (statuses, sources, carriers, agent-flow statuses): a table with
 * inline rename, active toggle and delete, and an add form. Server messages (duplicate name, in use) are shown as is.
 */

import { STATUS_COLORS } from '@harbor/shared';
import { Alert, Button, Group, NativeSelect, Stack, Switch, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { errorMessage } from '../../../api/client';
import { type AdminLookupPath, adminLookupsApi, invalidateLookups } from '../../../api/contacts';
import { qk } from '../../../api/queries';
import { ConfirmDeleteButton } from '../../../components/ConfirmDeleteButton';
import { PageHeading } from '../../../components/PageHeading';

export interface LookupRow {
  id: number;
  name: string;
  active: boolean;
  color?: string;
  naic?: string | null;
  group_id?: number | null;
}

export interface ExtraField {
  key: 'color' | 'naic' | 'group_id';
  label: string;
  options?: Array<{ value: string; label: string }>;
}

function Row({
  path,
  row,
  extra,
  onChanged,
}: {
  path: AdminLookupPath;
  row: LookupRow;
  extra: ExtraField[];
  onChanged: () => void;
}) {
  const [name, setName] = useState(row.name);
  const update = useMutation({
    mutationFn: (b: Record<string, unknown>) => adminLookupsApi.update(path, row.id, b),
    onSuccess: onChanged,
  });
  const remove = useMutation({ mutationFn: () => adminLookupsApi.remove(path, row.id), onSuccess: onChanged });
  const error = update.error ?? remove.error;
  return (
    <Table.Tr>
      <Table.Td>
        <TextInput
          aria-label={`Name of ${row.name}`}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          onBlur={() => name !== row.name && update.mutate({ name })}
        />
        {error && (
          <Text c="red" size="xs" role="alert">
            {errorMessage(error)}
          </Text>
        )}
      </Table.Td>
      {extra.map((f) => (
        <Table.Td key={f.key}>
          {f.options ? (
            <NativeSelect
              aria-label={`${f.label} of ${row.name}`}
              value={String(row[f.key] ?? '')}
              data={f.options}
              onChange={(e) =>
                update.mutate({
                  [f.key]:
                    f.key === 'group_id'
                      ? e.currentTarget.value
                        ? Number(e.currentTarget.value)
                        : null
                      : e.currentTarget.value,
                })
              }
            />
          ) : (
            <Text size="sm">{String(row[f.key] ?? '—')}</Text>
          )}
        </Table.Td>
      ))}
      <Table.Td>
        <Switch
          aria-label={`${row.name} active`}
          checked={row.active}
          onChange={(e) => update.mutate({ active: e.currentTarget.checked })}
        />
      </Table.Td>
      <Table.Td>
        <ConfirmDeleteButton
          label={`Delete ${row.name}`}
          onConfirm={() => remove.mutate()}
          loading={remove.isPending}
        />
      </Table.Td>
    </Table.Tr>
  );
}

export function LookupAdminPage(props: {
  path: AdminLookupPath;
  title: string;
  singular: string;
  extra?: ExtraField[];
  children?: ReactNode;
}) {
  const extra = props.extra ?? [];
  const qc = useQueryClient();
  const key = qk(`GET /v1/admin/${props.path}`);
  const list = useQuery({ queryKey: key, queryFn: () => adminLookupsApi.list(props.path) });
  // Every lookup's row is a LookupRow: the page shows the fields its `extra` names.
  const rows: LookupRow[] = list.data?.data ?? [];
  const [draft, setDraft] = useState<Record<string, string>>({ name: '' });
  const refresh = () => {
    void qc.invalidateQueries({ queryKey: key });
    void invalidateLookups(qc);
  };
  const create = useMutation({
    mutationFn: () => {
      const body: Record<string, unknown> = { name: draft.name };
      for (const f of extra) if (draft[f.key]) body[f.key] = f.key === 'group_id' ? Number(draft[f.key]) : draft[f.key];
      return adminLookupsApi.create(props.path, body);
    },
    onSuccess: () => {
      setDraft({ name: '' });
      refresh();
    },
  });
  return (
    <Stack>
      <PageHeading title={props.title} section="Admin" />
      {props.children}
      {list.isError && <Alert color="red">{errorMessage(list.error)}</Alert>}
      <Table.ScrollContainer minWidth={520}>
        <Table aria-label={props.title}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              {extra.map((f) => (
                <Table.Th key={f.key}>{f.label}</Table.Th>
              ))}
              <Table.Th>Active</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Row
                key={`${r.id}-${r.name}-${r.active}-${r.color}-${r.group_id}`}
                path={props.path}
                row={r}
                extra={extra}
                onChanged={refresh}
              />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group align="end">
        <TextInput
          label={`New ${props.singular} name`}
          value={draft.name}
          onChange={(e) => setDraft({ ...draft, name: e.currentTarget.value })}
        />
        {extra.map((f) =>
          f.options ? (
            <NativeSelect
              key={f.key}
              label={`New ${props.singular} ${f.label.toLowerCase()}`}
              value={draft[f.key] ?? ''}
              data={[{ value: '', label: 'Default' }, ...f.options]}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.currentTarget.value })}
            />
          ) : (
            <TextInput
              key={f.key}
              label={`New ${props.singular} ${f.label}`}
              value={draft[f.key] ?? ''}
              onChange={(e) => setDraft({ ...draft, [f.key]: e.currentTarget.value })}
            />
          ),
        )}
        <Button onClick={() => create.mutate()} loading={create.isPending} disabled={!draft.name.trim()}>
          Add {props.singular}
        </Button>
      </Group>
      {create.error && (
        <Alert color="red" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
      <Text size="xs" c="dimmed">
        Entries in use cannot be deleted; switch them off instead. Contacts keep them.
      </Text>
    </Stack>
  );
}

export const colorOptions = STATUS_COLORS.map((c) => ({ value: c, label: c }));
