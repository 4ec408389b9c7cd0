/**
 * The list screen's state: the contacts scope (search, filters, group view, pool, downline, order), keyset paging
 * (a stack of cursors, so Previous is exact), and the selection (chosen ids, or "every contact matching").
 */
import { CONTACTS_DEFAULT_LIMIT, type ContactsScopeInput, DEBOUNCE_MS, type SearchEntry } from '@harbor/shared';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { listContacts, type Selection } from '../../api/contacts-list';

export type GroupView = 'all' | 'deleted' | 'downline';

export interface ListState {
  q: string;
  filters: SearchEntry[];
  group: GroupView;
  poolId: 'mine' | number;
  downlineUserId: number | null;
  allDownline: boolean;
  orderField: string;
  order: 'ASC' | 'DESC';
  duplicates: boolean;
}

export const INITIAL_STATE: ListState = {
  q: '',
  filters: [],
  group: 'all',
  poolId: 'mine',
  downlineUserId: null,
  allDownline: false,
  orderField: 'last_name',
  order: 'ASC',
  duplicates: false,
};

/** The scope the server reads; empty filter entries are dropped before asking (spec §5). */
export function scopeOf(s: ListState, q: string): ContactsScopeInput {
  const search = s.filters.filter(
    (f) => f.value !== '' && f.value !== null && f.value !== undefined && !(Array.isArray(f.value) && !f.value.length),
  );
  return {
    q: q.trim() || undefined,
    search,
    contact_group: s.group,
    pool_id: s.poolId,
    downline_user_id: s.downlineUserId ?? undefined,
    all_downline: s.allDownline,
    order_field: s.orderField,
    order: s.order,
    ...(s.duplicates
      ? {
          representer_type: 'duplicate_merge' as const,
          duplicate: { is_duplicate: true, first_name: true, last_name: true },
        }
      : {}),
  };
}

/** A saved quick filter holds the list state; a scope-shaped one (search, q, order_field...) is read too. */
export function stateFromSaved(data: Record<string, unknown>): ListState {
  const scope = data as { search?: SearchEntry[]; order_field?: string; order?: string; contact_group?: GroupView };
  return {
    ...INITIAL_STATE,
    ...(Array.isArray(scope.search) ? { filters: scope.search } : {}),
    ...(scope.order_field ? { orderField: scope.order_field } : {}),
    ...(scope.order === 'DESC' ? { order: 'DESC' as const } : {}),
    ...(scope.contact_group ? { group: scope.contact_group } : {}),
    ...(data as Partial<ListState>),
  };
}

export function useContactsList(limit = CONTACTS_DEFAULT_LIMIT) {
  const [state, setStateRaw] = useState<ListState>(INITIAL_STATE);
  const [debouncedQ] = useDebouncedValue(state.q, DEBOUNCE_MS);
  const [cursors, setCursors] = useState<(string | null)[]>([null]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);

  const scope = useMemo(() => scopeOf(state, debouncedQ), [state, debouncedQ]);
  const scopeKey = JSON.stringify(scope);
  const [lastKey, setLastKey] = useState(scopeKey);
  if (lastKey !== scopeKey) {
    // A new filter starts from page one with nothing selected.
    setLastKey(scopeKey);
    setCursors([null]);
    setSelected(new Set());
    setAllMatching(false);
  }
  const page = cursors.length;
  const cursor = cursors[cursors.length - 1];
  const query = useQuery({
    queryKey: ['contacts', scopeKey, cursor, limit],
    queryFn: ({ signal }) => listContacts({ ...scope, limit, page, cursor }, signal),
    placeholderData: keepPreviousData,
  });

  const setState = (patch: Partial<ListState>) => setStateRaw((s) => ({ ...s, ...patch }));
  const selection: Selection = allMatching ? { all: true, contacts_scope: scope } : { ids: [...selected] };
  const hasSelection = allMatching || selected.size > 0;

  return {
    state,
    setState,
    scope,
    query,
    page,
    next: () => {
      const c = query.data?.meta.next_cursor;
      if (c) setCursors((cs) => [...cs, c]);
    },
    previous: () => setCursors((cs) => (cs.length > 1 ? cs.slice(0, -1) : cs)),
    sortBy: (field: string) =>
      setStateRaw((s) => ({
        ...s,
        orderField: field,
        order: s.orderField === field && s.order === 'ASC' ? 'DESC' : 'ASC',
      })),
    selected,
    toggle: (id: number) => {
      setAllMatching(false);
      setSelected((cur) => {
        const next = new Set(cur);
        if (next.has(id)) next.delete(id);
        else next.add(id);
        return next;
      });
    },
    togglePage: (ids: number[], on: boolean) => {
      setAllMatching(false);
      setSelected((cur) => {
        const next = new Set(cur);
        for (const id of ids) on ? next.add(id) : next.delete(id);
        return next;
      });
    },
    allMatching,
    setAllMatching,
    clearSelection: () => {
      setSelected(new Set());
      setAllMatching(false);
    },
    selection,
    hasSelection,
    applySaved: (data: Record<string, unknown>) => setStateRaw(stateFromSaved(data)),
  };
}

export type ContactsList = ReturnType<typeof useContactsList>;
