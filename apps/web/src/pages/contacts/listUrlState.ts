/**
 * The contacts list's state lives in the address (docs/decisions/contacts-list-url-state.md): search, filters,
 * view, sort, page and page size. Back returns to a list exactly as it was, and a view can be bookmarked or sent.
 * Defaults are left out, so a plain /contacts is the default list.
 */
import {
  CONTACT_FILTER_FIELDS,
  CONTACTS_DEFAULT_LIMIT,
  CONTACTS_MAX_LIMIT,
  type ContactFilterField,
  type ContactsScopeInput,
  type SearchEntry,
} from '@harbor/shared';

export type GroupView = 'all' | 'deleted' | 'downline';
export type Filters = Partial<Record<ContactFilterField, string[]>>;

export interface ListState {
  q: string;
  filters: Filters;
  group: GroupView;
  poolId: 'mine' | number;
  downlineUserId: number | null;
  allDownline: boolean;
  duplicates: boolean;
  orderField: string;
  order: 'ASC' | 'DESC';
  page: number;
  size: number;
  /** Keyset position for pages deeper than page numbers reach (CONTACTS_MAX_OFFSET). */
  cursor: string | null;
}

export const PAGE_SIZES = [25, 50, 100, 200] as const;

export const INITIAL_STATE: ListState = {
  q: '',
  filters: {},
  group: 'all',
  poolId: 'mine',
  downlineUserId: null,
  allDownline: false,
  duplicates: false,
  orderField: 'last_name',
  order: 'ASC',
  page: 1,
  size: CONTACTS_DEFAULT_LIMIT,
  cursor: null,
};

/** Fields whose one value may hold commas (free text); the others are lists joined by commas. */
const SINGLE_TEXT = new Set(['contains', 'phone', 'date_from', 'date_to', 'month', 'boolean']);
const isSingle = (field: ContactFilterField) => SINGLE_TEXT.has(CONTACT_FILTER_FIELDS[field]);

const positiveInt = (raw: string | null): number | null => {
  const n = Number(raw);
  return raw && Number.isInteger(n) && n > 0 ? n : null;
};

export function parseListState(params: URLSearchParams): ListState {
  const filters: Filters = {};
  for (const field of Object.keys(CONTACT_FILTER_FIELDS) as ContactFilterField[]) {
    const raw = params.get(field);
    if (!raw) continue;
    const values = isSingle(field)
      ? [raw]
      : raw
          .split(',')
          .map((v) => v.trim())
          .filter(Boolean);
    if (values.length) filters[field] = values;
  }
  const view = params.get('view');
  const size = positiveInt(params.get('size'));
  const pool = params.get('pool');
  return {
    q: params.get('q') ?? '',
    filters,
    group: view === 'deleted' || view === 'downline' ? view : 'all',
    poolId: positiveInt(pool) ?? 'mine',
    downlineUserId: positiveInt(params.get('user')),
    allDownline: params.get('all_downline') === '1',
    duplicates: params.get('duplicates') === '1',
    orderField: params.get('sort') || INITIAL_STATE.orderField,
    order: params.get('order')?.toLowerCase() === 'desc' ? 'DESC' : 'ASC',
    page: positiveInt(params.get('page')) ?? 1,
    size: size && size <= CONTACTS_MAX_LIMIT ? size : INITIAL_STATE.size,
    cursor: params.get('cursor') || null,
  };
}

export function serializeListState(s: ListState): URLSearchParams {
  const p = new URLSearchParams();
  if (s.q.trim()) p.set('q', s.q);
  for (const [field, values] of Object.entries(s.filters) as Array<[ContactFilterField, string[]]>) {
    const kept = values.filter((v) => v.trim() !== '');
    if (kept.length) p.set(field, isSingle(field) ? (kept[0] as string) : kept.join(','));
  }
  if (s.group !== 'all') p.set('view', s.group);
  if (s.poolId !== 'mine') p.set('pool', String(s.poolId));
  if (s.downlineUserId) p.set('user', String(s.downlineUserId));
  if (s.allDownline) p.set('all_downline', '1');
  if (s.duplicates) p.set('duplicates', '1');
  if (s.orderField !== INITIAL_STATE.orderField) p.set('sort', s.orderField);
  if (s.order === 'DESC') p.set('order', 'desc');
  if (s.page > 1) p.set('page', String(s.page));
  if (s.size !== INITIAL_STATE.size) p.set('size', String(s.size));
  if (s.cursor) p.set('cursor', s.cursor);
  return p;
}

/**
 * A search that looks like a phone number ("(305) 892-0000", "+1 305 892 0000", "892-0000") is sent as its digits,
 * the way phones are stored (11 digits with the leading 1), so any way of writing it finds the contact.
 */
export function searchText(q: string): string {
  const t = q.trim();
  if (!/^[\d\s().+-]+$/.test(t)) return t;
  const digits = t.replace(/\D/g, '');
  if (digits.length < 3) return t;
  return digits;
}

/** The scope the server reads; empty filter entries are left out (spec §5). */
export function scopeOf(s: ListState, q = s.q): ContactsScopeInput {
  const search: SearchEntry[] = [];
  for (const [field, values] of Object.entries(s.filters) as Array<[ContactFilterField, string[]]>) {
    const kept = values.filter((v) => v.trim() !== '');
    if (!kept.length) continue;
    const kind = CONTACT_FILTER_FIELDS[field];
    search.push({ field, value: kind === 'id' || kind === 'tags' || kind === 'equals' ? kept : kept[0] });
  }
  return {
    q: searchText(q) || undefined,
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

/** What a quick filter saves: the address of the view (without paging) and the same view as a contacts scope. */
export function savedFilterData(s: ListState): Record<string, unknown> {
  const params = serializeListState({ ...s, page: 1, cursor: null });
  return { params: params.toString(), ...scopeOf(s) };
}

/**
 * A saved quick filter back to a list state. Older ones saved a contacts scope (search, order_field,
 * contact_group) or the screen's earlier state (filters as search entries, group, orderField).
 */
export function stateFromSaved(data: Record<string, unknown>): ListState {
  if (typeof data.params === 'string') return parseListState(new URLSearchParams(data.params));
  const scope = data as {
    search?: SearchEntry[];
    filters?: unknown;
    q?: string;
    order_field?: string;
    orderField?: string;
    order?: string;
    contact_group?: GroupView;
    group?: GroupView;
  };
  const entries = Array.isArray(scope.search) ? scope.search : Array.isArray(scope.filters) ? scope.filters : [];
  const filters: Filters = {};
  for (const entry of entries as SearchEntry[]) {
    if (!(entry.field in CONTACT_FILTER_FIELDS) || entry.value === null || entry.value === undefined) continue;
    const values = (Array.isArray(entry.value) ? entry.value : [entry.value]).map(String).filter(Boolean);
    if (values.length) filters[entry.field as ContactFilterField] = values;
  }
  return {
    ...INITIAL_STATE,
    filters,
    q: typeof scope.q === 'string' ? scope.q : '',
    ...((scope.order_field ?? scope.orderField)
      ? { orderField: (scope.order_field ?? scope.orderField) as string }
      : {}),
    ...(scope.order?.toUpperCase() === 'DESC' ? { order: 'DESC' as const } : {}),
    ...((scope.contact_group ?? scope.group) ? { group: (scope.contact_group ?? scope.group) as GroupView } : {}),
  };
}
