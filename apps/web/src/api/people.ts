/** Typed helpers for users admin, team, feature flags and the account additions. Shapes come from @harbor/shared. */
import type {
  AdminUser,
  AdminUserList,
  AdminUsersQueryInput,
  ApiKey,
  ApiKeyWithToken,
  AuthIp,
  BusinessUnit,
  CreateUserBody,
  CurrentUser,
  DeleteUserBody,
  FavoriteLists,
  FeatureFlagsReply,
  OfficeLocation,
  OfficeLocationBody,
  PageMeta,
  Role,
  Signup,
  UpdateFeatureFlagsBody,
  UpdateProfileBody,
  UpdateUserBody,
  UserOption,
  UserRoles,
  Webpage,
} from '@harbor/shared';
import { api } from './client';

type Signal = AbortSignal | undefined;

// ---- Users admin (reach-scoped on the server: admins the company, managers their downline) ----
export const listUsers = (query: AdminUsersQueryInput, signal?: Signal) =>
  api.get<AdminUserList>('/v1/admin/users', { query: query as Record<string, string | number | undefined>, signal });
export const getUser = (id: number, signal?: Signal) => api.get<AdminUser>(`/v1/admin/users/${id}`, { signal });
export const createUser = (body: CreateUserBody) => api.post<AdminUser>('/v1/admin/users', body);
export const updateUser = (id: number, body: UpdateUserBody) => api.patch<AdminUser>(`/v1/admin/users/${id}`, body);
export const quickUpdateUser = (id: number, body: UpdateUserBody) =>
  api.patch<AdminUser>(`/v1/admin/users/${id}/quick_update`, body);
export const deleteUser = (id: number, body: DeleteUserBody) =>
  api.delete<undefined>(`/v1/admin/users/${id}`, { body });
export const getUserRoles = (id: number, signal?: Signal) =>
  api.get<UserRoles>(`/v1/admin/users/${id}/roles`, { signal });
export const updateUserRoles = (id: number, roles: Role[]) =>
  api.patch<UserRoles>(`/v1/admin/users/${id}/update_roles`, { roles });
export const loginAsUser = (id: number, login_type: 'login_as' | 'impersonate') =>
  api.post<{ user: CurrentUser }>(`/v1/admin/users/${id}/login`, { login_type });
export const setPaidMembership = (id: number, paid: boolean) =>
  api.post<AdminUser>(`/v1/admin/users/${id}/paid_membership`, { paid });
export const listOwners = (signal?: Signal) => api.get<{ data: UserOption[] }>('/v1/admin/users/owners', { signal });
export const manageableBusinessUnits = (signal?: Signal) =>
  api.get<{ data: BusinessUnit[] }>('/v1/business_units/manageable', { signal });

// ---- Feature flags ----
export const getFeatureFlags = (signal?: Signal) => api.get<FeatureFlagsReply>('/v1/admin/feature_flags', { signal });
export const putFeatureFlags = (body: UpdateFeatureFlagsBody) =>
  api.put<FeatureFlagsReply>('/v1/admin/feature_flags', body);

// ---- Own account ----
export const updateProfile = (body: UpdateProfileBody) => api.patch<CurrentUser>('/v1/users/update_profile', body);
export const updateWebpage = (userId: number, body: Partial<Webpage>) =>
  api.patch<CurrentUser>(`/v1/users/${userId}/update_webpage`, body);
export const listApiKeys = (signal?: Signal) => api.get<{ data: ApiKey[] }>('/v1/users/api_keys', { signal });
export const createApiKey = (name: string) => api.post<ApiKeyWithToken>('/v1/users/api_keys', { name });
export const refreshApiKey = (id: number) => api.patch<ApiKeyWithToken>(`/v1/users/api_keys/${id}/refresh_token`);
export const revokeApiKey = (id: number) => api.delete<undefined>(`/v1/users/api_keys/${id}`);
/** Your favourites and the colleagues you may pick (docs/decisions/favourite-users.md), narrowed by `q`. */
export const listFavorites = (q: string, signal?: Signal) =>
  api.get<FavoriteLists>('/v1/users/favorite_lists', { query: { q: q || undefined }, signal });
/** Uploads a personal photo or logo (multipart; the server checks the bytes and the size). */
export function uploadProfileImage(field: 'personal_photo' | 'logo', file: File) {
  const data = new FormData();
  data.append(field, file);
  return api.patch<CurrentUser>('/v1/users/update_profile', data);
}
export const updateDashboard = (body: { favorite_user_ids?: number[]; birthday_range?: 'today' | 'week' | 'month' }) =>
  api.patch<CurrentUser>('/v1/users/dashboard', body);
export const listAuthIps = (signal?: Signal) =>
  api.get<{ data: AuthIp[]; meta: PageMeta }>('/v1/users/auth_ips', { signal });
export const listOfficeLocations = (signal?: Signal) =>
  api.get<{ data: OfficeLocation[]; meta: PageMeta }>('/v1/users/office_locations', { signal });

// ---- Admin: signups and office locations ----
export const listSignups = (page: number, signal?: Signal) =>
  api.get<{ data: Signup[]; meta: PageMeta }>('/v1/admin/signups', { query: { page, limit: 25 }, signal });
export const listAdminOffices = (signal?: Signal) =>
  api.get<{ data: OfficeLocation[]; meta: PageMeta }>('/v1/admin/office_locations', {
    query: { limit: 100 },
    signal,
  });
export const createOffice = (body: OfficeLocationBody) => api.post<OfficeLocation>('/v1/admin/office_locations', body);
export const updateOffice = (id: number, body: OfficeLocationBody) =>
  api.put<OfficeLocation>(`/v1/admin/office_locations/${id}`, body);
export const deleteOffice = (id: number) => api.delete<undefined>(`/v1/admin/office_locations/${id}`);
