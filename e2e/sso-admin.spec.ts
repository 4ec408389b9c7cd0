/**
 * Single sign-on in a browser. First the System Admin opens Admin > Single sign-on, reads the addresses to register
 * at the provider, is told off for a plain-http issuer, sets a provider up (the secret is never shown again), checks
 * it (nothing answers at that address, which the page says), and removes it after confirming. Then the real thing:
 * the admin switches the flag on and points Harbor at the flows' own identity provider (e2e/oidc-provider.mjs, a
 * real oidc-provider), and the agent signs in there and lands in Harbor without a Harbor password.
 */
import { expect, test } from './fixtures';
import { field, SHOTS, signIn } from './helpers';

test('an admin sets up single sign-on, checks the provider and removes it', async ({ page }) => {
  await signIn(page, 'admin@demo.harbor.test');
  await expect(page.getByRole('heading', { name: 'Welcome, Alicia' })).toBeVisible();
  await page.goto('/admin/users');
  await page.getByRole('tab', { name: 'Single sign-on' }).click();
  await expect(page.getByRole('heading', { name: 'Single sign-on' })).toBeVisible();
  const addresses = page.getByLabel('Addresses to register');
  await expect(addresses).toContainText('/api/auth/callback');
  await expect(addresses).toContainText('/sso-logout');
  await expect(page.getByText('Single sign-on is switched off')).toBeVisible();

  await field(page, 'Issuer URL').fill('http://login.example.com');
  await field(page, 'Client ID').fill('harbor-crm');
  await page.getByLabel(/^Client secret/).fill('s3cret-from-the-provider');
  await page.getByRole('button', { name: 'Set up single sign-on' }).click();
  await expect(page.getByText('must use https')).toBeVisible();

  // Nothing listens on port 9 of this machine: the check must say the provider did not answer.
  await field(page, 'Issuer URL').fill('https://127.0.0.1:9/idp');
  await page.getByRole('button', { name: 'Set up single sign-on' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page.getByText('A secret is stored. Leave this empty to keep it.')).toBeVisible();
  await expect(page.getByLabel(/^Client secret/)).toHaveValue('');
  await page.getByRole('button', { name: 'Check the provider' }).click();
  const check = page.getByRole('status', { name: 'Provider check' });
  await expect(check).toContainText('The provider did not answer');
  await page.screenshot({ path: `${SHOTS}/sso-setup.png`, fullPage: true });

  // It is in the security log, without the secret.
  await page.getByRole('tab', { name: 'Security log' }).click();
  await expect(page.getByRole('table').getByText('sso connection changed').first()).toBeVisible();
  await expect(page.getByText('s3cret-from-the-provider')).toHaveCount(0);

  await page.getByRole('tab', { name: 'Single sign-on' }).click();
  await page.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove single sign-on' });
  await confirm.getByRole('button', { name: 'Remove single sign-on' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('button', { name: 'Set up single sign-on' })).toBeVisible();
  await expect(field(page, 'Issuer URL')).toHaveValue('');
});

test('a person signs in through the company identity provider once the admin has set it up', async ({ page }) => {
  const issuer = `http://127.0.0.1:${process.env.E2E_OIDC_PORT ?? 3101}`;
  await signIn(page, 'admin@demo.harbor.test');
  await expect(page.getByRole('heading', { name: 'Welcome, Alicia' })).toBeVisible();
  await page.goto('/admin/feature-flags');
  const flag = page.getByRole('switch', { name: 'Single sign-on' });
  await expect(flag).toBeVisible();
  if (!(await flag.isChecked())) await flag.click({ force: true });
  await expect(flag).toBeChecked();

  await page.getByRole('tab', { name: 'Single sign-on' }).click();
  await expect(page.getByText('Single sign-on is switched off')).toHaveCount(0);
  await field(page, 'Issuer URL').fill(issuer);
  await field(page, 'Client ID').fill('harbor-e2e');
  await page.getByLabel(/^Client secret/).fill('harbor-e2e-secret');
  await page.getByRole('button', { name: /^(Set up single sign-on|Save changes)$/ }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await page.getByRole('button', { name: 'Check the provider' }).click();
  await expect(page.getByRole('status', { name: 'Provider check' })).toContainText('The provider answered');
  await page.getByRole('button', { name: 'User menu for Alicia Grant' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);

  // The agent never types a Harbor password: the company address, then the provider's own sign-in page.
  await page.getByRole('link', { name: 'Sign in with single sign-on' }).click();
  await field(page, 'Company address').fill('demo.harbor.test');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`^${issuer.replace(/\./g, '\\.')}/interaction/`));
  await page.locator('input[name="login"]').fill('agent@demo.harbor.test');
  await page.locator('input[name="password"]').fill('anything-the-provider-accepts');
  await page.screenshot({ path: `${SHOTS}/sso-provider-login.png`, fullPage: true });
  await page.locator('button[type="submit"]').click();
  await expect(page.getByRole('heading', { name: 'Welcome, Angela' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sso-signed-in.png`, fullPage: true });
  const me = await (await page.request.get('/v1/users/me')).json();
  expect(me.email).toBe('agent@demo.harbor.test');
});
