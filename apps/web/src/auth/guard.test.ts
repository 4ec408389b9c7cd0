import { describe, expect, it } from 'vitest';
import { makeUser } from '../test/fixtures';
import { guardRedirect, isPublicPath } from './guard';

const impersonating = [{ kind: 'impersonating' as const, user_id: 1, name: 'Grace Admin' }];
const asAdmin = [{ kind: 'logged_as_admin' as const, user_id: 1, name: 'Grace Admin' }];

describe('guardRedirect, in the order of spec §2', () => {
  it('1. no session goes to /login', () => {
    expect(guardRedirect(null, '/')).toBe('/login');
    expect(guardRedirect(undefined, '/contacts')).toBe('/login');
  });

  it('2. terms not accepted stops every later redirect', () => {
    const user = makeUser({ tos: false, 'change_password?': true, 'two_fa_is_required?': true, 'paid_user?': false });
    expect(guardRedirect(user, '/')).toBeNull();
  });

  it('3. a forced password change goes to the password tab, before two-factor and billing', () => {
    const user = makeUser({ 'change_password?': true, 'two_fa_is_required?': true, 'paid_user?': false });
    expect(guardRedirect(user, '/')).toBe('/account/profile?tab=password');
    expect(guardRedirect(user, '/account/profile', '?tab=profile')).toBe('/account/profile?tab=password');
    expect(guardRedirect(user, '/account/profile', '?tab=password')).toBeNull();
  });

  it('4. required two-factor not enabled goes to the two-factor tab, before billing', () => {
    const user = makeUser({ 'two_fa_is_required?': true, 'has_2fa_enabled?': false, 'paid_user?': false });
    expect(guardRedirect(user, '/contacts')).toBe('/account/profile?tab=two_factor');
    expect(guardRedirect(user, '/account/profile', '?tab=two_factor')).toBeNull();
  });

  it('4a. two-factor is not forced while impersonating or logged in as admin', () => {
    expect(guardRedirect(makeUser({ 'two_fa_is_required?': true, login_stack: impersonating }), '/')).toBeNull();
    expect(guardRedirect(makeUser({ 'two_fa_is_required?': true, login_stack: asAdmin }), '/')).toBeNull();
  });

  it('4b. two-factor required and enabled passes', () => {
    expect(guardRedirect(makeUser({ 'two_fa_is_required?': true, 'has_2fa_enabled?': true }), '/')).toBeNull();
  });

  it('5. an unpaid account goes to /billing, except on profile and billing pages', () => {
    const user = makeUser({ 'paid_user?': false });
    expect(guardRedirect(user, '/')).toBe('/billing');
    expect(guardRedirect(user, '/contacts/12')).toBe('/billing');
    expect(guardRedirect(user, '/account/profile', '?tab=preferences')).toBeNull();
    expect(guardRedirect(user, '/billing')).toBeNull();
    expect(guardRedirect(user, '/billing/plan')).toBeNull();
    expect(guardRedirect(user, '/billingx')).toBe('/billing');
  });

  it('6. a user who passes every gate stays', () => {
    expect(guardRedirect(makeUser(), '/')).toBeNull();
  });
});

describe('isPublicPath', () => {
  it('knows the pages that do not load the user', () => {
    for (const p of ['/login', '/login-app', '/reset-password', '/contact-us', '/privacy-policy', '/terms-of-use']) {
      expect(isPublicPath(p)).toBe(true);
    }
    expect(isPublicPath('/api/auth/callback')).toBe(true);
    expect(isPublicPath('/sso-logout')).toBe(true);
    expect(isPublicPath('/dev/inbox')).toBe(true);
    expect(isPublicPath('/')).toBe(false);
    expect(isPublicPath('/loginx')).toBe(false);
    expect(isPublicPath('/account/profile')).toBe(false);
  });
});
