/** Typed helpers for users admin, team, feature flags and the account additions. Shapes come from @harbor/shared. */
import type {
  AdminUsersQueryInput,
  CreateUserBody,
  DeleteUserBody,
  OfficeLocationBody,
  Role,
  UpdateFeatureFlagsBody,
  UpdateProfileBody,
  UpdateUserBody,
  Webpage,
} from '@harbor/shared';
import { call } from './call';

type Signal = AbortSignal | undefined;

// ---- Users admin (reach-scoped on the server: admins the company, managers their downline) ----
export const listUsers = (query: AdminUsersQueryInput, signal?: Signal) =>
  call('GET /v1/admin/users', { query: query as Record<string, string | number | undefined>, signal });
export const getUser = (id: number, signal?: Signal) => call('GET /v1/admin/users/{id}', { params: { id }, signal });
export const createUser = (body: CreateUserBody) => call('POST /v1/admin/users', { body });
export const updateUser = (id: number, body: UpdateUserBody) =>
  call('PATCH /v1/admin/users/{id}', { params: { id }, body });
export const quickUpdateUser = (id: number, body: UpdateUserBody) =>
  call('PATCH /v1/admin/users/{id}/quick_update', { params: { id }, body });
export const deleteUser = (id: number, body: DeleteUserBody) =>
  call('DELETE /v1/admin/users/{id}', { params: { id }, body });
export const getUserRoles = (id: number, signal?: Signal) =>
  call('GET /v1/admin/users/{id}/roles', { params: { id }, signal });
export const updateUserRoles = (id: number, roles: Role[]) =>
  call('PATCH /v1/admin/users/{id}/update_roles', { params: { id }, body: { roles } });
export const loginAsUser = (id: number, login_type: 'login_as' | 'impersonate') =>
  call('POST /v1/admin/users/{id}/login', { params: { id }, body: { login_type } });
export const setPaidMembership = (id: number, paid: boolean) =>
  call('POST /v1/admin/users/{id}/paid_membership', { params: { id }, body: { paid } });
export const listOwners = (signal?: Signal) => call('GET /v1/admin/users/owners', { signal });
export const manageableBusinessUnits = (signal?: Signal) => call('GET /v1/business_units/manageable', { signal });

// ---- Feature flags ----
export const getFeatureFlags = (signal?: Signal) => call('GET /v1/admin/feature_flags', { signal });
export const putFeatureFlags = (body: UpdateFeatureFlagsBody) => call('PUT /v1/admin/feature_flags', { body });

// ---- Own account ----
export const updateProfile = (body: UpdateProfileBody) => call('PATCH /v1/users/update_profile', { body });
export const updateWebpage = (userId: number, body: Partial<Webpage>) =>
  call('PATCH /v1/users/{id}/update_webpage', { params: { id: userId }, body });
export const listApiKeys = (signal?: Signal) => call('GET /v1/users/api_keys', { signal });
export const createApiKey = (name: string) => call('POST /v1/users/api_keys', { body: { name } });
export const refreshApiKey = (id: number) => call('PATCH /v1/users/api_keys/{id}/refresh_token', { params: { id } });
export const revokeApiKey = (id: number) => call('DELETE /v1/users/api_keys/{id}', { params: { id } });
/** Your favourites and the colleagues you may pick (docs/decisions/favourite-users.md), narrowed by `q`. */
export const listFavorites = (q: string, signal?: Signal) =>
  call('GET /v1/users/favorite_lists', { query: { q: q || undefined }, signal });
/** Uploads a personal photo or logo (multipart; the server checks the bytes and the size). */
export function uploadProfileImage(field: 'personal_photo' | 'logo', file: File) {
  const data = new FormData();
  data.append(field, file);
  return call('PATCH /v1/users/update_profile', { body: data });
}
export const updateDashboard = (body: { favorite_user_ids?: number[]; birthday_range?: 'today' | 'week' | 'month' }) =>
  call('PATCH /v1/users/dashboard', { body });
export const listAuthIps = (signal?: Signal) => call('GET /v1/users/auth_ips', { signal });
export const listOfficeLocations = (signal?: Signal) => call('GET /v1/users/office_locations', { signal });

// ---- Admin: signups and office locations ----
export const listSignups = (page: number, signal?: Signal) =>
  call('GET /v1/admin/signups', { query: { page, limit: 25 }, signal });
export const listAdminOffices = (signal?: Signal) =>
  call('GET /v1/admin/office_locations', { query: { limit: 100 }, signal });
export const createOffice = (body: OfficeLocationBody) => call('POST /v1/admin/office_locations', { body });
export const updateOffice = (id: number, body: OfficeLocationBody) =>
  call('PUT /v1/admin/office_locations/{id}', { params: { id }, body });
export const deleteOffice = (id: number) => call('DELETE /v1/admin/office_locations/{id}', { params: { id } });
