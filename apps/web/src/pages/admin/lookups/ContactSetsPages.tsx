/** Admin screens for tags, groups and pools (pools with their holders). */

import { TAG_COLORS } from '@harbor/shared';
import { Alert, Badge, Button, Group, NativeSelect, Stack, Table, Text, TextInput } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import { adminLookupsApi, lookupsApi, type PoolT, tagsQuery } from '../../../api/contacts';
import { callQuery, qk } from '../../../api/queries';
import { ConfirmDeleteButton } from '../../../components/ConfirmDeleteButton';
import { PageHeading } from '../../../components/PageHeading';
import { OwnerSelect } from '../../../components/pickers';

export function TagsAdminPage() {
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const [name, setName] = useState('');
  const [color, setColor] = useState<(typeof TAG_COLORS)[number]>('blue');
  const tags = useQuery(tagsQuery(search || undefined));
  const create = useMutation({
    mutationFn: () => lookupsApi.createTag(name, color),
    onSuccess: () => {
      setName('');
      void qc.invalidateQueries({ queryKey: qk('PATCH /v1/tags') });
    },
  });
  return (
    <Stack>
      <PageHeading title="Tags" section="Admin" />
      <TextInput label="Search tags" value={search} onChange={(e) => setSearch(e.currentTarget.value)} maw={320} />
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label="Tags">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Tag</Table.Th>
              <Table.Th>Contacts</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {tags.data?.data.map((t) => (
              <Table.Tr key={t.id}>
                <Table.Td>
                  <Badge color={t.color}>{t.name}</Badge>
                </Table.Td>
                <Table.Td>{t.contacts_count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group align="end">
        <TextInput label="New tag name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <NativeSelect
          label="New tag color"
          value={color}
          onChange={(e) => setColor(e.currentTarget.value as (typeof TAG_COLORS)[number])}
          data={[...TAG_COLORS]}
        />
        <Button onClick={() => create.mutate()} disabled={!name.trim()} loading={create.isPending}>
          Add tag
        </Button>
      </Group>
      {create.error && (
        <Alert color="red" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
    </Stack>
  );
}

export function GroupsAdminPage() {
  const qc = useQueryClient();
  const key = qk('GET /v1/groups');
  const groups = useQuery(callQuery('GET /v1/groups'));
  const [name, setName] = useState('');
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: () => adminLookupsApi.createGroup(name),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  const rename = useMutation({
    mutationFn: (a: { id: number; name: string }) => adminLookupsApi.renameGroup(a.id, a.name),
    onSuccess: refresh,
  });
  const remove = useMutation({ mutationFn: adminLookupsApi.deleteGroup, onSuccess: refresh });
  const error = create.error ?? rename.error ?? remove.error;
  return (
    <Stack>
      <PageHeading title="Groups" section="Admin" />
      <Text size="sm" c="dimmed">
        Deleting a group keeps its contacts; they just leave the group.
      </Text>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label="Groups">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Contacts</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {groups.data?.data.map((g) => (
              <Table.Tr key={`${g.id}-${g.name}`}>
                <Table.Td>
                  <TextInput
                    aria-label={`Name of group ${g.name}`}
                    defaultValue={g.name}
                    onBlur={(e) =>
                      e.currentTarget.value !== g.name && rename.mutate({ id: g.id, name: e.currentTarget.value })
                    }
                  />
                </Table.Td>
                <Table.Td>{g.contacts_count}</Table.Td>
                <Table.Td>
                  <ConfirmDeleteButton
                    label={`Delete group ${g.name}`}
                    onConfirm={() => remove.mutate(g.id)}
                    loading={remove.isPending}
                  />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group align="end">
        <TextInput label="New group name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Button onClick={() => create.mutate()} disabled={!name.trim()} loading={create.isPending}>
          Add group
        </Button>
      </Group>
    </Stack>
  );
}

function PoolRow({ pool, onChanged }: { pool: PoolT; onChanged: () => void }) {
  const [holder, setHolder] = useState<number | null>(null);
  const ids = pool.holders.map((h) => h.id);
  const update = useMutation({
    mutationFn: (holder_ids: number[]) => adminLookupsApi.updatePool(pool.id, { holder_ids }),
    onSuccess: () => {
      setHolder(null);
      onChanged();
    },
  });
  const remove = useMutation({ mutationFn: () => adminLookupsApi.deletePool(pool.id), onSuccess: onChanged });
  const error = update.error ?? remove.error;
  return (
    <Table.Tr>
      <Table.Td>{pool.name}</Table.Td>
      <Table.Td>{pool.contacts_count}</Table.Td>
      <Table.Td>
        <Group gap="xs">
          {pool.holders.map((h) => (
            <Badge
              key={h.id}
              variant="light"
              rightSection={
                <button
                  type="button"
                  aria-label={`Remove holder ${h.name} from ${pool.name}`}
                  onClick={() => update.mutate(ids.filter((x) => x !== h.id))}
                  style={{ border: 0, background: 'none', cursor: 'pointer' }}
                >
                  ×
                </button>
              }
            >
              {h.name}
            </Badge>
          ))}
        </Group>
        <Group gap="xs" mt="xs" align="end">
          <OwnerSelect
            size="xs"
            label={`Add holder to ${pool.name}`}
            placeholder="Search people"
            value={holder}
            onChange={setHolder}
          />
          <Button
            size="xs"
            onClick={() => holder && update.mutate([...ids, holder])}
            disabled={!holder || ids.includes(holder)}
          >
            Add holder
          </Button>
        </Group>
        {error && (
          <Text c="red" size="xs" role="alert">
            {errorMessage(error)}
          </Text>
        )}
      </Table.Td>
      <Table.Td>
        <ConfirmDeleteButton
          label={`Delete pool ${pool.name}`}
          onConfirm={() => remove.mutate()}
          loading={remove.isPending}
        />
      </Table.Td>
    </Table.Tr>
  );
}

export function PoolsAdminPage() {
  const qc = useQueryClient();
  const key = qk('GET /v1/pools');
  const pools = useQuery(callQuery('GET /v1/pools'));
  const [name, setName] = useState('');
  const refresh = () => void qc.invalidateQueries({ queryKey: key });
  const create = useMutation({
    mutationFn: () => adminLookupsApi.createPool(name, []),
    onSuccess: () => {
      setName('');
      refresh();
    },
  });
  return (
    <Stack>
      <PageHeading title="Pools" section="Admin" />
      <Text size="sm" c="dimmed">
        Holders see every contact in the pool. Deleting a pool keeps its contacts with their owners.
      </Text>
      <Table.ScrollContainer minWidth={480}>
        <Table aria-label="Pools">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Name</Table.Th>
              <Table.Th>Contacts</Table.Th>
              <Table.Th>Holders</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pools.data?.data.map((p) => (
              <PoolRow key={`${p.id}-${p.holders.length}`} pool={p} onChanged={refresh} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group align="end">
        <TextInput label="New pool name" value={name} onChange={(e) => setName(e.currentTarget.value)} />
        <Button onClick={() => create.mutate()} disabled={!name.trim()} loading={create.isPending}>
          Add pool
        </Button>
      </Group>
      {create.error && (
        <Alert color="red" role="alert">
          {errorMessage(create.error)}
        </Alert>
      )}
    </Stack>
  );
}
