/**
 * The list screen's state: the view (search, filters, group view, pool, downline, order, page, page size) read from
 * and written to the address (listUrlState.ts), and the selection (chosen ids, or "every contact matching").
 */

import { CONTACTS_MAX_OFFSET, DEBOUNCE_MS } from '@harbor/shared';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import type { Selection } from '../../api/contacts-list';
import { callQuery } from '../../api/queries';
import {
  INITIAL_STATE,
  type ListState,
  parseListState,
  scopeOf,
  serializeListState,
  stateFromSaved,
} from './listUrlState';

export type { GroupView, ListState } from './listUrlState';

/** Session storage key of the latest contacts search (its scope, as JSON). */
export const STORED_SEARCH_KEY = 'harbor.contacts.search';

/** The last page a page number reaches; deeper pages go by cursor (the server refuses deeper OFFSETs). */
export const lastNumberedPage = (size: number) => Math.floor(CONTACTS_MAX_OFFSET / size) + 1;

export function useContactsList() {
  const [params, setParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const state = useMemo(() => parseListState(params), [params]);

  /** Any change but paging starts again from page one; the search box replaces history, the rest adds to it. */
  const update = (patch: Partial<ListState>, opts: { replace?: boolean } = {}) => {
    const paging = Object.keys(patch).every((k) => k === 'page' || k === 'cursor');
    const next: ListState = { ...state, ...(paging ? {} : { page: 1, cursor: null }), ...patch };
    setParams(serializeListState(next), { replace: opts.replace });
  };

  // The search box types freely; the address (and the request) follow once typing pauses.
  const [text, setText] = useState(state.q);
  const [debounced] = useDebouncedValue(text, DEBOUNCE_MS);
  // The search this box last wrote to the address. The router renders an address change later (a transition), so
  // when it arrives the person may have typed on: it must not put the box back to what it wrote.
  const written = useRef(state.q);
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a pause in typing writes the search
  useEffect(() => {
    if (debounced !== state.q) {
      written.current = debounced;
      update({ q: debounced }, { replace: true });
    }
  }, [debounced]);
  // Back, Forward or a quick filter changed the search: the box shows it.
  useEffect(() => {
    if (state.q === written.current) return;
    written.current = state.q;
    setText(state.q);
  }, [state.q]);

  const scope = useMemo(() => scopeOf(state), [state]);
  const scopeKey = JSON.stringify(scope);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [allMatching, setAllMatching] = useState(false);
  const [lastKey, setLastKey] = useState(scopeKey);
  if (lastKey !== scopeKey) {
    // A new filter starts with nothing selected.
    setLastKey(scopeKey);
    setSelected(new Set());
    setAllMatching(false);
  }

  const query = useQuery({
    ...callQuery('PATCH /v1/contacts', {
      body: { ...scope, limit: state.size, page: state.page, cursor: state.cursor },
    }),
    placeholderData: keepPreviousData,
  });

  // The stored contacts search: what the store orders a mailer for (contacts_scope), read by pages/store.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scopeKey is the scope's identity
  useEffect(() => {
    try {
      sessionStorage.setItem(STORED_SEARCH_KEY, JSON.stringify(scope));
    } catch {
      /* storage full or off: the store then offers every contact */
    }
  }, [scopeKey]);

  const selection: Selection = allMatching ? { all: true, contacts_scope: scope } : { ids: [...selected] };
  const meta = query.data?.meta;
  const numbered = lastNumberedPage(state.size);

  return {
    state,
    text,
    setText,
    setState: update,
    /** Back to the default list (search and filters cleared; view, pool and page size kept). */
    clearFilters: () => {
      setText('');
      update({ q: '', filters: {} });
    },
    scope,
    query,
    page: state.page,
    numberedPages: numbered,
    goTo: (page: number) => update({ page: Math.max(1, Math.min(page, numbered)), cursor: null }),
    next: () => {
      if (!meta?.next_cursor) return;
      const page = state.page + 1;
      // Within page-number reach a page is a plain number (bookmarkable); beyond it the cursor carries on.
      update(page <= numbered ? { page, cursor: null } : { page, cursor: meta.next_cursor });
    },
    previous: () => {
      if (state.page <= 1) return;
      const page = state.page - 1;
      if (page <= numbered) update({ page, cursor: null });
      // Cursor pages are only reached by Next, so the page before is the previous entry of the history.
      else if (location.key !== 'default') navigate(-1);
      else update({ page: 1, cursor: null });
    },
    sortBy: (field: string) =>
      update({ orderField: field, order: state.orderField === field && state.order === 'ASC' ? 'DESC' : 'ASC' }),
    setPageSize: (size: number) => update({ size }),
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
    hasSelection: allMatching || selected.size > 0,
    applySaved: (data: Record<string, unknown>) => {
      const saved = stateFromSaved(data);
      setText(saved.q);
      setParams(serializeListState({ ...saved, size: state.size }));
    },
  };
}

export { INITIAL_STATE };
export type ContactsList = ReturnType<typeof useContactsList>;
