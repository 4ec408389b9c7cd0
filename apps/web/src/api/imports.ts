/** Typed helpers for the imports area (routes.md "imports"); shapes come from @harbor/shared. */
import type {
  ImportAttempt,
  ImportAttemptDetail,
  ImportAttemptList,
  ImportPreview,
  ImportRowList,
  ImportSetting,
  OnMatch,
  ScrubKey,
  UndoPreview,
  WorkersStatus,
} from '@harbor/shared';
import { call } from './call';
import { ApiError, readCookie } from './client';

type Infer<S> = S extends { _output: infer O } ? O : never;
export type Attempt = Infer<typeof ImportAttempt>;
export type AttemptList = Infer<typeof ImportAttemptList>;
export type Preview = Infer<typeof ImportPreview>;
export type Setting = Infer<typeof ImportSetting>;
export type Workers = Infer<typeof WorkersStatus>;
export type AttemptDetail = Infer<typeof ImportAttemptDetail>;
export type RowList = Infer<typeof ImportRowList>;
export type UndoPlan = Infer<typeof UndoPreview>;

export interface ImportOptionsForm {
  type: 'lead' | 'client';
  owner?: number;
  pool?: number;
  tags: Array<{ name: string; color?: string }>;
  updated_lead_tags: Array<{ name: string; color?: string }>;
  scrub_against?: { by: ScrubKey[]; on_match: OnMatch };
  api_vendor_obj?: { vendor_name: string; vendor_type: string };
  fields: Record<string, string>;
  sheet?: string;
}

/** The import form as multipart: the file plus one text part per option (objects as JSON). */
export function importFormData(file: File, form: Partial<ImportOptionsForm>, extra: Record<string, string> = {}) {
  const data = new FormData();
  for (const [k, v] of Object.entries({ ...form, ...extra })) {
    if (v === undefined || v === null || v === '') continue;
    data.append(k, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  data.append('file', file);
  return data;
}

export const validateImport = (file: File, form: Partial<ImportOptionsForm>) =>
  call('POST /v1/contacts/validate_import', { body: importFormData(file, form) });

export const startImport = (file: File, form: Partial<ImportOptionsForm>) =>
  call('POST /v1/contacts/import', { body: importFormData(file, form) });

/** The invalid rows as the server writes them (CSV); fetched directly since the API client reads JSON. */
export async function invalidRowsCsv(file: File, form: Partial<ImportOptionsForm>): Promise<Blob> {
  const res = await fetch('/v1/contacts/validate_import', {
    method: 'POST',
    credentials: 'include',
    headers: { 'X-CSRF-Token': readCookie('csrf_token') ?? '' },
    body: importFormData(file, form, { format: 'csv' }),
  });
  if (!res.ok) {
    const body = await res.json().catch(() => ({ errors: { user: ['The download failed'] } }));
    throw new ApiError(res.status, body, res);
  }
  return res.blob();
}

export const deleteAttempt = (id: number, removeContacts: boolean) =>
  call('DELETE /v1/contacts/delete_import_attempts/{id}', {
    params: { id },
    query: { remove_contacts: removeContacts },
  });
export const retryAttempt = (id: number) =>
  call('POST /v1/contacts/retry_failed_import_attempts/{id}', { params: { id } });
/** Where the rows that were not imported download (a plain link: the browser saves the CSV). */
export const notImportedCsvUrl = (id: number) =>
  `${import.meta.env.VITE_API_URL ?? ''}/v1/contacts/import_attempts/${id}/not_imported.csv`;
export const undoAttempt = (id: number) => call('POST /v1/contacts/import_attempts/{id}/undo', { params: { id } });
export const saveSetting = (name: string, data: Record<string, unknown>) =>
  call('POST /v1/import_settings', { body: { name, data } });
