/** The only shape of a managed user that leaves the server (admin users, team, pickers). */
import type { AdminUser, Role, TimeZone, UserOption } from '@harbor/shared';
import type { UserRow } from '../../../platform/db/schema.js';

export const fullName = (u: { firstName: string; lastName: string; email?: string }) =>
  `${u.firstName} ${u.lastName}`.trim() || (u.email ?? '');

export function presentAdminUser(
  u: UserRow,
  bu: { id: number; number: string; name: string } | null,
  manager: { id: number; firstName: string; lastName: string } | null,
): AdminUser {
  return {
    id: u.id,
    number: u.number,
    email: u.email,
    username: u.username,
    first_name: u.firstName,
    last_name: u.lastName,
    name: fullName(u),
    roles: u.roles as Role[],
    account_type: u.accountType as Role,
    business_unit: bu ? { id: bu.id, number: bu.number, name: bu.name } : null,
    manager: manager ? { id: manager.id, name: fullName(manager) } : null,
    position_title: u.positionTitle,
    office_location_id: u.officeLocationId,
    timezone: u.timezone as TimeZone,
    about_me: u.aboutMe,
    paid: u.paid,
    relationship_manager: u.relationshipManager,
    change_password: u.changePassword,
    two_fa_required: u.twoFaRequired,
    has_2fa_enabled: u.otpEnabled,
    created_at: u.createdAt.toISOString(),
  };
}

export function presentUserOption(u: Pick<UserRow, 'id' | 'firstName' | 'lastName' | 'email' | 'roles'>): UserOption {
  return { id: u.id, name: fullName(u), email: u.email, roles: u.roles as Role[] };
}
