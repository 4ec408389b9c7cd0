/**
 * The wallet as people use it (issue 10): an agent tops up with the test card, sees the receipt once the processor's
 * signed webhook lands and downloads the invoice PDF; turns on auto-refill, which survives a reload; a manager
 * allocates to two agents picked by name and reclaims from one, and the transactions show the moves. Balances are
 * read before each step (other flows in the run spend from the same wallets). Screenshots in
 * test-results/screens/wallet-*.png at 1280 px (and the wallet at 390 px).
 */
import fs from 'node:fs';
import { axeFindings } from './a11y';
import { expect, type Page, test } from './fixtures';
import { field, SHOTS, signIn } from './helpers';
import { call, fund, PROCESSOR } from './wallet-kit';

test.use({ bypassCSP: true, actionTimeout: 30_000 }); // axe-core is injected as an inline script, which the app's policy rightly refuses

const usd = (cents: number) => (cents / 100).toLocaleString('en-US', { style: 'currency', currency: 'USD' });

interface Wallet {
  balance: number;
  card: { last4: string } | null;
  auto_refill_settings: { enabled: boolean; threshold: number; amount: number };
}

const wallet = (page: Page) => call<Wallet>(page, 'GET', '/v1/wallets');

async function openWallet(page: Page) {
  await page.goto('/wallets');
  await expect(page.getByRole('heading', { name: 'Wallet', level: 1 })).toBeVisible();
  await expect(page.getByTestId('wallet-balance')).toBeVisible();
}

/** A full-page screenshot from the top: taken while scrolled, the fixed header would be drawn mid-page. */
async function shot(page: Page, name: string) {
  await page.evaluate('window.scrollTo(0, 0)');
  await page.screenshot({ path: `${SHOTS}/wallet-${name}.png`, fullPage: true });
}

async function noAxeFindings(page: Page, where: string) {
  expect(await axeFindings(page, where)).toEqual([]);
}

test('an agent tops up with the test card, sees the receipt and downloads the invoice PDF', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'agent@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  const before = (await wallet(page)).balance;
  await openWallet(page);
  await expect(page.getByTestId('wallet-balance')).toHaveText(usd(before));

  const form = page.getByRole('form', { name: 'Top up with a card' });
  await field(page, 'Amount \\(USD\\)').fill('37.50');
  await field(page, 'Description').fill('Wallet flow top-up');
  // A card number that fails the checksum is caught in the form, before anything is sent.
  await field(page, 'Card number').fill('4242 4242 4242 4241');
  await field(page, 'Expiry \\(MM/YY\\)').fill('12/34');
  await field(page, 'Security code').fill('123');
  await form.getByRole('button', { name: 'Pay $37.50' }).click();
  await expect(form.getByText('Enter a valid card number.')).toBeVisible();
  await field(page, 'Card number').fill('4242 4242 4242 4242');
  await expect(form.getByText('Visa', { exact: true })).toBeVisible();
  await noAxeFindings(page, 'wallet top-up');
  await form.getByRole('button', { name: 'Pay $37.50' }).click();

  // The receipt waits for the processor's signed webhook, then shows the invoice and the new balance.
  await expect(page).toHaveURL(/\/wallets\/receipt\?payment=\d+$/, PROCESSOR);
  await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Paid$/ })).toBeVisible(PROCESSOR);
  const details = page.getByRole('table', { name: 'Payment details' });
  await expect(details.getByText('Wallet flow top-up')).toBeVisible();
  await expect(details.getByText('Visa •••• 4242')).toBeVisible();
  await expect(page.getByTestId('receipt-balance')).toHaveText(usd(before + 3_750));
  await noAxeFindings(page, 'wallet receipt');
  await shot(page, 'receipt-1280');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download invoice (PDF)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/\.pdf$/);
  const pdf = fs.readFileSync((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');

  await page.getByRole('link', { name: 'Back to the wallet' }).click();
  await expect(page.getByTestId('wallet-balance')).toHaveText(usd(before + 3_750));
  const transactions = page.getByRole('table', { name: 'Wallet transactions' });
  await expect(transactions.getByText(/^Wallet flow top-up/)).toBeVisible();
  await expect(page.getByRole('link', { name: /^PDF of invoice .+$/ }).first()).toBeVisible();
  await noAxeFindings(page, 'wallet after top-up');
  await shot(page, 'agent-1280');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(700); // the navigation bar's slide to the phone layout
  await noAxeFindings(page, 'wallet at 390 px');
  await shot(page, 'agent-390');
});

test('an agent turns on auto-refill and the setting survives a reload', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'agent@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  // Auto-refill charges a saved card; the first flow saves one, but this one stands on its own.
  if (!(await wallet(page)).card) await fund(page, 5_000, true);
  await openWallet(page);

  const form = page.getByRole('form', { name: 'Auto-refill settings' });
  await expect(form.getByText(/^Charged to the saved card Visa •••• 4242/)).toBeVisible();
  const toggle = form.getByRole('switch', { name: 'Refill my wallet automatically' });
  if (await toggle.isChecked()) {
    // A rerun on the same data: start from off, as a person would find it.
    await toggle.uncheck({ force: true });
    await form.getByRole('button', { name: 'Save auto-refill' }).click();
    await expect(form.getByRole('status')).toHaveText('Auto-refill is off.');
  }
  await toggle.check({ force: true }); // Mantine's input sits under its drawn track
  await expect(toggle).toBeChecked();
  const threshold = form.getByLabel('When the balance falls below (USD)');
  const amount = form.getByLabel('Add this amount (USD)');
  await threshold.fill('1.234');
  await amount.fill('40');
  await form.getByRole('button', { name: 'Save auto-refill' }).click();
  await expect(form.getByText(/^Enter \$.+ to \$.+\.$/)).toBeVisible();
  await threshold.fill('7.50');
  await form.getByRole('button', { name: 'Save auto-refill' }).click();
  await expect(form.getByRole('status')).toHaveText('Auto-refill is on.');
  await expect(page.getByText('On: $40.00 when under $7.50')).toBeVisible();

  await page.reload();
  // Wait for the rendered settings, not just the page: the form appears once the wallet has loaded.
  await expect(page.getByText('On: $40.00 when under $7.50')).toBeVisible();
  const after = page.getByRole('form', { name: 'Auto-refill settings' });
  await expect(after.getByRole('switch', { name: 'Refill my wallet automatically' })).toBeChecked();
  await expect(after.getByLabel('When the balance falls below (USD)')).toHaveValue('7.50');
  await expect(after.getByLabel('Add this amount (USD)')).toHaveValue('40.00');
  expect((await wallet(page)).auto_refill_settings).toEqual({ enabled: true, threshold: 750, amount: 4_000 });
  await noAxeFindings(page, 'wallet auto-refill');
  await after.scrollIntoViewIfNeeded();
  await page.screenshot({ path: `${SHOTS}/wallet-auto-refill-1280.png` });
});

test('a manager allocates to two agents picked by name and reclaims from one', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, 'manager@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  // Managers allocate from their own wallet: fund it first.
  await fund(page, 10_000, false);
  const start = (await wallet(page)).balance;
  await openWallet(page);

  const section = page.getByRole('region', { name: 'Allocate to your team' });
  const people = section.getByRole('combobox', { name: 'People' });
  const pick = async (name: string) => {
    await people.click();
    await people.fill(name.split(' ')[0]!);
    await page.getByRole('option', { name: new RegExp(`^${name} \\(`) }).click();
    await expect(section.getByRole('table', { name: 'Balances of the people picked' })).toContainText(name);
  };
  await pick('Tyler Brooks');
  await pick('Angela Diaz');
  await people.fill('');
  await page.keyboard.press('Escape');
  await section.getByLabel('Amount per person (USD)').fill('12.00');
  await section.getByRole('button', { name: 'Allocate', exact: true }).click();
  await expect(section.getByRole('status')).toHaveText(
    `Allocated $24.00 (2 people). Your wallet now holds ${usd(start - 2_400)}.`,
  );
  await expect(page.getByTestId('wallet-balance')).toHaveText(usd(start - 2_400));
  await noAxeFindings(page, 'wallet allocate');
  await shot(page, 'allocate-1280');

  // Reclaim part of it from one of them: Angela (picked last) is taken off with Backspace in the empty search.
  await people.click();
  await people.press('Backspace');
  await page.keyboard.press('Escape');
  await expect(section.getByRole('table', { name: 'Balances of the people picked' })).not.toContainText('Angela');
  // More than Tyler holds is refused and nothing moves.
  await section.getByLabel('Amount per person (USD)').fill('9000.00');
  await section.getByRole('button', { name: 'Reclaim' }).click();
  await expect(section.getByRole('alert')).toBeVisible();
  await section.getByLabel('Amount per person (USD)').fill('5.00');
  await section.getByRole('button', { name: 'Reclaim' }).click();
  await expect(section.getByRole('status')).toHaveText(
    `Reclaimed $5.00 (1 person). Your wallet now holds ${usd(start - 1_900)}.`,
  );
  await expect(page.getByTestId('wallet-balance')).toHaveText(usd(start - 1_900));

  const transactions = page.getByRole('table', { name: 'Wallet transactions' });
  const rows = transactions.locator('tbody tr');
  await expect(rows.first()).toContainText('Reclaimed from 1 person');
  await expect(rows.first()).toContainText('+$5.00');
  await expect(rows.nth(1)).toContainText('Allocated to 2 people');
  await expect(rows.nth(1)).toContainText('-$24.00');
  await noAxeFindings(page, 'wallet after reclaim');
  await shot(page, 'manager-1280');
});
