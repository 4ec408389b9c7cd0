/**
 * Filters by name: status, tags, owner, source, pool, group, agent-flow status, dates and the contact's own fields,
 * each picked from a list of names. They combine (every filter narrows the list); the active ones show as chips a
 * person can read and remove one by one.
 */

import { CONTACT_TYPES, type ContactFilterField, EMAIL_STATUSES, GENDERS, LANGUAGES, US_STATES } from '@harbor/shared';
import { Button, Collapse, Group, MultiSelect, Paper, Pill, Select, SimpleGrid, TextInput } from '@mantine/core';
import { IconFilter } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { tagsQuery } from '../../api/contacts';
import { callQuery } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { mayPickOwners } from '../../components/pickers';
import { TagPicker } from '../../components/TagPicker';
import type { Filters } from './listUrlState';
import type { ContactsList } from './useContactsList';
import { useLookups } from './useLookups';

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** Windows of the Medicare date engine's "turning 65" filter (docs/decisions/medicare-dates.md). */
export const TURNING_65_CHOICES = ['30', '60', '90', '180', '365'].map((d) => ({ value: d, label: `${d} days` }));
const capitalize = (s: string) => s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ');
const opts = (values: readonly string[]) => values.map((v) => ({ value: v, label: capitalize(v) }));

/** Every filter's label, and how to name a value of it (for the chips). */
export const FILTER_LABELS: Partial<Record<ContactFilterField, string>> = {
  status_id: 'Status',
  tag_ids: 'Tag',
  owner_id: 'Owner',
  source_id: 'Source',
  group_id: 'Group',
  agentflow_status_id: 'Agent-flow status',
  created_from: 'Added on or after',
  created_to: 'Added on or before',
  type: 'Type',
  state: 'State',
  city: 'City',
  zip: 'ZIP code',
  county: 'County',
  birth_month: 'Birth month',
  language: 'Language',
  gender: 'Gender',
  email_status: 'Email status',
  is_new: 'New',
  first_name: 'First name',
  last_name: 'Last name',
  email: 'Email',
  phone: 'Phone',
  address: 'Address',
  category: 'Category',
  pool_id: 'Pool',
  turning_65_within: 'Turning 65 within',
  medigap_oe: 'In Medigap open enrollment',
};

const dateLabel = (iso: string) =>
  new Date(`${iso}T00:00:00`).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });

/** Names for ids and codes, from the lookups the pickers use. */
function useNames(list: ContactsList) {
  const lookups = useLookups();
  const owners = useQuery({
    ...callQuery('GET /v1/admin/users/owners'),
    enabled: mayPickOwners(useCurrentUser()),
  });
  const tagIds = list.state.filters.tag_ids ?? [];
  const tags = useQuery({
    ...tagsQuery(),
    enabled: !!tagIds.length,
  });
  const byId = (rows: Array<{ id: number; name: string }>) => new Map(rows.map((r) => [String(r.id), r.name]));
  const agentflow = [...lookups.agentflow.ungrouped, ...lookups.agentflow.groups.flatMap((g) => g.statuses)];
  const maps: Partial<Record<ContactFilterField, Map<string, string>>> = {
    status_id: byId(lookups.statuses),
    source_id: byId(lookups.sources),
    group_id: byId(lookups.groups),
    agentflow_status_id: byId(agentflow),
    owner_id: byId(owners.data?.data ?? []),
    tag_ids: byId(tags.data?.data ?? []),
  };
  return {
    lookups,
    owners: owners.data?.data ?? null,
    agentflow,
    name(field: ContactFilterField, value: string): string {
      const known = maps[field]?.get(value);
      if (known) return known;
      if (field === 'created_from' || field === 'created_to') return dateLabel(value);
      if (field === 'birth_month') return MONTHS[Number(value) - 1] ?? value;
      if (field === 'is_new' || field === 'medigap_oe') return value === 'true' ? 'Yes' : 'No';
      if (field === 'turning_65_within') return `${value} days`;
      if (maps[field]) return `#${value}`;
      return field === 'state' ? value : capitalize(value);
    },
  };
}

/** The active filters as chips: "Status: Sold, Lost", each removable. */
export function FilterChips({ list }: { list: ContactsList }) {
  const names = useNames(list);
  const active = Object.entries(list.state.filters).filter(([, v]) => v?.length) as Array<
    [ContactFilterField, string[]]
  >;
  if (!active.length) return null;
  const remove = (field: ContactFilterField) => {
    const next: Filters = { ...list.state.filters };
    delete next[field];
    list.setState({ filters: next });
  };
  return (
    <Group gap="xs" aria-label="Active filters" role="group">
      {active.map(([field, values]) => {
        const text = `${FILTER_LABELS[field] ?? field}: ${values.map((v) => names.name(field, v)).join(', ')}`;
        return (
          <Pill
            key={field}
            size="md"
            withRemoveButton
            onRemove={() => remove(field)}
            removeButtonProps={{ 'aria-label': `Remove filter ${text}` }}
          >
            {text}
          </Pill>
        );
      })}
      <Button variant="subtle" size="compact-sm" onClick={list.clearFilters}>
        Clear all
      </Button>
    </Group>
  );
}

export function ContactsFilters({ list, opened }: { list: ContactsList; opened: boolean }) {
  const names = useNames(list);
  const { filters } = list.state;
  const set = (field: ContactFilterField, values: string[]) =>
    list.setState({ filters: { ...filters, [field]: values.filter((v) => v !== '') } });
  const one = (field: ContactFilterField) => filters[field]?.[0] ?? null;
  const many = (field: ContactFilterField, label: string, data: Array<{ value: string; label: string }>) => (
    <MultiSelect
      label={label}
      searchable
      clearable
      data={data}
      value={filters[field] ?? []}
      onChange={(v) => set(field, v)}
      nothingFoundMessage="Nothing by that name"
    />
  );
  const named = (rows: Array<{ id: number; name: string }>) =>
    rows.map((r) => ({ value: String(r.id), label: r.name }));
  const { lookups } = names;
  const pools = useQuery({ ...callQuery('GET /v1/pools'), enabled: opened });

  return (
    <Collapse expanded={opened}>
      <Paper withBorder p="sm" component="section" aria-label="Filters">
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
          {many('status_id', 'Status', named(lookups.statuses))}
          <TagPicker
            label="Tag"
            value={(filters.tag_ids ?? []).map(Number)}
            onChange={(ids) => set('tag_ids', ids.map(String))}
          />
          {names.owners &&
            many(
              'owner_id',
              'Owner',
              names.owners.map((o) => ({ value: String(o.id), label: o.name })),
            )}
          {many('source_id', 'Source', named(lookups.sources))}
          <Select
            label="Pool"
            value={String(list.state.poolId)}
            onChange={(v) => list.setState({ poolId: !v || v === 'mine' ? 'mine' : Number(v) })}
            data={[
              { value: 'mine', label: 'My contacts' },
              ...named(pools.data?.data ?? []).map((p) => ({ ...p, label: `Pool: ${p.label}` })),
            ]}
            allowDeselect={false}
          />
          {many('group_id', 'Group', named(lookups.groups))}
          {many('agentflow_status_id', 'Agent-flow status', named(names.agentflow))}
          <Select
            label="Type"
            clearable
            data={opts(CONTACT_TYPES)}
            value={one('type')}
            onChange={(v) => set('type', v ? [v] : [])}
          />
          <TextInput
            label="Added on or after"
            type="date"
            value={one('created_from') ?? ''}
            onChange={(e) => set('created_from', [e.currentTarget.value])}
          />
          <TextInput
            label="Added on or before"
            type="date"
            value={one('created_to') ?? ''}
            onChange={(e) => set('created_to', [e.currentTarget.value])}
          />
          {many(
            'state',
            'State',
            US_STATES.map((s) => ({ value: s, label: s })),
          )}
          <Select
            label="Birth month"
            clearable
            data={MONTHS.map((m, i) => ({ value: String(i + 1), label: m }))}
            value={one('birth_month')}
            onChange={(v) => set('birth_month', v ? [v] : [])}
          />
          {many('language', 'Language', opts(LANGUAGES))}
          {many(
            'gender',
            'Gender',
            GENDERS.map((g) => ({ value: g.value, label: g.label })),
          )}
          {many('email_status', 'Email status', opts(EMAIL_STATUSES))}
          <Select
            label="Turning 65 within"
            clearable
            data={TURNING_65_CHOICES}
            value={one('turning_65_within')}
            onChange={(v) => set('turning_65_within', v ? [v] : [])}
          />
          <Select
            label="Medigap open enrollment"
            clearable
            data={[{ value: 'true', label: 'In it today' }]}
            value={one('medigap_oe')}
            onChange={(v) => set('medigap_oe', v ? [v] : [])}
          />
          <CommitInput label="City" value={one('city') ?? ''} onCommit={(v) => set('city', [v])} />
          <CommitInput label="ZIP code" value={one('zip') ?? ''} onCommit={(v) => set('zip', [v])} />
        </SimpleGrid>
      </Paper>
    </Collapse>
  );
}

/** A text filter applies when the person is done typing (Enter or leaving the field), not at every key. */
function CommitInput({ label, value, onCommit }: { label: string; value: string; onCommit: (v: string) => void }) {
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const commit = () => draft.trim() !== value && onCommit(draft.trim());
  return (
    <TextInput
      label={label}
      value={draft}
      onChange={(e) => setDraft(e.currentTarget.value)}
      onBlur={commit}
      onKeyDown={(e) => e.key === 'Enter' && commit()}
    />
  );
}

/** The button that opens the filters, saying how many are on. */
export function FiltersButton({
  list,
  opened,
  onToggle,
}: {
  list: ContactsList;
  opened: boolean;
  onToggle: () => void;
}) {
  const n = Object.values(list.state.filters).filter((v) => v?.length).length;
  return (
    <Button
      variant={opened ? 'light' : 'default'}
      leftSection={<IconFilter size={16} aria-hidden />}
      onClick={onToggle}
      aria-expanded={opened}
    >
      Filters{n ? ` (${n})` : ''}
    </Button>
  );
}
