/**
 * Tags picked by name from the company's list (searched on the server as you type); with `creatable`, a name that
 * is not there yet can be created in place ("Create tag “Spring list”").
 */

import { TAG_COLORS } from '@harbor/shared';
import { MultiSelect, type MultiSelectProps } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { lookupsApi, type TagT, tagsQuery } from '../api/contacts';
import { qk } from '../api/queries';

const CREATE = '__create__';
export type PickedTag = Pick<TagT, 'id' | 'name' | 'color'>;

export function TagPicker({
  value,
  onChange,
  creatable = false,
  known = [],
  ...rest
}: Omit<MultiSelectProps, 'data' | 'value' | 'onChange' | 'searchValue' | 'onSearchChange'> & {
  value: number[];
  onChange: (ids: number[], tags: PickedTag[]) => void;
  creatable?: boolean;
  /** Tags already known by name (a contact's own), so their names show before the list loads. */
  known?: PickedTag[];
}) {
  const qc = useQueryClient();
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 250);
  const seen = useRef(new Map<number, PickedTag>(known.map((t) => [t.id, t])));
  const tags = useQuery({
    ...tagsQuery(term || undefined),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
  for (const t of tags.data?.data ?? []) seen.current.set(t.id, t);
  const create = useMutation({
    mutationFn: (name: string) =>
      // A new tag takes the next color in turn, so tags created in a row stay tellable apart.
      lookupsApi.createTag(name, TAG_COLORS[seen.current.size % TAG_COLORS.length]),
    onSuccess: (tag) => {
      seen.current.set(tag.id, tag);
      void qc.invalidateQueries({ queryKey: qk('PATCH /v1/tags') });
    },
  });
  const resolve = (ids: number[]) => ids.map((id) => seen.current.get(id)).filter((t): t is PickedTag => !!t);

  const name = search.trim();
  const exact = [...seen.current.values()].some((t) => t.name.toLowerCase() === name.toLowerCase());
  const data = [
    ...new Map(
      [...resolve(value), ...(tags.data?.data ?? [])].map((t) => [
        String(t.id),
        { value: String(t.id), label: t.name },
      ]),
    ).values(),
    ...(creatable && name && !exact ? [{ value: CREATE, label: `Create tag “${name}”` }] : []),
  ];

  return (
    <MultiSelect
      searchable
      clearable
      data={data}
      value={value.map(String)}
      searchValue={search}
      onSearchChange={setSearch}
      // The server already narrowed the list by name; the create option must not be filtered away.
      filter={({ options }) => options}
      nothingFoundMessage={tags.isFetching ? 'Loading…' : 'No tag by that name'}
      error={create.isError ? 'The tag could not be created' : undefined}
      onChange={async (values) => {
        const ids = values.filter((v) => v !== CREATE).map(Number);
        if (values.includes(CREATE)) {
          const tag = await create.mutateAsync(name);
          ids.push(tag.id);
          setSearch('');
        }
        onChange(ids, resolve(ids));
      }}
      {...rest}
    />
  );
}
