import { describe, expect, it } from 'vitest';
import {
  AdminUsersQuery,
  CreateUserBody,
  DeleteUserBody,
  UpdateUserBody,
  UserQuickUpdateBody,
} from './api/admin-users.js';
import { UpdateFeatureFlagsBody } from './api/feature-flags.js';
import { positionTitlesFor } from './options.js';
import { assignableRoles, effectiveRank, ROLE_RANK } from './roles.js';

describe('assignableRoles', () => {
  const flags = { regional_manager: true, basic_agent: true };
  it('gives a System Admin the full list of the variant', () => {
    expect(assignableRoles(['admin'], 'insurance', flags)).toContain('regional_manager');
    expect(assignableRoles(['admin'], 'insurance', flags)).not.toContain('pool_holder');
    expect(assignableRoles(['admin'], 'recruiting', {})).toEqual([
      'admin',
      'bu_admin',
      'manager',
      'agent',
      'pool_holder',
    ]);
  });
  it('never hands out a role above the holder', () => {
    for (const roles of [
      ['sub_admin', 'admin'],
      ['bu_admin'],
      ['regional_manager'],
      ['manager'],
      ['field_manager'],
    ] as const) {
      const mine = effectiveRank(roles);
      for (const r of assignableRoles(roles, 'insurance', flags))
        expect(ROLE_RANK[r], `${roles} -> ${r}`).toBeLessThanOrEqual(mine);
    }
    expect(assignableRoles(['agent'], 'insurance', flags)).toEqual([]);
  });
  it('ranks a sub_admin below the System Admin although it holds admin', () => {
    expect(effectiveRank(['sub_admin', 'admin'])).toBeLessThan(effectiveRank(['admin']));
  });
});

describe('schemas', () => {
  it('refuse fields that are not theirs (mass assignment)', () => {
    expect(UpdateUserBody.safeParse({ roles: ['admin'] }).success).toBe(false);
    expect(UpdateUserBody.safeParse({ company_id: 2 }).success).toBe(false);
    expect(CreateUserBody.safeParse({ features: {} }).success).toBe(false);
    expect(UpdateFeatureFlagsBody.safeParse({ company: { teleport: true } }).success).toBe(false);
  });
  it('need exactly one field for a quick update, and the contacts answer for a delete', () => {
    expect(UserQuickUpdateBody.safeParse({ first_name: 'A' }).success).toBe(true);
    expect(UserQuickUpdateBody.safeParse({ first_name: 'A', last_name: 'B' }).success).toBe(false);
    expect(DeleteUserBody.safeParse({}).success).toBe(false);
    expect(DeleteUserBody.safeParse({ contacts_action: 'transfer' }).success).toBe(false);
    expect(DeleteUserBody.safeParse({ contacts_action: 'keep_unassigned' }).success).toBe(true);
  });
  it('page users 25 at a time by default, at most 100', () => {
    expect(AdminUsersQuery.parse({})).toMatchObject({ page: 1, limit: 25 });
    expect(AdminUsersQuery.safeParse({ limit: '101' }).success).toBe(false);
  });
});

describe('positionTitlesFor', () => {
  it('offers the base titles everywhere and the variant extras only in their variant', () => {
    expect(positionTitlesFor('insurance')).toContain('representative');
    expect(positionTitlesFor('insurance')).not.toContain('funeral_director');
    expect(positionTitlesFor('funeral_preneed')).toContain('funeral_director');
    expect(positionTitlesFor('recruiting')).toContain('recruiting_director');
  });
});
