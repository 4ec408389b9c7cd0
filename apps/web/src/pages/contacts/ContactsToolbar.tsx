/** Search box, group views, the manager's downline picker, the filters by name and saved quick filters. */

import { can } from '@harbor/shared';
import {
  ActionIcon,
  Button,
  Checkbox,
  CloseButton,
  Group,
  Menu,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconSearch, IconStar, IconTrash } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { deleteQuickFilter, saveQuickFilter } from '../../api/contacts-list';
import { callQuery, qkUnder } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { mayPickOwners } from '../../components/pickers';
import { subjectOf } from '../../layout/nav';
import { ContactsFilters, FilterChips, FiltersButton } from './ContactsFilters';
import { savedFilterData } from './listUrlState';
import type { ContactsList, GroupView } from './useContactsList';

const MEDICARE_PRESETS = [
  { label: 'Turning 65 in the next 90 days', filters: { turning_65_within: ['90'] } },
  { label: 'In Medigap OE', filters: { medigap_oe: ['true'] } },
];

function QuickFilters({ list }: { list: ContactsList }) {
  const qc = useQueryClient();
  const saved = useQuery(callQuery('GET /v1/users/quick_filters'));
  const [menuOpen, setMenuOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [name, setName] = useState('');
  // A saved filter is someone's work: the trash icon asks before it deletes.
  const [toDelete, setToDelete] = useState<{ id: number; name: string } | null>(null);
  const save = useMutation({
    mutationFn: (n: string) => saveQuickFilter(n, savedFilterData(list.state)),
    onSuccess: () => {
      setSaving(false);
      setName('');
      return qc.invalidateQueries(qkUnder('/v1/users/quick_filters'));
    },
  });
  const remove = useMutation({
    mutationFn: deleteQuickFilter,
    onSuccess: () => {
      setToDelete(null);
      return qc.invalidateQueries(qkUnder('/v1/users/quick_filters'));
    },
  });
  return (
    <>
      <Menu opened={menuOpen} onChange={setMenuOpen}>
        <Menu.Target>
          <Button variant="default" leftSection={<IconStar size={16} aria-hidden />}>
            Quick filters
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {/* Built in: the Medicare date engine's lists, on top of whatever else is filtered. */}
          <Menu.Label>Medicare dates</Menu.Label>
          {MEDICARE_PRESETS.map((p) => (
            <Menu.Item
              key={p.label}
              onClick={() => list.setState({ filters: { ...list.state.filters, ...p.filters } })}
            >
              {p.label}
            </Menu.Item>
          ))}
          <Menu.Divider />
          {(saved.data ?? []).map((f) => (
            // role=none: the row is layout; the menu's children are its two menu items.
            <Group key={f.id} gap={0} wrap="nowrap" role="none">
              <Menu.Item onClick={() => list.applySaved(f.data)}>{f.name}</Menu.Item>
              <ActionIcon
                variant="subtle"
                color="gray"
                role="menuitem"
                aria-label={`Delete quick filter ${f.name}`}
                onClick={() => {
                  setMenuOpen(false);
                  setToDelete({ id: f.id, name: f.name });
                }}
              >
                <IconTrash size={14} aria-hidden />
              </ActionIcon>
            </Group>
          ))}
          {saved.data?.length === 0 && <Menu.Label>No saved filters yet</Menu.Label>}
          <Menu.Divider />
          <Menu.Item onClick={() => setSaving(true)}>Save current filter</Menu.Item>
        </Menu.Dropdown>
      </Menu>
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
            if (name.trim()) save.mutate(name.trim());
          }}
        >
          <Stack>
            <Text size="sm" c="dimmed">
              Saves the search, filters, view and sort you have now.
            </Text>
            <TextInput
              label="Filter name"
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              data-autofocus
            />
            {save.isError && (
              <Text c="red" size="sm" role="alert">
                {errorMessage(save.error)}
              </Text>
            )}
            <Button type="submit" loading={save.isPending}>
              Save filter
            </Button>
          </Stack>
        </form>
      </Modal>
    </>
  );
}

export function ContactsToolbar({ list }: { list: ContactsList }) {
  const user = useCurrentUser();
  const manager = can(subjectOf(user), 'team.view');
  const { state, setState } = list;
  const owners = useQuery({
    ...callQuery('GET /v1/admin/users/owners'),
    enabled: manager && mayPickOwners(user),
  });
  const active = Object.values(state.filters).some((v) => v?.length);
  const [filtersOpen, setFiltersOpen] = useState(active);

  return (
    <Stack gap="sm">
      <Group align="end" wrap="wrap" gap="sm">
        <TextInput
          label="Search contacts"
          placeholder="Name, email or phone"
          leftSection={<IconSearch size={16} aria-hidden />}
          value={list.text}
          onChange={(e) => list.setText(e.currentTarget.value)}
          rightSection={
            list.text ? <CloseButton aria-label="Clear search" onClick={() => list.setText('')} size="sm" /> : null
          }
          style={{ flex: '1 1 240px', maxWidth: 360 }}
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
        {manager && (
          <>
            <Select
              label="Downline user"
              searchable
              value={state.downlineUserId ? String(state.downlineUserId) : ''}
              onChange={(v) => setState({ downlineUserId: v ? Number(v) : null })}
              data={[
                { value: '', label: 'Everyone I can see' },
                ...(owners.data?.data ?? []).map((o) => ({ value: String(o.id), label: o.name })),
              ]}
              allowDeselect={false}
              w={220}
            />
            <Checkbox
              label="All downline"
              checked={state.allDownline}
              onChange={(e) => setState({ allDownline: e.currentTarget.checked })}
              mb={8}
            />
          </>
        )}
        <FiltersButton list={list} opened={filtersOpen} onToggle={() => setFiltersOpen((o) => !o)} />
        <QuickFilters list={list} />
      </Group>
      <ContactsFilters list={list} opened={filtersOpen} />
      <FilterChips list={list} />
    </Stack>
  );
}
