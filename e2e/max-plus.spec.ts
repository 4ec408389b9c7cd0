/**
 * Max Plus as people use it (issue 10, spec 2 §3/§7): a field manager adds a card, subscribes to Premium on it and
 * sees it active once the processor's signed webhook lands; the SMS feature gate follows (texting opens in the
 * navigation, and closes again when she cancels). For her team she picks Brian Cole by name, subscribes him to
 * Standard on her card and cancels it for him. Every subscription is cancelled at the end, so other flows find the
 * demo data as seeded. Screenshots in test-results/screens/max-plus-*.png at 1280 and 390 px.
 */

import { axeFindings } from './a11y';
import { expect, type Page, test } from './fixtures';
import { fillTestCard, SHOTS, signIn } from './helpers';

test.use({ bypassCSP: true, actionTimeout: 30_000 }); // axe-core is injected as an inline script, which the app's policy rightly refuses

/** Webhooks on a loaded two-core machine: generous, since they land after the browser's answer. */
const PROCESSOR = { timeout: 45_000 };

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main navigation' });

async function shotBoth(page: Page, name: string) {
  await page.evaluate('window.scrollTo(0, 0)'); // from the top: the fixed header would be drawn mid-page
  await page.screenshot({ path: `${SHOTS}/max-plus-${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(700); // the navigation bar's slide to the phone layout
  await page.screenshot({ path: `${SHOTS}/max-plus-${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.waitForTimeout(700);
}

async function noAxeFindings(page: Page, where: string) {
  expect(await axeFindings(page, where)).toEqual([]);
}

test('a manager subscribes to Max Plus by card, texting follows, and she subscribes and cancels for her team', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'field_manager@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  // No Max Plus yet: the SMS gate is closed, so texting is not offered.
  await expect(nav(page).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(nav(page).getByRole('link', { name: 'SMS' })).toHaveCount(0);

  await nav(page).getByRole('link', { name: 'Max Plus' }).click();
  await expect(page).toHaveURL(/\/max-plus$/);
  await expect(page.getByRole('heading', { name: 'Max Plus', level: 1 })).toBeVisible();
  await expect(page.getByText('Max Plus is paid by credit card.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Subscribe for $39.00 to Max Plus Premium' })).toBeDisabled();
  await page.getByRole('link', { name: 'Add a card' }).click();

  await expect(page.getByRole('heading', { name: 'Update card' })).toBeVisible();
  await fillTestCard(page);
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/billing$/);

  await page.goto('/max-plus');
  await expect(page.getByText('Max Plus is paid by credit card.')).toHaveCount(0);
  await expect(page.getByText('$39.00 a month')).toBeVisible();
  await noAxeFindings(page, 'max plus plans');
  await shotBoth(page, 'plans');
  await page.getByRole('button', { name: 'Subscribe for $39.00 to Max Plus Premium' }).click();

  // Active once the processor confirms; the page reads the current user again until it shows it.
  await expect(page.getByRole('button', { name: 'Cancel Max Plus', exact: true })).toBeVisible(PROCESSOR);
  await expect(page.getByRole('paragraph').filter({ hasText: /^Max Plus Premium$/ })).toBeVisible();
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  // The SMS gate reads the refreshed user: texting is offered now, and its page opens.
  await nav(page).getByRole('link', { name: 'SMS' }).click();
  await expect(page).toHaveURL(/\/sms/);
  await expect(page.getByText('Texting needs an active Max Plus Premium subscription.')).toHaveCount(0);
  await page.goto('/max-plus');
  await expect(page.getByText('Active', { exact: true })).toBeVisible();
  await noAxeFindings(page, 'max plus active');
  await shotBoth(page, 'active');

  // Her team: Brian Cole, picked by name, on Standard, paid with her card in one charge.
  const team = page.getByRole('table', { name: 'Team Max Plus' });
  const brian = team.getByRole('row').filter({ hasText: 'Brian Cole' });
  await expect(brian.getByRole('cell', { name: 'None', exact: true })).toBeVisible();
  await page.getByRole('checkbox', { name: 'Choose Brian Cole' }).check();
  await page.getByRole('radio', { name: 'Max Plus Standard' }).check({ force: true });
  await page.getByRole('button', { name: 'Subscribe 1 for $19.00 on your card' }).click();
  await expect(brian.getByRole('cell', { name: 'Max Plus Standard', exact: true })).toBeVisible(PROCESSOR);
  await expect(page.getByRole('checkbox', { name: 'Choose Brian Cole' })).toBeDisabled();
  await noAxeFindings(page, 'max plus team');
  await shotBoth(page, 'team');

  await page.getByRole('button', { name: 'Cancel Max Plus for Brian Cole' }).click();
  await expect(brian.getByRole('cell', { name: 'None', exact: true })).toBeVisible();
  await expect(page.getByRole('checkbox', { name: 'Choose Brian Cole' })).toBeEnabled();

  // Her own: cancelled in the dialog, and texting closes with it.
  await page.getByRole('button', { name: 'Cancel Max Plus', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel Max Plus?' });
  await expect(dialog.getByText('This month is not refunded.', { exact: false })).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel Max Plus' }).click();
  await expect(page.getByRole('button', { name: 'Subscribe for $39.00 to Max Plus Premium' })).toBeEnabled();
  await expect(nav(page).getByRole('link', { name: 'SMS' })).toHaveCount(0);
});
