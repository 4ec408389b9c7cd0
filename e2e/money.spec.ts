/**
 * Money as people use it (issue 10): an unpaid account is sent to /billing by the access guard, chooses a plan,
 * adds a card in our own form and pays; once the processor confirms, it lands in the app. Screenshots in
 * test-results/screens/money-*.png at 1280 and 390 px.
 */
import { expect, type Page, test } from '@playwright/test';
import { api, axeFindings } from './a11y';
import { field, SHOTS, signIn, signOut } from './helpers';

test.use({ bypassCSP: true }); // axe-core is injected as an inline script, which the app's policy rightly refuses

async function shotBoth(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/money-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(700); // the navigation bar's slide to the phone layout
  await page.screenshot({ path: `${SHOTS}/money-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(700);
}

async function noAxeFindings(page: Page, where: string) {
  expect(await axeFindings(page, where)).toEqual([]);
}

test('an unpaid account is sent to /billing, pays by card and lands in the app', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'admin@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  const users = await api<{ data: Array<{ id: number; email: string }> }>(
    page,
    'GET',
    '/v1/admin/users?q=telemarketer',
  );
  const tyler = users.data.find((u) => u.email === 'telemarketer@demo.harbor.test')!;
  await api(page, 'POST', `/v1/admin/users/${tyler.id}/paid_membership`, { paid: false });
  await signOut(page, 'Alicia Grant');

  await signIn(page, 'telemarketer@demo.harbor.test');
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText('Your account is not active')).toBeVisible();
  // The guard keeps them on billing pages.
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/billing$/);
  await noAxeFindings(page, 'billing unpaid');
  await shotBoth(page, 'billing-unpaid');

  await page.getByRole('link', { name: 'Choose a plan' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a plan' })).toBeVisible();
  await page.getByRole('radio', { name: 'Agency', exact: true }).check();
  await expect(page).toHaveURL(/plan=agency/);
  await page.getByRole('radio', { name: 'Professional', exact: true }).check();
  await expect(page).toHaveURL(/plan=professional/);
  await noAxeFindings(page, 'billing plan');
  await shotBoth(page, 'billing-plan');
  await page.getByRole('button', { name: 'Continue' }).click();

  // No card yet: the card form first, then back to the review.
  await expect(page.getByRole('heading', { name: 'Update card' })).toBeVisible();
  await field(page, 'Card number').fill('4242 4242 4242 4242');
  await field(page, 'Expiry \\(MM/YY\\)').fill('13/34');
  await field(page, 'Security code').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(
    page.getByText('The month must be 01 to 12.').or(page.getByText('Enter the expiry as MM/YY.')),
  ).toBeVisible();
  await field(page, 'Expiry \\(MM/YY\\)').fill('12/34');
  await noAxeFindings(page, 'billing update');
  await shotBoth(page, 'billing-update');
  await page.getByRole('button', { name: 'Save card' }).click();

  await expect(page.getByRole('heading', { name: 'Review and pay' })).toBeVisible();
  await expect(page.getByText('Visa ending in 4242, expires 12/34')).toBeVisible();
  await expect(page.getByText('Charged today: $59.00, then monthly until you cancel.')).toBeVisible();
  await noAxeFindings(page, 'billing review');
  await shotBoth(page, 'billing-review');
  await page.getByRole('button', { name: 'Pay $59.00' }).click();

  // Paid once the processor's signed webhook lands: the app opens.
  await expect(page).toHaveURL(/\/$/, { timeout: 30_000 });
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/contacts$/);
  await page.goto('/billing');
  await expect(page.getByText('Professional', { exact: true })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  const history = page.getByRole('table', { name: 'Billing history' });
  await expect(history.getByText('Harbor Professional plan, one month')).toBeVisible();
  await expect(history.getByText('•••• 4242')).toBeVisible();
  await noAxeFindings(page, 'billing paid');
  await shotBoth(page, 'billing-paid');
});
