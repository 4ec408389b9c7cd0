/** Search box, group views, pool picker, manager's downline picker, field filters and saved quick filters. */
import { CONTACT_FILTER_FIELDS, type ContactFilterField, can, type SearchEntry } from '@harbor/shared';
import {
  ActionIcon,
  Button,
  Checkbox,
  Group,
  Menu,
  Modal,
  NativeSelect,
  SegmentedControl,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconFilter, IconStar, IconTrash, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { deleteQuickFilter, listOwners, listPools, listQuickFilters, saveQuickFilter } from '../../api/contacts-list';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';
import type { ContactsList, GroupView } from './useContactsList';

const FIELD_LABELS: Record<ContactFilterField, string> = {
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  city: 'City',
  address: 'Address',
  county: 'County',
  phone: 'Phone',
  state: 'State',
  zip: 'Zip',
  type: 'Type (lead/client)',
  category: 'Category',
  gender: 'Gender',
  language: 'Language',
  email_status: 'Email status',
  status_id: 'Status id',
  agentflow_status_id: 'Agent-flow status id',
  source_id: 'Source id',
  owner_id: 'Owner id',
  pool_id: 'Pool id',
  group_id: 'Group id',
  tag_ids: 'Tag ids (comma separated)',
  is_new: 'New (true/false)',
  created_from: 'Created from (YYYY-MM-DD)',
  created_to: 'Created to (YYYY-MM-DD)',
  birth_month: 'Birth month (1-12)',
};

function FilterRow({
  entry,
  index,
  onChange,
  onRemove,
}: {
  entry: SearchEntry;
  index: number;
  onChange: (e: SearchEntry) => void;
  onRemove: () => void;
}) {
  const n = index + 1;
  const value = Array.isArray(entry.value) ? entry.value.join(', ') : String(entry.value ?? '');
  return (
    <Group gap="xs" align="end">
      <NativeSelect
        label={`Filter ${n} field`}
        value={entry.field}
        onChange={(e) => onChange({ field: e.currentTarget.value, value: entry.value })}
        data={Object.entries(FIELD_LABELS).map(([v, label]) => ({ value: v, label }))}
      />
      <TextInput
        label={`Filter ${n} value`}
        value={value}
        onChange={(e) => {
          const raw = e.currentTarget.value;
          const list = CONTACT_FILTER_FIELDS[entry.field as ContactFilterField] === 'tags';
          onChange({
            field: entry.field,
            value: list
              ? raw
                  .split(',')
                  .map((s) => s.trim())
                  .filter(Boolean)
              : raw,
          });
        }}
      />
      <ActionIcon variant="subtle" aria-label={`Remove filter ${n}`} onClick={onRemove} mb={4}>
        <IconX size={16} />
      </ActionIcon>
    </Group>
  );
}

export function ContactsToolbar({ list }: { list: ContactsList }) {
  const user = useCurrentUser();
  const manager = can(subjectOf(user), 'team.view');
  const { state, setState } = list;
  const qc = useQueryClient();
  const pools = useQuery({ queryKey: ['pools'], queryFn: listPools });
  const owners = useQuery({ queryKey: ['owners'], queryFn: listOwners, enabled: manager });
  const saved = useQuery({ queryKey: ['quick_filters'], queryFn: listQuickFilters });
  const save = useMutation({
    mutationFn: (name: string) => saveQuickFilter(name, { ...state } as unknown as Record<string, unknown>),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['quick_filters'] }),
  });
  // A saved filter is someone's work: the trash icon asks before it deletes.
  const [toDelete, setToDelete] = useState<{ id: number; name: string } | null>(null);
  const [menuOpen, setMenuOpen] = useState(false);
  const remove = useMutation({
    mutationFn: deleteQuickFilter,
    onSuccess: () => {
      setToDelete(null);
      return qc.invalidateQueries({ queryKey: ['quick_filters'] });
    },
  });
  const setFilters = (filters: SearchEntry[]) => setState({ filters });
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');

  return (
    <Stack gap="sm">
      <Group align="end" wrap="wrap">
        <TextInput
          label="Search contacts"
          placeholder="Name, email or phone"
          value={state.q}
          onChange={(e) => setState({ q: e.currentTarget.value })}
          w={260}
        />
        <SegmentedControl
          aria-label="Group view"
          value={state.group}
          onChange={(v) => setState({ group: v as GroupView })}
          data={[
            { value: 'all', label: 'All' },
            { value: 'deleted', label: 'Deleted' },
            ...(manager ? [{ value: 'downline', label: 'Downline' }] : []),
          ]}
        />
        <NativeSelect
          label="Pool"
          value={String(state.poolId)}
          onChange={(e) =>
            setState({ poolId: e.currentTarget.value === 'mine' ? 'mine' : Number(e.currentTarget.value) })
          }
          data={[
            { value: 'mine', label: 'My contacts' },
            ...(pools.data ?? []).map((p) => ({ value: String(p.id), label: p.name })),
          ]}
        />
        {manager && (
          <>
            <NativeSelect
              label="Downline user"
              value={state.downlineUserId ? String(state.downlineUserId) : ''}
              onChange={(e) =>
                setState({ downlineUserId: e.currentTarget.value ? Number(e.currentTarget.value) : null })
              }
              data={[
                { value: '', label: 'Everyone I can see' },
                ...(owners.data ?? []).map((o) => ({ value: String(o.id), label: o.name })),
              ]}
            />
            <Checkbox
              label="All downline"
              checked={state.allDownline}
              onChange={(e) => setState({ allDownline: e.currentTarget.checked })}
              mb={8}
            />
          </>
        )}
        <Button
          variant="light"
          leftSection={<IconFilter size={16} />}
          onClick={() => setFilters([...state.filters, { field: 'state', value: '' }])}
        >
          Add filter
        </Button>
        <Menu opened={menuOpen} onChange={setMenuOpen}>
          <Menu.Target>
            <Button variant="light" leftSection={<IconStar size={16} />}>
              Quick filters
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {(saved.data ?? []).map((f) => (
              <Group key={f.id} gap={0} wrap="nowrap">
                <Menu.Item onClick={() => list.applySaved(f.data)}>{f.name}</Menu.Item>
                <ActionIcon
                  variant="subtle"
                  aria-label={`Delete quick filter ${f.name}`}
                  onClick={() => {
                    setMenuOpen(false);
                    setToDelete({ id: f.id, name: f.name });
                  }}
                >
                  <IconTrash size={14} />
                </ActionIcon>
              </Group>
            ))}
            {saved.data?.length === 0 && <Menu.Label>No saved filters yet</Menu.Label>}
            <Menu.Divider />
            <Menu.Item onClick={() => setSaving(true)}>Save current filter</Menu.Item>
          </Menu.Dropdown>
        </Menu>
      </Group>
      <Modal opened={toDelete !== null} onClose={() => setToDelete(null)} title="Delete quick filter">
        <Stack>
          <Text size="sm">Delete the quick filter "{toDelete?.name}"? This cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setToDelete(null)}>
              Cancel
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => toDelete && remove.mutate(toDelete.id)}>
              Delete filter
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={saving} onClose={() => setSaving(false)} title="Save quick filter">
        <form
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) return;
            save.mutate(name.trim(), { onSuccess: () => setSaving(false) });
          }}
        >
          <Stack>
            <TextInput
              label="Filter name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              data-autofocus
            />
            <Button type="submit" loading={save.isPending}>
              Save filter
            </Button>
          </Stack>
        </form>
      </Modal>
      {state.filters.map((f, i) => (
        <FilterRow
          // biome-ignore lint/suspicious/noArrayIndexKey: filter rows have no identity beyond their position
          key={i}
          entry={f}
          index={i}
          onChange={(e) => setFilters(state.filters.map((x, j) => (j === i ? e : x)))}
          onRemove={() => setFilters(state.filters.filter((_, j) => j !== i))}
        />
      ))}
    </Stack>
  );
}
