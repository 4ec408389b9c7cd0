/**
 * Picks one contact by typing part of a name, phone or email: the contacts list searched with `q` (the same
 * visibility as the list), ten at a time. `current` keeps the label of a value already set.
 */

import { Select, type SelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { callQuery } from '../api/queries';

export interface PickedContact {
  id: number;
  number: number;
  name: string;
}

export function ContactPicker({
  value,
  onChange,
  current,
  ...rest
}: Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: number | null;
  onChange: (c: PickedContact | null) => void;
  current?: PickedContact | null;
}) {
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const found = useQuery({
    ...callQuery('PATCH /v1/contacts', { body: { q, limit: 10 } }),
    enabled: q.length >= 2,
  });
  const rows = (found.data?.data ?? []).map((c) => ({
    id: c.id,
    number: c.number,
    name: `${c.first_name} ${c.last_name}`.trim() || `Contact #${c.number}`,
  }));
  if (current && !rows.some((r) => r.id === current.id)) rows.unshift(current);
  return (
    <Select
      searchable
      clearable
      filter={({ options }) => options}
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage={
        q.length < 2 ? 'Type two letters or more' : found.isFetching ? 'Searching…' : 'No contact found'
      }
      data={rows.map((r) => ({ value: String(r.id), label: r.name }))}
      value={value === null ? null : String(value)}
      onChange={(v) => onChange(rows.find((r) => String(r.id) === v) ?? null)}
      {...rest}
    />
  );
}
