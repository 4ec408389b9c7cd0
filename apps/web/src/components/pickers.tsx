/**
 * Pickers of people and pools, fed by the routes that list them. A picker whose data route refuses the role is not
 * shown at all: callers ask `mayPickOwners` (the current user's permissions say whether /v1/admin/users/owners
 * answers) before rendering an OwnerSelect.
 */

import type { CurrentUser } from '@harbor/shared';
import { Select, type SelectProps } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { callQuery } from '../api/queries';
import { useCurrentUser } from '../auth/session';

/** GET /v1/admin/users/owners is `users.manage`: admins, BU admins and managers. */
export const mayPickOwners = (user: CurrentUser) => user.permissions.includes('users.manage');

type PickerProps = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  value: number | null;
  onChange: (id: number | null) => void;
};

const toValue = (id: number | null) => (id === null ? null : String(id));
const fromValue = (v: string | null) => (v ? Number(v) : null);

/**
 * The caller and everyone in their reach (for owners of contacts and imports, and pool holders). `current` keeps the
 * label of a present value that is outside the list (a contact owned by someone the editor does not reach).
 */
export function OwnerSelect({
  value,
  onChange,
  current,
  ...rest
}: PickerProps & { current?: { id: number; name: string } | null }) {
  const favorites = new Set(useCurrentUser().favorite_users);
  const owners = useQuery(callQuery('GET /v1/admin/users/owners'));
  // Favorite users first (a stable sort keeps the server's name order within each part).
  const data = [...(owners.data?.data ?? [])]
    .sort((a, b) => Number(favorites.has(b.id)) - Number(favorites.has(a.id)))
    .map((u) => ({ value: String(u.id), label: `${u.name} (${u.email})` }));
  if (current && !data.some((d) => d.value === String(current.id))) {
    data.unshift({ value: String(current.id), label: current.name });
  }
  return (
    <Select
      searchable
      clearable
      nothingFoundMessage={owners.isLoading ? 'Loading…' : 'Nobody found'}
      data={data}
      value={toValue(value)}
      onChange={(v) => onChange(fromValue(v))}
      error={owners.isError ? 'Could not load the people you can pick' : undefined}
      {...rest}
    />
  );
}

/** Pools from GET /v1/pools: admins every pool, others the pools they hold. Hidden when there is none to pick. */
export function PoolSelect({ value, onChange, ...rest }: PickerProps) {
  const pools = useQuery(callQuery('GET /v1/pools'));
  const data = (pools.data?.data ?? []).map((p) => ({ value: String(p.id), label: p.name }));
  if (pools.isSuccess && data.length === 0) return null;
  return (
    <Select
      searchable
      clearable
      nothingFoundMessage="No pool found"
      data={data}
      value={toValue(value)}
      onChange={(v) => onChange(fromValue(v))}
      {...rest}
    />
  );
}
