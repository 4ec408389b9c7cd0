/**
 * Issue 3 and 4 gaps in a browser: an agent uploads a profile photo (shown in the header) and picks favourites from
 * their team; an admin sees Signups and manages Office locations, picks a pool holder and an import owner from
 * pickers; an agent sees none of the admin tabs nor the owner picker. Screenshots go to test-results/ for a human.
 */
import { expect, type Page, test } from './fixtures';
import { SHOTS, signIn as signInForm } from './helpers';

// A 16x16 blue PNG, so the browser really renders the uploaded picture.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAFklEQVR4nGOQSzlBEmIY1TCqYfhqAADGmEoQckuN7wAAAABJRU5ErkJggg==',
  'base64',
);

async function signIn(page: Page, email: string) {
  await signInForm(page, email);
  await expect(page).toHaveURL(/\/$/);
}

test('an agent uploads a photo, sees it in the header, and picks favourites from their team', async ({ page }) => {
  await signIn(page, 'agent@demo.harbor.test');
  await page.goto('/account/profile');
  const photo = page.getByRole('region', { name: 'Photo' });
  await photo.locator('input[type="file"]').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
  await expect(photo.getByRole('img', { name: 'Your photo' })).toHaveAttribute('src', /\/v1\/users\/\d+\/photo\?v=/);
  const header = page.getByRole('button', { name: /User menu for/ }).locator('img');
  await expect(header).toHaveAttribute('src', /\/v1\/users\/\d+\/photo\?v=/);
  // The picture really loads (same company, signed in).
  await expect.poll(() => header.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth)).toBe(16);

  const logo = page.getByRole('region', { name: 'Logo' });
  await logo
    .locator('input[type="file"]')
    .setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from('%PDF-1.4 not an image') });
  await expect(logo.getByRole('alert')).toContainText('must be a PNG, JPEG, GIF or WebP image');
  await page.screenshot({ path: `${SHOTS}/finish-profile-photo.png`, fullPage: true });

  await page.getByRole('tab', { name: 'Favorites' }).click();
  const picker = page.getByRole('combobox', { name: 'Favorite users' });
  await picker.click();
  await picker.fill('rey');
  await page.getByRole('option', { name: 'Monica Reyes' }).click();
  await expect(page.getByText('Monica Reyes')).toBeVisible();
  await picker.fill('cole');
  await expect(page.getByText('Nobody found')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/finish-favourites.png`, fullPage: true });
  await page.reload();
  await expect(page.getByText('Monica Reyes')).toBeVisible();
});

test('an admin reads signups, manages offices, and picks a pool holder and an import owner', async ({ page }) => {
  await signIn(page, 'admin@demo.harbor.test');
  await page.goto('/admin/users');
  await page.getByRole('tab', { name: 'Signups' }).click();
  await expect(page).toHaveURL(/\/admin\/signups$/);
  await expect(page.getByRole('heading', { name: 'Signups' })).toBeVisible();

  await page.getByRole('tab', { name: 'Office locations' }).click();
  await expect(page.getByRole('table', { name: 'Office locations' }).getByText('Riverside Branch')).toBeVisible();
  await page.getByRole('button', { name: 'New office' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Office name').fill('Lakeside Branch');
  await dialog.getByLabel('ZIP code').fill('12');
  await dialog.getByRole('button', { name: 'Add office' }).click();
  await expect(dialog.getByText('is not a valid ZIP code')).toBeVisible();
  await dialog.getByLabel('ZIP code').fill('32801');
  await dialog.getByLabel('State').selectOption('FL');
  await dialog.getByRole('button', { name: 'Add office' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('table', { name: 'Office locations' }).getByText('Lakeside Branch')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/finish-office-locations.png`, fullPage: true });

  await page.getByRole('tab', { name: 'Pools' }).click();
  await page.getByLabel('New pool name').fill('E2E pool');
  await page.getByRole('button', { name: 'Add pool' }).click();
  const holder = page.getByRole('combobox', { name: 'Add holder to E2E pool' });
  await holder.click();
  await holder.fill('Angela');
  await page.getByRole('option', { name: /Angela Diaz/ }).click();
  await page
    .getByRole('row', { name: /E2E pool/ })
    .getByRole('button', { name: 'Add holder' })
    .click();
  await expect(page.getByRole('button', { name: 'Remove holder Angela Diaz from E2E pool' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/finish-pool-holder.png`, fullPage: true });

  await page.goto('/contacts/imports/new');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from('first_name,last_name\nIda,Moss\n') });
  const owner = page.getByRole('combobox', { name: 'Owner' });
  await owner.click();
  await owner.fill('Monica');
  await page.getByRole('option', { name: /Monica Reyes/ }).click();
  await expect(owner).toHaveValue(/Monica Reyes/);
  const pool = page.getByRole('combobox', { name: 'Pool' });
  await pool.click();
  await page.getByRole('option', { name: 'E2E pool' }).click();
  await page.screenshot({ path: `${SHOTS}/finish-import-pickers.png`, fullPage: true });
});

test('an agent sees no admin tabs and no owner picker', async ({ page }) => {
  await signIn(page, 'agent@demo.harbor.test');
  await page.goto('/contacts/imports/new');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: 'one.csv', mimeType: 'text/csv', buffer: Buffer.from('first_name,last_name\nIda,Moss\n') });
  await expect(page.getByLabel('Contact type')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Owner' })).toHaveCount(0);
  await page.goto('/contacts/new');
  await expect(page.getByLabel('First name')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Owner' })).toHaveCount(0);
  await page.goto('/admin/signups');
  await expect(page.getByRole('tab', { name: 'Signups' })).toHaveCount(0);
});
