/** Typed helpers for the contacts list, bulk actions, transfers and quick filters. Shapes come from @harbor/shared. */
import type {
  ContactCountReply,
  ContactListReply,
  ContactsScopeInput,
  QuickFilter,
  SelectedItemsReply,
  TransferAttempt,
  TransferAttemptList,
  TransferLogList,
} from '@harbor/shared';
import { api, readCookie } from './client';

export type Selection = { ids: number[]; all?: false } | { all: true; contacts_scope: ContactsScopeInput };
export interface TagSpec {
  name: string;
  color?: string;
}
export interface NamedOption {
  id: number;
  name: string;
}

export const listContacts = (scope: ContactsScopeInput, signal?: AbortSignal) =>
  api.patch<ContactListReply>('/v1/contacts', scope, { signal });
/** How many contacts a scope matches: exact, or an estimate within `margin` (exact: false). */
export const countContacts = (scope: ContactsScopeInput, signal?: AbortSignal) =>
  api.patch<ContactCountReply>('/v1/contacts/count', scope, { signal });
export const countSelection = (sel: Selection) =>
  api.post<SelectedItemsReply>('/v1/contacts/selected_items', { ...sel, limit: 0 });
export const destroyAll = (sel: Selection) => api.delete<{ count: number }>('/v1/contacts/destroy_all', { body: sel });
export const restoreAll = (sel: Selection) => api.put<{ count: number }>('/v1/contacts/restore', sel);
export const updateGroup = (sel: Selection, group_id: number | null) =>
  api.patch<{ count: number }>('/v1/contacts/update_group', { ...sel, group_id });
export const updateTags = (sel: Selection, tags: TagSpec[], action: 'add' | 'remove') =>
  api.patch<{ count: number }>('/v1/contacts/update_tags_group', { ...sel, tags, action });
export const transferGroup = (sel: Selection, target: { to_user_id?: number; to_pool_id?: number }) =>
  api.patch<TransferAttempt>('/v1/contacts/transfer_group', { ...sel, ...target });
export const mergeContacts = (kept_id: number, ids: number[], choices: Record<string, number> = {}) =>
  api.patch<{ kept_id: number; merged_ids: number[] }>('/v1/contacts/merge', { kept_id, ids, choices });

/** Exports are files: fetched as a blob and handed to the browser as a download. */
export async function exportContacts(
  sel: Selection,
  format: 'csv' | 'xlsx',
  order: { order?: 'ASC' | 'DESC'; order_field?: string } = {},
): Promise<void> {
  const token = readCookie('csrf_token');
  const res = await fetch(`${import.meta.env.VITE_API_URL ?? ''}/v1/export.${format}`, {
    method: 'PATCH',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', ...(token ? { 'X-CSRF-Token': token } : {}) },
    body: JSON.stringify(sel.all ? sel : { ...sel, ...order }),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => null);
    const msg = body?.errors ? Object.values(body.errors as Record<string, string[]>)[0]?.[0] : null;
    throw new Error(msg ?? res.statusText ?? `Export failed (${res.status})`);
  }
  const blob = await res.blob();
  const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `contacts.${format}`;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

// Pickers (lists owned by other areas; an area not deployed yet just gives an empty list).
const orEmpty = async <T>(p: Promise<{ data: T[] }>): Promise<T[]> => {
  try {
    return (await p).data;
  } catch {
    return [];
  }
};
export const listPools = () => orEmpty(api.get<{ data: NamedOption[] }>('/v1/pools'));
export const listGroups = () => orEmpty(api.get<{ data: NamedOption[] }>('/v1/groups'));
export const listOwners = () => orEmpty(api.get<{ data: NamedOption[] }>('/v1/admin/users/owners'));

export const listQuickFilters = () => api.get<QuickFilter[]>('/v1/users/quick_filters');
export const saveQuickFilter = (name: string, data: Record<string, unknown>) =>
  api.post<QuickFilter>('/v1/users/quick_filters', { name, data });
export const deleteQuickFilter = (id: number) => api.delete<void>(`/v1/users/quick_filters/${id}`);

export const listTransferAttempts = (page: number) =>
  api.get<TransferAttemptList>('/v1/contacts/transfer_attempts', { query: { page } });
export const getTransferAttempt = (id: number) => api.get<TransferAttempt>(`/v1/contacts/transfer_attempts/${id}`);
export const getTransferLogs = (id: number, page: number) =>
  api.get<TransferLogList>(`/v1/contacts/transfer_attempts/${id}/logs`, { query: { page } });
export const revertTransfer = (id: number) =>
  api.post<TransferAttempt>(`/v1/contacts/transfer_attempts/${id}`, { revert: true });
