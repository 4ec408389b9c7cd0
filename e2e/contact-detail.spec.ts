/**
 * Contact detail flows (issue 4): an agent creates a contact, opens it, adds a note, a policy and a file, and sees
 * them on the timeline; an admin manages a status. Screenshots go to test-results/ for a human to look at.
 */
import { expect, type Page, test } from './fixtures';
import { SHOTS, signIn as signInForm } from './helpers';

async function signIn(page: Page, email: string) {
  await signInForm(page, email);
  await expect(page).toHaveURL(/\/$/);
}

test('an agent creates a contact and adds a note, a policy and a file', async ({ page }) => {
  await signIn(page, 'agent@demo.harbor.test');
  await page.goto('/contacts/new');
  await page.getByLabel('First name').fill('Eleanor');
  await page.getByLabel('Last name').fill('Vance');
  await page.getByLabel('Phone', { exact: true }).fill('5025550188');
  await page.getByLabel('Date of birth').fill('1960-05-14');
  await page.getByLabel('State').selectOption('KY');
  await page.getByRole('button', { name: 'Create contact' }).click();
  await expect(page).toHaveURL(/\/contacts\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Eleanor Vance' })).toBeVisible();
  await expect(page.getByText('1-502-555-0188')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/contact-detail-header.png`, fullPage: true });

  await page.getByRole('tab', { name: 'Notes' }).click();
  await page.getByLabel('New note').fill('Asked about Medigap Plan G for next year.');
  await page.getByRole('button', { name: 'Add note' }).click();
  await expect(page.getByText('Asked about Medigap Plan G for next year.')).toBeVisible();
  // A second note, deleted: the first click only asks; Cancel keeps it; the confirm removes it.
  await expect(page.getByLabel('New note')).toHaveValue('');
  await page.getByLabel('New note').fill('Wrong contact, delete me.');
  await page.getByRole('button', { name: 'Add note' }).click();
  const doomed = page.getByText('Wrong contact, delete me.');
  await expect(doomed).toBeVisible();
  const deleteButtons = page.getByRole('button', { name: /^Delete note \d+$/ });
  await expect(deleteButtons).toHaveCount(2);
  // Newest first: the note just added is the first one listed.
  await deleteButtons.first().click();
  const ask = page.getByRole('dialog', { name: /^Delete note/ });
  await expect(ask).toContainText('This cannot be undone.');
  await page.screenshot({ path: `${SHOTS}/contact-detail-confirm-delete.png` });
  await ask.getByRole('button', { name: 'Cancel' }).click();
  await expect(doomed).toBeVisible();
  await deleteButtons.first().click();
  await page
    .getByRole('dialog', { name: /^Delete note/ })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(doomed).toHaveCount(0);
  await expect(page.getByText('Asked about Medigap Plan G for next year.')).toBeVisible();

  await page.getByRole('tab', { name: 'Policies & securities' }).click();
  await page.getByLabel('Carrier').selectOption({ label: 'Humana' });
  await page.getByLabel('Product').selectOption('medigap');
  await page.getByLabel('Plan name').fill('Plan G');
  await page.getByLabel('Monthly premium (USD)').fill('142.50');
  await page.getByRole('button', { name: 'Add policy' }).click();
  await expect(page.getByRole('table', { name: 'Policies' }).getByText('$142.50')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/contact-detail-policies.png`, fullPage: true });

  await page.getByRole('tab', { name: 'Files' }).click();
  await page
    .getByLabel('Upload a file')
    .setInputFiles({ name: 'soa.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4\n%%EOF\n') });
  await expect(page.getByRole('link', { name: 'soa.pdf' })).toBeVisible();
  await page
    .getByLabel('Upload a file')
    .setInputFiles({ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('not a pdf') });
  await expect(page.getByRole('alert')).toContainText('content is not a valid .pdf file');
  await page.screenshot({ path: `${SHOTS}/contact-detail-files.png`, fullPage: true });

  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByText('file uploaded')).toBeVisible();
  await expect(page.getByText('policy added')).toBeVisible();
  await expect(page.getByText('note added').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/contact-detail-timeline.png`, fullPage: true });
});

test('an admin adds a status and sees the agent-flow groups', async ({ page }) => {
  await signIn(page, 'admin@demo.harbor.test');
  await page.goto('/admin/statuses');
  await page.getByLabel('New status name').fill('Callback Requested');
  await page.getByRole('button', { name: 'Add status' }).click();
  await expect(page.getByLabel('Name of Callback Requested')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-statuses.png`, fullPage: true });
  await page.getByRole('tab', { name: 'Agent-flow statuses' }).click();
  await expect(page.getByRole('textbox', { name: 'Group 1' })).toHaveValue('Prospecting');
  await page.getByRole('tab', { name: 'Pools' }).click();
  await expect(page.getByRole('cell', { name: 'Shared Leads', exact: true })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/admin-pools.png`, fullPage: true });
});
