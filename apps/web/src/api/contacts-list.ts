/** Typed helpers for the contacts list, bulk actions, transfers and quick filters. Shapes come from @harbor/shared. */
import type { ContactsScopeInput } from '@harbor/shared';
import { call } from './call';
import { readCookie } from './client';

export type Selection = { ids: number[]; all?: false } | { all: true; contacts_scope: ContactsScopeInput };
export interface TagSpec {
  name: string;
  color?: string;
}
export interface NamedOption {
  id: number;
  name: string;
}

export const destroyAll = (sel: Selection) => call('DELETE /v1/contacts/destroy_all', { body: sel });
export const restoreAll = (sel: Selection) => call('PUT /v1/contacts/restore', { body: sel });
export const updateGroup = (sel: Selection, group_id: number | null) =>
  call('PATCH /v1/contacts/update_group', { body: { ...sel, group_id } });
export const updateTags = (sel: Selection, tags: TagSpec[], action: 'add' | 'remove') =>
  call('PATCH /v1/contacts/update_tags_group', { body: { ...sel, tags, action } });
export const transferGroup = (sel: Selection, target: { to_user_id?: number; to_pool_id?: number }) =>
  call('PATCH /v1/contacts/transfer_group', { body: { ...sel, ...target } });
export const mergeContacts = (kept_id: number, ids: number[], choices: Record<string, number> = {}) =>
  call('PATCH /v1/contacts/merge', { body: { kept_id, ids, choices } });

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

export const saveQuickFilter = (name: string, data: Record<string, unknown>) =>
  call('POST /v1/users/quick_filters', { body: { name, data } });
export const deleteQuickFilter = (id: number) => call('DELETE /v1/users/quick_filters/{id}', { params: { id } });

export const revertTransfer = (id: number) =>
  call('POST /v1/contacts/transfer_attempts/{id}', { params: { id }, body: { revert: true } });
