/** Typed helpers for one contact, its sub-records and the lookups. Shapes come from @harbor/shared. */
import type {
  ActivityInfoBody,
  AgentflowStatusesReply,
  ApiVendor,
  Carrier,
  ContactDetail,
  ContactFields,
  ContactFile,
  ContactQuickUpdateBody,
  DataCaptureEntry,
  DuplicateCheckReply,
  EmailValidation,
  Group,
  ListMeta,
  Note,
  Policy,
  PolicyBody,
  Pool,
  RxEntry,
  Security,
  SecurityBody,
  Source,
  Status,
  Tag,
  TransferHistoryEntry,
} from '@harbor/shared';
import { api } from './client';

type Infer<S> = S extends { _output: infer O } ? O : never;

export type Contact = ContactDetail;
export type NoteT = Infer<typeof Note>;
export type FileT = Infer<typeof ContactFile>;
export type PolicyT = Infer<typeof Policy>;
export type PolicyInput = Infer<typeof PolicyBody>;
export type SecurityT = Infer<typeof Security>;
export type SecurityInput = Infer<typeof SecurityBody>;
export type StatusT = Infer<typeof Status>;
export type SourceT = Infer<typeof Source>;
export type CarrierT = Infer<typeof Carrier>;
export type ApiVendorT = Infer<typeof ApiVendor>;
export type GroupT = Infer<typeof Group>;
export type PoolT = Infer<typeof Pool>;
export type TagT = Infer<typeof Tag>;
export type AgentflowTree = Infer<typeof AgentflowStatusesReply>;
export type DataCapture = Infer<typeof DataCaptureEntry>;
export type Rx = Infer<typeof RxEntry>;
export type TransferEntry = Infer<typeof TransferHistoryEntry>;
export type Validation = Infer<typeof EmailValidation>;
type List<T> = { data: T[] };

const c = (n: number | string) => `/v1/contacts/${n}`;

export const contactsApi = {
  show: (n: number | string, opts: { keepNew?: boolean; signal?: AbortSignal } = {}) =>
    api.get<Contact>(c(n), { signal: opts.signal, query: { not_remove_new_tag: opts.keepNew ? 'true' : undefined } }),
  create: (body: ContactFields) => api.post<Contact>('/v1/contacts', body),
  duplicateCheck: (body: { phone?: string; email?: string }, signal?: AbortSignal) =>
    api.post<DuplicateCheckReply>('/v1/contacts/duplicate_check', body, { signal }),
  update: (n: number, body: ContactFields) => api.patch<Contact>(c(n), body),
  quickUpdate: (n: number, body: Infer<typeof ContactQuickUpdateBody>) =>
    api.patch<Contact>(`${c(n)}/quick_update`, body),
  updateNote: (n: number, note: string | null) => api.patch<Contact>(`${c(n)}/update_note`, { note }),
  forceVerifyEmail: (n: number) => api.patch<Contact>(`${c(n)}/force_verify_email`),
  validateEmail: (n: number) => api.patch<Validation>(`${c(n)}/validate_email`),
  linkContact: (n: number, id: number | null) =>
    api.patch<Contact>(`${c(n)}/update_linked_contact`, { linked_contact_id: id }),
  assignToMe: (n: number) => api.patch<Contact>(`${c(n)}/assign_to_me`),
  activity: (n: number, body: Infer<typeof ActivityInfoBody>) => api.put<Contact>(`${c(n)}/activity_info`, body),
  dataCapture: (n: number) =>
    api.get<{ data_captures: DataCapture[]; updated_at: string | null }>(`${c(n)}/data_capture`),
  saveDataCapture: (n: number, data_captures: DataCapture[]) =>
    api.patch<{ data_captures: DataCapture[] }>(`${c(n)}/data_capture`, { data_captures }),
  rx: (n: number) => api.get<{ rx_details: Rx[]; updated_at: string | null }>(`${c(n)}/rx_details`),
  saveRx: (n: number, rx_details: Rx[]) => api.patch<{ rx_details: Rx[] }>(`${c(n)}/rx_details`, { rx_details }),
  transferHistory: (n: number) => api.get<List<TransferEntry>>(`${c(n)}/transfer_history`),

  notes: (n: number) => api.get<List<NoteT>>(`${c(n)}/notes`),
  addNote: (n: number, body: string) => api.post<NoteT>(`${c(n)}/notes`, { body }),
  editNote: (n: number, id: number, body: string) => api.patch<NoteT>(`${c(n)}/notes/${id}`, { body }),
  deleteNote: (n: number, id: number) => api.delete<void>(`${c(n)}/notes/${id}`),

  files: (n: number) => api.get<List<FileT>>(`${c(n)}/files`),
  upload: (n: number, file: File) => {
    const form = new FormData();
    form.append('file', file);
    return api.post<FileT>(`${c(n)}/files`, form);
  },
  deleteFile: (n: number, id: number) => api.delete<void>(`${c(n)}/files/${id}`),

  policies: (n: number) => api.get<List<PolicyT>>(`${c(n)}/policies`),
  addPolicy: (n: number, body: PolicyInput) => api.post<PolicyT>(`${c(n)}/policies`, body),
  editPolicy: (n: number, id: number, body: Partial<PolicyInput>) => api.patch<PolicyT>(`${c(n)}/policies/${id}`, body),
  deletePolicy: (n: number, id: number) => api.delete<void>(`${c(n)}/policies/${id}`),
  securities: (n: number) => api.get<List<SecurityT>>(`${c(n)}/securities`),
  addSecurity: (n: number, body: SecurityInput) => api.post<SecurityT>(`${c(n)}/securities`, body),
  deleteSecurity: (n: number, id: number) => api.delete<void>(`${c(n)}/securities/${id}`),
};

export const lookupsApi = {
  statuses: () => api.get<List<StatusT>>('/v1/statuses'),
  agentflow: () => api.get<AgentflowTree>('/v1/agentflow_statuses'),
  sources: () => api.get<List<SourceT>>('/v1/sources'),
  carriers: (q?: string) => api.get<List<CarrierT>>('/v1/carriers', { query: { q } }),
  apiVendors: () => api.get<List<ApiVendorT>>('/v1/api_vendors'),
  groups: () => api.get<List<GroupT>>('/v1/groups'),
  pools: () => api.get<List<PoolT>>('/v1/pools'),
  tags: (search?: string) =>
    api.patch<{ data: TagT[]; meta: Infer<typeof ListMeta> }>('/v1/tags', { search, limit: 500 }),
  createTag: (name: string, color: string) => api.post<TagT>('/v1/tags', { name, color }),
};

/** /v1/admin/<path> CRUD and /v1/groups, /v1/pools writes. */
export const adminLookupsApi = {
  list: <T>(path: string) => api.get<List<T>>(`/v1/admin/${path}`),
  create: <T>(path: string, body: Record<string, unknown>) => api.post<T>(`/v1/admin/${path}`, body),
  update: <T>(path: string, id: number, body: Record<string, unknown>) => api.patch<T>(`/v1/admin/${path}/${id}`, body),
  remove: (path: string, id: number) => api.delete<void>(`/v1/admin/${path}/${id}`),
  saveAgentflowGroups: (groups: Array<{ id?: number; name: string }>) =>
    api.patch<AgentflowTree>('/v1/admin/agentflow_status_groups', { groups }),
  createGroup: (name: string) => api.post<GroupT>('/v1/groups', { name }),
  renameGroup: (id: number, name: string) => api.patch<GroupT>(`/v1/groups/${id}`, { name }),
  deleteGroup: (id: number) => api.delete<void>(`/v1/groups/${id}`),
  createPool: (name: string, holder_ids: number[]) => api.post<PoolT>('/v1/pools', { name, holder_ids }),
  updatePool: (id: number, body: { name?: string; holder_ids?: number[] }) => api.patch<PoolT>(`/v1/pools/${id}`, body),
  deletePool: (id: number) => api.delete<void>(`/v1/pools/${id}`),
};
