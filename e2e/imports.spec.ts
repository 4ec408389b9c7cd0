/**
 * Issue 5 in a browser: an admin drops a CSV whose name columns are not recognised, fixes the mapping, tags the
 * list, previews, starts the import, watches the live progress, finds the attempt on the Imports page, and a second
 * preview of the same file shows every contact already in the book.
 */
import { expect, test } from './fixtures';
import { SHOTS, signIn } from './helpers';

// Unique to this run (emails and phones are what the import matches on), so a retried flow starts from scratch too.
const stamp = Date.now().toString(36);
const line = String((Date.now() % 9000) + 1000).padStart(4, '0');
const CSV = [
  'Given,Family,Mobile,Mail,Notes',
  `Ivy,Stone,(555) 610-${line},ivy.stone.${stamp}@example.com,called twice`,
  `Jack,Rowe,555.611.${line},jack.rowe.${stamp}@example.com,`,
  `Kira,Vance,+1 555 612 ${line},kira.vance.${stamp}@example.com,prefers email`,
  'Bad,Row,12345,not-an-email,',
].join('\n');
const file = { name: 'e2e-leads.csv', mimeType: 'text/csv', buffer: Buffer.from(CSV) };

test('import a list: fix the mapping, preview, import with live progress, find it again', async ({ page }) => {
  await signIn(page, 'admin@demo.harbor.test');
  await page.getByRole('navigation').getByRole('link', { name: 'Imports' }).click();
  await expect(page.getByRole('heading', { name: 'Imports' })).toBeVisible();
  await page.getByRole('link', { name: 'Import a list' }).click();

  await page.locator('input[type="file"]').setInputFiles(file);
  const mapping = page.getByRole('table', { name: 'Column mapping' });
  await expect(mapping).toBeVisible();
  // Phone and email are recognised; the name columns are not, so they would land in extra fields.
  await expect(page.getByLabel('Field for column Mobile')).toHaveValue('phone');
  await expect(page.getByLabel('Field for column Given')).toHaveValue('extra');
  await page.screenshot({ path: `${SHOTS}/import-1-wrong-mapping.png`, fullPage: true });
  await page.getByLabel('Field for column Given').selectOption('first_name');
  await page.getByLabel('Field for column Family').selectOption('last_name');

  const tags = page.getByRole('combobox', { name: 'Tags', exact: true });
  await tags.fill('E2E list');
  await tags.press('Enter');
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByLabel('Preview', { exact: true });
  await expect(preview.getByLabel('To create', { exact: true })).toHaveText('3');
  await expect(preview.getByLabel('Invalid', { exact: true })).toHaveText('1');
  await expect(page.getByRole('table', { name: 'Invalid rows' })).toContainText('is not a US phone number');
  await page.screenshot({ path: `${SHOTS}/import-2-preview.png`, fullPage: true });

  await page.getByRole('button', { name: 'Start import' }).click();
  // The import's own result page: figures, and the invalid row with its reason.
  await expect(page).toHaveURL(/\/contacts\/imports\/\d+$/);
  const note = page.getByRole('status', { name: 'Process notification' });
  await expect(note).toContainText('Imported e2e-leads.csv: 3 created, 0 updated, 0 skipped, 1 invalid');
  await expect(note.getByRole('link', { name: 'View the result' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Rows not imported' })).toContainText('is not a US phone number');
  await page.getByRole('link', { name: '← All imports' }).click();
  const row = page.getByRole('row', { name: 'Import e2e-leads.csv' });
  await expect(row).toContainText('Completed');
  await page.screenshot({ path: `${SHOTS}/import-3-done.png`, fullPage: true });

  // The contacts are in the book now: the same file matches all three, with nothing new for them.
  await page.getByRole('link', { name: 'Import a list' }).click();
  await page.locator('input[type="file"]').setInputFiles(file);
  await page.getByLabel('Field for column Given').selectOption('first_name');
  await page.getByLabel('Field for column Family').selectOption('last_name');
  await page.getByRole('button', { name: 'Preview' }).click();
  await expect(page.getByLabel('Preview', { exact: true }).getByLabel('Unchanged', { exact: true })).toHaveText('3');
  await expect(page.getByLabel('Preview', { exact: true }).getByLabel('To update', { exact: true })).toHaveText('0');
  await expect(page.getByLabel('Preview', { exact: true }).getByLabel('To create', { exact: true })).toHaveText('0');

  // And the list finds them, with the tag the import gave them.
  await page.getByRole('navigation').getByRole('link', { name: 'Contacts' }).click();
  await page.getByLabel('Search contacts').fill(`ivy.stone.${stamp}`);
  const ivy = page.getByRole('row', { name: /Ivy/ });
  await expect(ivy).toBeVisible();
  await expect(ivy).toContainText('Stone');
  await expect(ivy).toContainText('E2E list');
  await page.screenshot({ path: `${SHOTS}/import-4-in-the-book.png`, fullPage: true });
});
