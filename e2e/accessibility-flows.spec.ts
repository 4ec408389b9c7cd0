/**
 * WCAG 2.2 AA in a browser, the screens that only exist part-way through a flow: the import wizard at each step, an
 * import's result page with its tabs and undo question, the merge dialog, a new contact's duplicate warning and a
 * contact's quick status, in the light and the dark scheme. Then the keyboard: the skip link is the first stop and
 * reaches the page, and after each navigation focus is on the new page's heading. Also proves the checker itself
 * reports a violation, so a passing run means the screens are clean rather than that nothing was checked.
 */

import { api, axeFindings, check, listContacts, showScreen, withOpen } from './a11y';
import { expect, test } from './fixtures';
import { SHOTS, signIn } from './helpers';

// Unique to this run: emails and phones are what an import matches on.
const stamp = Date.now().toString(36);
const line = String((Date.now() % 9000) + 1000).padStart(4, '0');

test.use({ bypassCSP: true }); // axe-core is injected as an inline script, which the app's policy rightly refuses

test('the checker reports a violation when there is one', async ({ page }) => {
  await showScreen(page, '/login');
  // A button without a name (critical) and grey-on-white text (serious), as a regression would bring them back.
  await page.evaluate(`(() => {
    const b = document.createElement('button');
    b.innerHTML = '<svg width="16" height="16" aria-hidden="true"></svg>';
    const p = document.createElement('p');
    p.textContent = 'Faint text';
    p.style.color = '#bbbbbb';
    p.style.background = '#ffffff';
    document.querySelector('main').append(b, p);
  })()`);
  const findings = (await axeFindings(page, 'seeded')).join('\n');
  expect(findings).toContain('button-name (critical)');
  expect(findings).toContain('color-contrast (serious)');
  // The dark scheme is checked by the color rules alone (COLOR_RULES): the grey text is still found there.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  const dark = (await axeFindings(page, 'seeded, dark')).join('\n');
  expect(dark).toContain('color-contrast (serious)');
  expect(dark).not.toContain('button-name');
});

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    test.use({ colorScheme: scheme });

    test('the import wizard, its result and undo, the merge dialog and a new contact', async ({ page }) => {
      test.setTimeout(300_000);
      const found: string[] = [];
      await signIn(page, 'admin@demo.harbor.test');
      await expect(page).toHaveURL(/\/$/);
      const existing = (await listContacts(page, { limit: 100 })).find((r) => r.phone);
      expect(existing, 'a demo contact with a phone').toBeTruthy();

      // The wizard: the file step, the mapping and options, the preview (a contact it would change, an invalid row).
      await showScreen(page, '/contacts/imports/new');
      const csv = [
        'First Name,Last Name,Phone,Email,City',
        `Ivy,Stone${stamp},(555) 710-${line},ivy.${stamp}@example.com,Tampa`,
        `Other,Person${stamp},${existing?.phone},,Sarasota`,
        'Bad,Row,12345,not-an-email,',
      ].join('\n');
      await page.locator('input[type="file"]').setInputFiles({
        name: `a11y-${scheme}-${stamp}.csv`,
        mimeType: 'text/csv',
        buffer: Buffer.from(csv),
      });
      await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
      await check(page, found, `${scheme} import wizard mapping`);
      await page.getByRole('button', { name: 'Preview' }).click();
      await expect(page.getByLabel('Preview', { exact: true }).getByLabel('Invalid', { exact: true })).toHaveText('1');
      await check(page, found, `${scheme} import wizard preview`, `a11y-import-preview-${scheme}`);

      // The result page, each of its tabs, and the undo question.
      await page.getByRole('button', { name: 'Start import' }).click();
      await expect(page).toHaveURL(/\/contacts\/imports\/\d+$/);
      await expect(page.getByText('Completed', { exact: true })).toBeVisible({ timeout: 30_000 });
      await expect(page.locator('[data-page-heading]')).toHaveText(`a11y-${scheme}-${stamp}.csv`);
      await check(page, found, `${scheme} import result`, `a11y-import-result-${scheme}`);
      for (const tab of [/^Changed/, /^Created/]) {
        await page.getByRole('tab', { name: tab }).click();
        await check(page, found, `${scheme} import result tab ${tab.source}`);
      }
      await withOpen(page, found, `${scheme} import undo dialog`, async () => {
        await page.getByRole('button', { name: 'Undo this import…' }).click();
        await expect(page.getByRole('dialog').getByLabel('What undo will do')).toBeVisible();
      });
      await showScreen(page, '/contacts/imports/999999999');
      await check(page, found, `${scheme} missing import`);

      // The merge dialog: two duplicates side by side, with a choice for each differing field.
      await showScreen(page, '/contacts?duplicates=1');
      await expect(page.getByText('.dup@example.com').first()).toBeVisible();
      const boxes = page.getByRole('table', { name: 'Contacts' }).locator('tbody input[type=checkbox]');
      await boxes.nth(0).check();
      await boxes.nth(1).check();
      await withOpen(page, found, `${scheme} merge dialog`, async () => {
        await page.getByRole('button', { name: 'Bulk actions' }).click();
        await page.getByRole('menuitem', { name: 'Merge duplicates' }).click();
        await expect(page.getByRole('table', { name: 'Records to merge' })).toBeVisible();
        await page.screenshot({ path: `${SHOTS}/a11y-merge-${scheme}.png`, fullPage: true });
      });

      // Filters picked by name: the pickers holding values (their pills) and the chips of the active filters.
      await showScreen(page, '/contacts');
      await page.getByRole('button', { name: 'Filters', exact: true }).click();
      const picker = page
        .getByRole('region', { name: 'Filters' })
        .getByRole('combobox', { name: 'Status', exact: true });
      await picker.click();
      await page.getByRole('option', { name: 'Sold', exact: true }).click();
      await page.keyboard.press('Escape');
      await expect(page.getByRole('group', { name: 'Active filters' })).toContainText('Status: Sold');
      await check(page, found, `${scheme} contacts with a filter on`);

      // A new contact whose phone is already in the book: the warning and its links.
      await showScreen(page, '/contacts/new');
      await page
        .getByLabel(/^Phone/)
        .first()
        .fill(existing?.phone ?? '');
      await expect(page.getByText('This may be a contact you already have')).toBeVisible();
      await check(page, found, `${scheme} new contact duplicate warning`);

      // A contact's quick status changed from its header: the saved state and the timeline entry.
      await showScreen(page, `/contacts/${existing?.number}`);
      const status = page.getByLabel('Quick status');
      const before = await status.inputValue();
      const other = await status
        .locator('option')
        .evaluateAll(
          (os, was) => (os as Array<{ value: string }>).map((o) => o.value).find((v) => v && v !== was) ?? '',
          before,
        );
      await status.selectOption(other);
      await expect(page.getByRole('tab', { name: 'Timeline' })).toBeVisible();
      await expect(status).toHaveValue(other);
      await check(page, found, `${scheme} contact after a status change`);

      expect(found).toEqual([]);
    });
  });
}

test('the skip link is the first stop, and focus lands on the heading after each navigation', async ({ page }) => {
  await page.goto('/login');
  await expect(page.locator('[data-page-heading]')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to main content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();

  await signIn(page, 'agent@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/contacts');
  await expect(page.locator('[data-page-heading]')).toBeVisible();
  await page.keyboard.press('Tab');
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main-content')).toBeFocused();
  // The next Tab goes into the page (its first control), past the header and the navigation.
  await page.keyboard.press('Tab');
  const where = `(() => { const a = document.activeElement; return a.closest('#main-content') ? 'main' : a.outerHTML.slice(0, 200); })()`;
  expect(await page.evaluate(where)).toBe('main');

  const nav = page.getByRole('navigation', { name: 'Main navigation' });
  for (const [link, heading] of [
    ['Imports', 'Imports'],
    ['Profile', 'Your account'],
    ['Contacts', 'Contacts'],
  ] as const) {
    await nav.getByRole('link', { name: link }).click();
    await expect(page.getByRole('heading', { level: 1, name: heading })).toBeFocused();
  }
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeFocused();

  // Into a record and out again: the contact's name, then the list.
  const [mine] = await listContacts(page);
  await nav.getByRole('link', { name: 'Contacts' }).click();
  await page.getByLabel('Search contacts').fill(`${mine.first_name} ${mine.last_name}`);
  await page
    .getByRole('link', { name: `${mine.last_name}, ${mine.first_name}` })
    .first()
    .click();
  await expect(page.getByRole('heading', { level: 1, name: `${mine.first_name} ${mine.last_name}` })).toBeFocused();
  await expect(page).toHaveTitle(`${mine.first_name} ${mine.last_name} · Contacts · Harbor`);
  await page.goBack();
  await expect(page.getByRole('heading', { level: 1, name: 'Contacts' })).toBeFocused();
  // api() is the page's own session: the agent is still signed in after all that.
  expect((await api<{ data: unknown[] }>(page, 'PATCH', '/v1/contacts', { limit: 1 })).data.length).toBe(1);
});
