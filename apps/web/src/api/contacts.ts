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
  EmailValidation,
  Group,
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
import type { QueryClient } from '@tanstack/react-query';
import { type BodyOf, type ContractKey, call, type Reply } from './call';
import { callQuery, qk } from './queries';

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

type Id = number | string;
const p = (id: Id) => ({ params: { id } });

export const contactsApi = {
  show: (id: Id, opts: { keepNew?: boolean; signal?: AbortSignal } = {}) =>
    call('GET /v1/contacts/{id}', {
      ...p(id),
      signal: opts.signal,
      query: { not_remove_new_tag: opts.keepNew ? 'true' : undefined },
    }),
  create: (body: ContactFields) => call('POST /v1/contacts', { body }),
  duplicateCheck: (body: { phone?: string; email?: string }, signal?: AbortSignal) =>
    call('POST /v1/contacts/duplicate_check', { body, signal }),
  update: (id: number, body: ContactFields) => call('PATCH /v1/contacts/{id}', { ...p(id), body }),
  quickUpdate: (id: number, body: Infer<typeof ContactQuickUpdateBody>) =>
    call('PATCH /v1/contacts/{id}/quick_update', { ...p(id), body }),
  updateNote: (id: number, note: string | null) =>
    call('PATCH /v1/contacts/{id}/update_note', { ...p(id), body: { note } }),
  forceVerifyEmail: (id: number) => call('PATCH /v1/contacts/{id}/force_verify_email', p(id)),
  validateEmail: (id: number) => call('PATCH /v1/contacts/{id}/validate_email', p(id)),
  linkContact: (id: number, linked: number | null) =>
    call('PATCH /v1/contacts/{id}/update_linked_contact', { ...p(id), body: { linked_contact_id: linked } }),
  assignToMe: (id: number) => call('PATCH /v1/contacts/{id}/assign_to_me', p(id)),
  activity: (id: number, body: Infer<typeof ActivityInfoBody>) =>
    call('PUT /v1/contacts/{id}/activity_info', { ...p(id), body }),
  dataCapture: (id: number) => call('GET /v1/contacts/{id}/data_capture', p(id)),
  saveDataCapture: (id: number, data_captures: DataCapture[]) =>
    call('PATCH /v1/contacts/{id}/data_capture', { ...p(id), body: { data_captures } }),
  rx: (id: number) => call('GET /v1/contacts/{id}/rx_details', p(id)),
  saveRx: (id: number, rx_details: Rx[]) =>
    call('PATCH /v1/contacts/{id}/rx_details', { ...p(id), body: { rx_details } }),
  transferHistory: (id: number) => call('GET /v1/contacts/{id}/transfer_history', p(id)),

  notes: (id: number) => call('GET /v1/contacts/{id}/notes', p(id)),
  addNote: (id: number, body: string) => call('POST /v1/contacts/{id}/notes', { ...p(id), body: { body } }),
  editNote: (id: number, noteId: number, body: string) =>
    call('PATCH /v1/contacts/{id}/notes/{noteId}', { params: { id, noteId }, body: { body } }),
  deleteNote: (id: number, noteId: number) =>
    call('DELETE /v1/contacts/{id}/notes/{noteId}', { params: { id, noteId } }),

  files: (id: number) => call('GET /v1/contacts/{id}/files', p(id)),
  upload: (id: number, file: File) => {
    const body = new FormData();
    body.append('file', file);
    return call('POST /v1/contacts/{id}/files', { ...p(id), body });
  },
  deleteFile: (id: number, fileId: number) =>
    call('DELETE /v1/contacts/{id}/files/{fileId}', { params: { id, fileId } }),

  policies: (id: number) => call('GET /v1/contacts/{id}/policies', p(id)),
  addPolicy: (id: number, body: PolicyInput) => call('POST /v1/contacts/{id}/policies', { ...p(id), body }),
  editPolicy: (id: number, policyId: number, body: Partial<PolicyInput>) =>
    call('PATCH /v1/contacts/{id}/policies/{policyId}', { params: { id, policyId }, body }),
  deletePolicy: (id: number, policyId: number) =>
    call('DELETE /v1/contacts/{id}/policies/{policyId}', { params: { id, policyId } }),
  securities: (id: number) => call('GET /v1/contacts/{id}/securities', p(id)),
  addSecurity: (id: number, body: SecurityInput) => call('POST /v1/contacts/{id}/securities', { ...p(id), body }),
  deleteSecurity: (id: number, securityId: number) =>
    call('DELETE /v1/contacts/{id}/securities/{securityId}', { params: { id, securityId } }),
};

/** Every list a picker shows: what an admin change to statuses, sources, groups, pools or tags must refresh. */
const LOOKUPS = [
  'GET /v1/statuses',
  'GET /v1/agentflow_statuses',
  'GET /v1/sources',
  'GET /v1/carriers',
  'GET /v1/api_vendors',
  'GET /v1/groups',
  'GET /v1/pools',
  'PATCH /v1/tags',
] as const;
export const invalidateLookups = (qc: QueryClient) =>
  Promise.all(LOOKUPS.map((key) => qc.invalidateQueries({ queryKey: qk(key) })));
/** The tags of a picker: one page of 500, optionally matching a name fragment. */
export const tagsQuery = (search?: string) => callQuery('PATCH /v1/tags', { body: { search, limit: 500 } });

export const lookupsApi = {
  statuses: () => call('GET /v1/statuses'),
  agentflow: () => call('GET /v1/agentflow_statuses'),
  sources: () => call('GET /v1/sources'),
  carriers: (q?: string) => call('GET /v1/carriers', { query: { q } }),
  apiVendors: () => call('GET /v1/api_vendors'),
  groups: () => call('GET /v1/groups'),
  pools: () => call('GET /v1/pools'),
  tags: (search?: string) => call('PATCH /v1/tags', { body: { search, limit: 500 } }),
  createTag: (name: string, color: BodyOf<'POST /v1/tags'>['color']) =>
    call('POST /v1/tags', { body: { name, color } }),
};

/** The admin lookups that share one page (LookupAdminPage), under /v1/admin/<path>. */
export type AdminLookupPath = 'statuses' | 'agentflow_statuses' | 'sources' | 'carriers';
export type AdminLookupList = Reply<`GET /v1/admin/${AdminLookupPath}`>;
/**
 * The page builds its form from a field list and picks its route by name, so these calls go through `call` with
 * the key computed: the reply is typed as the union of the four, the body is checked by the server alone.
 */
const lookupCall = call as (key: ContractKey, input?: object) => Promise<unknown>;

/** /v1/admin/<path> CRUD and /v1/groups, /v1/pools writes. */
export const adminLookupsApi = {
  list: (path: AdminLookupPath) => lookupCall(`GET /v1/admin/${path}` as ContractKey) as Promise<AdminLookupList>,
  create: (path: AdminLookupPath, body: Record<string, unknown>) =>
    lookupCall(`POST /v1/admin/${path}` as ContractKey, { body }),
  update: (path: AdminLookupPath, id: number, body: Record<string, unknown>) =>
    lookupCall(`PATCH /v1/admin/${path}/{id}` as ContractKey, { params: { id }, body }),
  remove: (path: AdminLookupPath, id: number) =>
    lookupCall(`DELETE /v1/admin/${path}/{id}` as ContractKey, { params: { id } }),
  saveAgentflowGroups: (groups: Array<{ id?: number; name: string }>) =>
    call('PATCH /v1/admin/agentflow_status_groups', { body: { groups } }),
  createGroup: (name: string) => call('POST /v1/groups', { body: { name } }),
  renameGroup: (id: number, name: string) => call('PATCH /v1/groups/{id}', { params: { id }, body: { name } }),
  deleteGroup: (id: number) => call('DELETE /v1/groups/{id}', { params: { id } }),
  createPool: (name: string, holder_ids: number[]) => call('POST /v1/pools', { body: { name, holder_ids } }),
  updatePool: (id: number, body: { name?: string; holder_ids?: number[] }) =>
    call('PATCH /v1/pools/{id}', { params: { id }, body }),
  deletePool: (id: number) => call('DELETE /v1/pools/{id}', { params: { id } }),
};
