/**
 * The /v1/admin/users contract (crm-wallet-dialer-admin.md §7 "Admin back office"), shared by the server
 * (validation, serialization) and the browser (typed client, forms). Request bodies are strict objects: a field the
 * route does not name is refused (422), so roles, company or flags cannot ride along in a profile edit.
 */
import { z } from 'zod';
import { ALL_POSITION_TITLES, TIME_ZONES } from '../options.js';
import { ROLES } from '../roles.js';
import { PageMeta } from './paging.js';
import { Email, NewPassword } from './session.js';

const Name = z.string().trim().min(1, "can't be blank").max(100);
const Username = z
  .string()
  .trim()
  .min(3, 'is too short (minimum is 3 characters)')
  .max(60)
  .regex(/^[a-zA-Z0-9._-]+$/, 'may contain only letters, digits, dots, dashes and underscores');
const Id = z.number().int().positive();

export const Paging = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const AdminUsersQuery = Paging.extend({
  q: z.string().trim().max(100).optional(),
  role: z.enum(ROLES).optional(),
  business_unit_id: z.coerce.number().int().positive().optional(),
});
export type AdminUsersQuery = z.infer<typeof AdminUsersQuery>;
export type AdminUsersQueryInput = z.input<typeof AdminUsersQuery>;

export const AdminUser = z.object({
  id: z.number(),
  number: z.string(),
  email: z.string(),
  username: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  roles: z.array(z.enum(ROLES)),
  account_type: z.enum(ROLES),
  business_unit: z.object({ id: z.number(), number: z.string(), name: z.string() }).nullable(),
  manager: z.object({ id: z.number(), name: z.string() }).nullable(),
  position_title: z.string().nullable(),
  office_location_id: z.number().nullable(),
  timezone: z.enum(TIME_ZONES),
  about_me: z.string().nullable(),
  paid: z.boolean(),
  relationship_manager: z.boolean(),
  change_password: z.boolean(),
  two_fa_required: z.boolean(),
  has_2fa_enabled: z.boolean(),
  created_at: z.string(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserList = z.object({ data: z.array(AdminUser), meta: PageMeta });
export type AdminUserList = z.infer<typeof AdminUserList>;

/** Fields an admin may set on a user's profile; the same set serves create, update and quick update. */
const EditableFields = {
  first_name: Name,
  last_name: Name,
  email: Email,
  username: Username,
  manager_id: Id.nullable(),
  business_unit_id: Id.nullable(),
  position_title: z.enum(ALL_POSITION_TITLES).nullable(),
  office_location_id: Id.nullable(),
  timezone: z.enum(TIME_ZONES),
  about_me: z.string().max(2000).nullable(),
  relationship_manager: z.boolean(),
  change_password: z.boolean(),
  two_fa_required: z.boolean(),
};

export const CreateUserBody = z.strictObject({
  ...EditableFields,
  username: Username.optional(),
  manager_id: EditableFields.manager_id.optional(),
  business_unit_id: EditableFields.business_unit_id.optional(),
  position_title: EditableFields.position_title.optional(),
  office_location_id: EditableFields.office_location_id.optional(),
  timezone: EditableFields.timezone.optional(),
  about_me: EditableFields.about_me.optional(),
  relationship_manager: z.boolean().optional(),
  two_fa_required: z.boolean().optional(),
  /** A temporary password; the user must change it at first sign-in unless change_password is false. */
  password: NewPassword,
  change_password: z.boolean().default(true),
  account_type: z.enum(ROLES),
});
export type CreateUserBody = z.input<typeof CreateUserBody>;

export const UpdateUserBody = z.strictObject(EditableFields).partial();
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** Quick update: exactly one field of the profile, e.g. from an inline edit in the list. */
export const UserQuickUpdateBody = UpdateUserBody.refine((b) => Object.keys(b).length === 1, {
  message: 'must name exactly one field',
  path: ['base'],
});

export const RoleOption = z.object({ value: z.enum(ROLES), label: z.string() });
export const UserRoles = z.object({
  roles: z.array(z.enum(ROLES)),
  account_type: z.enum(ROLES),
  assignable: z.array(RoleOption),
});
export type UserRoles = z.infer<typeof UserRoles>;

export const UpdateRolesBody = z.strictObject({
  roles: z.array(z.enum(ROLES)).min(1, "can't be blank").max(ROLES.length),
});

export const LOGIN_TYPES = ['login_as', 'impersonate'] as const;
export const AdminLoginBody = z.strictObject({ login_type: z.enum(LOGIN_TYPES) });

export const PaidMembershipBody = z.strictObject({ paid: z.boolean().default(true) });

export const CONTACTS_ACTIONS = ['transfer', 'keep_unassigned'] as const;
/** Deleting a user always says what happens to their contacts: docs/decisions/user-deletion-contacts.md. */
export const DeleteUserBody = z
  .strictObject({
    contacts_action: z.enum(CONTACTS_ACTIONS, "must be 'transfer' or 'keep_unassigned'"),
    transfer_to_user_id: Id.optional(),
  })
  .refine((b) => b.contacts_action !== 'transfer' || b.transfer_to_user_id, {
    message: "can't be blank when contacts are transferred",
    path: ['transfer_to_user_id'],
  });
export type DeleteUserBody = z.infer<typeof DeleteUserBody>;

export const UserOption = z.object({
  id: z.number(),
  name: z.string(),
  email: z.string(),
  roles: z.array(z.enum(ROLES)),
});
export type UserOption = z.infer<typeof UserOption>;
export const UserOptions = z.object({ data: z.array(UserOption) });

export const PoolHoldersQuery = z.object({ only_rm: z.stringbool().optional() });

export const BusinessUnit = z.object({ id: z.number(), number: z.string(), name: z.string() });
export type BusinessUnit = z.infer<typeof BusinessUnit>;
export const BusinessUnits = z.object({ data: z.array(BusinessUnit) });

export const SwitchSessionBody = z.strictObject({ login_type: z.enum(LOGIN_TYPES).default('impersonate') });
/** The body of a switch is optional: without one it is an impersonation. */
export const SwitchSessionRequest = SwitchSessionBody.optional();
