/**
 * Money as people use it (issue 10): an unpaid account is sent to /billing by the access guard, chooses a plan,
 * adds a card in our own form and pays; once the processor confirms, it lands in the app. Screenshots in
 * test-results/screens/money-*.png at 1280 and 390 px.
 */

import { api, axeFindings } from './a11y';
import { expect, type Page, test } from './fixtures';
import { field, fillTestCard, SHOTS, signIn, signOut } from './helpers';

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
    '/v1/admin/users?q=district_manager',
  );
  // Dennis Hale: a demo user no other flow signs in as (the password-reset flow changes Tyler's password).
  const dennis = users.data.find((u) => u.email === 'district_manager@demo.harbor.test')!;
  await api(page, 'POST', `/v1/admin/users/${dennis.id}/paid_membership`, { paid: false });
  await signOut(page, 'Alicia Grant');

  await signIn(page, 'district_manager@demo.harbor.test');
  await expect(page).toHaveURL(/\/billing$/);
  await expect(page.getByText('Your account is not active')).toBeVisible();
  // The guard keeps them on billing pages.
  await page.goto('/contacts');
  await expect(page).toHaveURL(/\/billing$/);
  await noAxeFindings(page, 'billing unpaid');
  await shotBoth(page, 'billing-unpaid');

  await page.getByRole('link', { name: 'Choose a plan' }).click();
  await expect(page.getByRole('heading', { name: 'Choose a plan' })).toBeVisible();
  const radio = (name: string) => page.getByRole('radio', { name, exact: true });
  await expect(radio('Professional')).toBeChecked();
  await radio('Agency').click();
  await expect(page).toHaveURL(/plan=agency/);
  await expect(radio('Agency')).toBeChecked();
  await radio('Professional').click();
  await expect(page).toHaveURL(/plan=professional/);
  await expect(radio('Professional')).toBeChecked();
  await noAxeFindings(page, 'billing plan');
  await shotBoth(page, 'billing-plan');
  await page.getByRole('button', { name: 'Continue' }).click();

  // No card yet: the card form first, then back to the review.
  await expect(page.getByRole('heading', { name: 'Update card' })).toBeVisible();
  await fillTestCard(page, '13/34');
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

test('an agent orders from the store and an admin refunds part of the order', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'agent@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/billing/update');
  await fillTestCard(page);
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/billing$/);

  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Store' }).click();
  await expect(page).toHaveURL(/\/store$/);
  await expect(page.getByRole('heading', { name: 'Store' })).toBeVisible();
  await expect(page.getByText(/Paid with Visa ending in 4242/)).toBeVisible();
  await noAxeFindings(page, 'store');
  await shotBoth(page, 'store');
  await page.getByRole('button', { name: 'Order Business cards (250)' }).click();
  const dialog = page.getByRole('dialog', { name: 'Order Business cards (250)' });
  await dialog.getByLabel('Quantity').fill('2');
  await expect(dialog.getByText('Total: $78.00')).toBeVisible();
  await dialog.getByRole('button', { name: 'Pay $78.00' }).click();
  await expect(page.getByText(/Order SO-\d+ placed: \$78\.00/)).toBeVisible();
  await signOut(page, 'Angela Diaz');

  await signIn(page, 'admin@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  // Paid once the processor's webhook lands.
  await expect
    .poll(
      async () =>
        (await api<{ data: Array<{ payment_status: string }> }>(page, 'GET', '/v1/admin/order_management')).data.map(
          (o) => o.payment_status,
        ),
      { timeout: 30_000 },
    )
    .toContain('succeeded');
  await page.goto('/admin/orders');
  const table = page.getByRole('table', { name: 'Orders' });
  await expect(table.getByText('Paid', { exact: true })).toBeVisible();
  await noAxeFindings(page, 'admin orders');
  await shotBoth(page, 'admin-orders');
  const number = (await table.locator('tbody tr').first().locator('td').first().textContent())!.trim();
  await page.getByRole('button', { name: `Refund ${number}` }).click();
  const refund = page.getByRole('dialog', { name: `Refund ${number}` });
  await expect(refund.getByText('Left to refund: $78.00.')).toBeVisible();
  await refund.getByLabel('Amount to refund ($)').fill('80.00');
  await expect(refund.getByText('Enter an amount up to $78.00, in dollars and cents.')).toBeVisible();
  await expect(refund.getByRole('button', { name: /^Refund/ })).toBeDisabled();
  await refund.getByLabel('Amount to refund ($)').fill('30.00');
  await noAxeFindings(page, 'admin refund');
  await page.screenshot({ path: `${SHOTS}/money-admin-refund-1280.png`, fullPage: true });
  await refund.getByRole('button', { name: 'Refund $30.00' }).click();
  await expect(refund).toBeHidden();
  await expect(table.getByText('Partly refunded ($30.00 refunded)')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill(number);
  await page.getByRole('textbox', { name: 'Search' }).press('Enter');
  await expect(page).toHaveURL(new RegExp(`q=${number}`));
  await expect(table.locator('tbody tr')).toHaveCount(1);
  await shotBoth(page, 'admin-orders-refunded');
});
