/** Typed helpers for users admin, team, feature flags and the account additions. Shapes come from @harbor/shared. */
import type {
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

// ---- Users admin (reach-scoped on the server: admins the company, managers their downline) ----
export const createUser = (body: CreateUserBody) => call('POST /v1/admin/users', { body });
export const updateUser = (id: number, body: UpdateUserBody) =>
  call('PATCH /v1/admin/users/{id}', { params: { id }, body });
export const quickUpdateUser = (id: number, body: UpdateUserBody) =>
  call('PATCH /v1/admin/users/{id}/quick_update', { params: { id }, body });
export const deleteUser = (id: number, body: DeleteUserBody) =>
  call('DELETE /v1/admin/users/{id}', { params: { id }, body });
export const updateUserRoles = (id: number, roles: Role[]) =>
  call('PATCH /v1/admin/users/{id}/update_roles', { params: { id }, body: { roles } });
export const loginAsUser = (id: number, login_type: 'login_as' | 'impersonate') =>
  call('POST /v1/admin/users/{id}/login', { params: { id }, body: { login_type } });
export const setPaidMembership = (id: number, paid: boolean) =>
  call('POST /v1/admin/users/{id}/paid_membership', { params: { id }, body: { paid } });
// ---- Feature flags ----
export const putFeatureFlags = (body: UpdateFeatureFlagsBody) => call('PUT /v1/admin/feature_flags', { body });

// ---- Own account ----
export const updateProfile = (body: UpdateProfileBody) => call('PATCH /v1/users/update_profile', { body });
export const updateWebpage = (userId: number, body: Partial<Webpage>) =>
  call('PATCH /v1/users/{id}/update_webpage', { params: { id: userId }, body });
export const createApiKey = (name: string) => call('POST /v1/users/api_keys', { body: { name } });
export const refreshApiKey = (id: number) => call('PATCH /v1/users/api_keys/{id}/refresh_token', { params: { id } });
export const revokeApiKey = (id: number) => call('DELETE /v1/users/api_keys/{id}', { params: { id } });
/** Uploads a personal photo or logo (multipart; the server checks the bytes and the size). */
export function uploadProfileImage(field: 'personal_photo' | 'logo', file: File) {
  const data = new FormData();
  data.append(field, file);
  return call('PATCH /v1/users/update_profile', { body: data });
}
export const updateDashboard = (body: { favorite_user_ids?: number[]; birthday_range?: 'today' | 'week' | 'month' }) =>
  call('PATCH /v1/users/dashboard', { body });
// ---- Admin: signups and office locations ----
export const createOffice = (body: OfficeLocationBody) => call('POST /v1/admin/office_locations', { body });
export const updateOffice = (id: number, body: OfficeLocationBody) =>
  call('PUT /v1/admin/office_locations/{id}', { params: { id }, body });
export const deleteOffice = (id: number) => call('DELETE /v1/admin/office_locations/{id}', { params: { id } });
