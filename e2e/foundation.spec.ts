/**
 * Issue 2 in a browser: each of agent, manager and admin signs in and sees their navigation; the new hire walks the
 * whole access guard (terms, forced password change, two-factor setup), changes display preferences, signs out and
 * back in with an emailed code; a forgotten password is reset through the emailed link; public pages load signed out.
 */

import { generate } from 'otplib';
import { expect, test } from './fixtures';
import { field, latestMailTo, PASSWORD, SHOTS, signIn, signOut } from './helpers';

const PEOPLE = [
  { email: 'agent@demo.harbor.test', name: 'Angela Diaz', role: 'Agent', admin: false },
  { email: 'manager@demo.harbor.test', name: 'Monica Reyes', role: 'Manager', admin: false },
  { email: 'admin@demo.harbor.test', name: 'Alicia Grant', role: 'System Admin', admin: true },
];

for (const p of PEOPLE) {
  test(`${p.role} signs in, sees the navigation of the role, and signs out`, async ({ page }) => {
    await signIn(page, p.email);
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByText('Harbor Demo Insurance').first()).toBeVisible();
    const nav = page.getByRole('navigation');
    await expect(nav.getByRole('link', { name: 'Dashboard' })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Admin' })).toHaveCount(p.admin ? 1 : 0);
    if (p.admin) {
      await nav.getByRole('link', { name: 'Admin' }).click();
      await page.getByRole('tab', { name: 'Security log' }).click();
      await expect(page.getByRole('heading', { name: 'Security log' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Security events' })).toContainText('sign in');
    }
    await page.screenshot({ path: `${SHOTS}/signed-in-${p.role.toLowerCase().replace(' ', '-')}.png`, fullPage: true });
    await signOut(page, p.name);
    await page.goto('/account/profile');
    await expect(page).toHaveURL(/\/login/);
  });
}

test('a new hire walks the access guard, sets preferences, and signs in again with an emailed code', async ({
  page,
}) => {
  const email = 'newhire@demo.harbor.test';
  await signIn(page, email);
  // Terms first: nothing else proceeds until they are accepted.
  const terms = page.getByRole('dialog');
  await expect(terms).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/guard-1-terms.png` });
  await terms.getByRole('button', { name: 'Accept' }).click();

  // Forced password change.
  await expect(page).toHaveURL(/\/account\/profile\?tab=password/);
  await expect(page.getByText('You must change your password before continuing')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/guard-2-password.png` });
  await field(page, 'Current password').fill(PASSWORD);
  await field(page, 'New password').fill('a much longer passphrase for the river 2026');
  await field(page, 'Confirm new password').fill('a much longer passphrase for the river 2026');
  await page.getByRole('button', { name: /change password/i }).click();

  // Two-factor required but not on.
  await expect(page).toHaveURL(/\/account\/profile\?tab=two_factor/);
  await expect(page.getByText('Your company requires two-factor authentication')).toBeVisible();
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  await expect(page.getByRole('img', { name: /qr/i })).toBeVisible();
  const secret = (await field(page, 'Secret key').textContent())!.trim();
  await page.screenshot({ path: `${SHOTS}/guard-3-two-factor.png` });
  await field(page, 'Authentication code').fill(await generate({ secret }));
  await page.getByRole('button', { name: /turn on|enable|confirm/i }).click();

  await expect(page.getByText('Two-factor authentication is on.')).toBeVisible();
  // Through the guard: the dashboard opens now instead of sending the new hire back to the profile.
  await page.getByRole('navigation').getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/');
  await expect(page).toHaveURL(/\/$/);

  // Display preferences apply at once and stick.
  await page.goto('/account/profile?tab=preferences');
  await field(page, 'Background').selectOption('dark');
  await field(page, 'Primary color').selectOption('green');
  await field(page, 'Font size').selectOption('large');
  await field(page, 'Time zone').selectOption('pst');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(field(page, 'Time zone')).toHaveValue('pst');
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.screenshot({ path: `${SHOTS}/preferences-dark.png`, fullPage: true });
  await signOut(page, 'Nadia Hughes');

  // Signing in again asks for a code; the emailed one works (a TOTP code already used would not).
  await signIn(page, email, 'a much longer passphrase for the river 2026');
  await expect(page.getByRole('form', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByRole('link', { name: /email me a code/i }).click();
  const mail = await latestMailTo(page, email, /sign-in code/);
  const code = mail.text.match(/\b(\d{6})\b/)![1];
  await field(page, 'Authentication code').fill(code);
  await page.screenshot({ path: `${SHOTS}/otp-step.png` });
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('a forgotten password is reset through the emailed link', async ({ page }) => {
  const email = 'telemarketer@demo.harbor.test';
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await field(page, 'Email').fill(email);
  await page.getByRole('button', { name: /send|reset/i }).click();
  await expect(page.getByText(/If that email belongs to an account/)).toBeVisible();

  // The development inbox shows what Harbor sent; its link opens the reset page.
  const mail = await latestMailTo(page, email, /Reset your Harbor password/);
  await page.goto('/dev/inbox');
  await page.getByText('Reset your Harbor password').first().click();
  await page.screenshot({ path: `${SHOTS}/dev-inbox.png`, fullPage: true });
  const link = mail.text.match(/https?:\/\/\S+reset_password_token=\S+/)![0];
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await field(page, 'New password').fill('quiet evening phone calls');
  await field(page, 'Confirm new password').fill('quiet evening phone calls');
  await page.getByRole('button', { name: /change|reset|save/i }).click();
  await expect(page.getByText(/password has been changed/i)).toBeVisible();

  // The link works once.
  await page.goto(link.replace(/^https?:\/\/[^/]+/, ''));
  await field(page, 'New password').fill('another passphrase here');
  await field(page, 'Confirm new password').fill('another passphrase here');
  await page.getByRole('button', { name: /change|reset|save/i }).click();
  await expect(page.getByText(/invalid or has expired/i)).toBeVisible();

  await signIn(page, email, 'quiet evening phone calls');
  await expect(page).toHaveURL(/\/$/);
});

test('public pages load without a user', async ({ page }) => {
  for (const [path, heading] of [
    ['/contact-us', /contact/i],
    ['/privacy-policy', /privacy/i],
    ['/terms-of-use', /terms/i],
    ['/reset-password', /password/i],
  ] as const) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: heading }).first()).toBeVisible();
  }
  await page.screenshot({ path: `${SHOTS}/public-terms.png` });
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, 'agent@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  await page.screenshot({ path: `${SHOTS}/phone-dashboard.png`, fullPage: true });
});
