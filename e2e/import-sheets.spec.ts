/**
 * Issue 8 in a browser: a LibreOffice workbook whose first sheet is a cover page. The wizard no longer ends at
 * "has a header row but no data rows": it shows the sheet picker on the sheet holding the list, the cover page can be
 * picked (and says why it cannot be imported) and the list picked again. Desktop and phone width, light and dark.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test } from './fixtures';
import { SHOTS, signIn } from './helpers';

const file = {
  name: 'libreoffice-cover.xlsx',
  mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  buffer: fs.readFileSync(
    path.join(import.meta.dirname, '../apps/server/src/modules/imports/fixtures/libreoffice-cover.xlsx'),
  ),
};

for (const [label, width, scheme] of [
  ['desktop-light', 1280, 'light'],
  ['phone-dark', 390, 'dark'],
] as const) {
  test(`a workbook with a cover page offers the sheet picker (${label})`, async ({ page }) => {
    await page.emulateMedia({ colorScheme: scheme });
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'admin@demo.harbor.test');
    await expect(page).not.toHaveURL(/\/login$/);
    await page.goto('/contacts/imports/new');
    await expect(page.getByRole('heading', { name: 'Import contacts' })).toBeVisible();
    await page.locator('input[type="file"]').setInputFiles(file);

    const picker = page.getByLabel('Sheet');
    await expect(picker).toHaveValue('Leads');
    await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
    await expect(page.getByLabel('Field for column Phone')).toHaveValue('phone');
    await page.screenshot({ path: `${SHOTS}/import-sheets-1-${label}.png`, fullPage: true });

    await picker.selectOption('Cover');
    await expect(page.getByRole('alert')).toContainText("Sheet 'Cover' of libreoffice-cover.xlsx holds no list");
    await expect(page.getByRole('table', { name: 'Column mapping' })).toBeHidden();
    await page.screenshot({ path: `${SHOTS}/import-sheets-2-${label}.png`, fullPage: true });

    await picker.selectOption('Leads');
    await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
    await page.getByRole('button', { name: 'Preview' }).click();
    const preview = page.getByLabel('Preview', { exact: true });
    await expect(preview.getByLabel('To create', { exact: true })).toHaveText('2');
    await expect(preview.getByLabel('To skip', { exact: true })).toHaveText('1');
  });
}
