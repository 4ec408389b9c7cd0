/**
 * Phone width (390 px) in both schemes: no screen pushes the page sideways; wide tables scroll inside their own box
 * or become cards, and axe-core finds no critical or serious violation at this width either. Each screen is photographed for a person to look at (test-results/screens/phone-*.png).
 */

import { axeFindings, listContacts, openScreen } from './a11y';
import { expect, type Page, test } from './fixtures';
import { field, fillTestCard, SHOTS, signIn } from './helpers';

// Browser globals of the code that runs inside the page (page.evaluate); this project compiles without the DOM lib.
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;
type Element = any;

// axe-core is injected as an inline script, which the app's Content Security Policy rightly refuses.
test.use({ viewport: { width: 390, height: 844 }, bypassCSP: true });

/** Elements reaching past the right edge that no horizontally scrolling box contains, and the page's own width. */
async function overflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const vw = document.documentElement.clientWidth;
    const out: string[] = [];
    if (document.documentElement.scrollWidth > vw + 1)
      out.push(`page is ${document.documentElement.scrollWidth}px wide`);
    const scrolls = (el: Element) => {
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        if (/(auto|scroll|hidden|clip)/.test(getComputedStyle(p).overflowX)) return true;
      }
      return false;
    };
    for (const el of Array.from(document.querySelectorAll('body *')) as Element[]) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0 || r.right <= vw + 1 || r.left >= vw) continue;
      if (getComputedStyle(el).position === 'fixed' || scrolls(el)) continue;
      const text = (el.textContent ?? '').trim().slice(0, 40);
      out.push(
        `${el.tagName.toLowerCase()}.${String(el.className).split(' ')[0]} "${text}" ends at ${Math.round(r.right)}px`,
      );
      if (out.length > 8) break;
    }
    return out;
  });
}

/** Sideways overflow, and what axe-core finds at this width too (the cards and the collapsed navigation). */
async function look(page: Page, found: string[], name: string) {
  const problems = await overflow(page);
  found.push(...problems.map((p) => `${name}: ${p}`));
  found.push(...(await axeFindings(page, name)));
  await page.screenshot({ path: `${SHOTS}/phone-${name}.png`, fullPage: true });
}

for (const scheme of ['light', 'dark'] as const) {
  test(`no screen overflows sideways at 390 px (${scheme})`, async ({ page }) => {
    test.setTimeout(300_000);
    await page.emulateMedia({ colorScheme: scheme });
    const found: string[] = [];
    await openScreen(page, '/login');
    await look(page, found, `login-${scheme}`);
    await signIn(page, 'admin@demo.harbor.test');
    await expect(page).toHaveURL(/\/$/);
    const [c] = await listContacts(page, { search: [{ field: 'state', value: ['FL'] }] });
    // An import of its own, so its result page has rows to show (not imported, created) whatever ran before.
    const csrf = (await page.context().cookies()).find((k) => k.name === 'csrf_token')?.value ?? '';
    const line = String(Date.now() % 10_000).padStart(4, '0');
    const started = await page.request.post('/v1/contacts/import', {
      headers: { 'x-csrf-token': csrf },
      multipart: {
        type: 'lead',
        fields: JSON.stringify({ 'First Name': 'first_name', 'Last Name': 'last_name', Phone: 'phone' }),
        file: {
          name: `phone-width-${scheme}.csv`,
          mimeType: 'text/csv',
          buffer: Buffer.from(`First Name,Last Name,Phone\nPia,Lund,(555) 730-${line}\nBad,Row,12345\n`),
        },
      },
    });
    expect(started.ok(), await started.text()).toBe(true);
    const attempt = (await started.json()) as { id: number };
    const screens: Array<[string, string]> = [
      ['/', 'dashboard'],
      ['/contacts', 'contacts'],
      [`/contacts/${c.number}`, 'contact'],
      [`/contacts/${c.number}?tab=holdings`, 'contact-policies'],
      [`/contacts/${c.number}?tab=more`, 'contact-more'],
      [`/contacts/${c.number}?tab=email`, 'contact-email'],
      ['/contacts/new', 'new-contact'],
      ['/contacts/transfers', 'transfers'],
      ['/contacts/imports', 'imports'],
      ['/contacts/imports/new', 'import-wizard'],
      [`/contacts/imports/${attempt.id}`, 'import-result'],
      ['/team', 'team'],
      ['/admin/users', 'admin-users'],
      ['/admin/feature-flags', 'admin-flags'],
      ['/admin/tags', 'admin-tags'],
      ['/admin/security-log', 'admin-security-log'],
      ['/admin/email-management', 'admin-email-templates'],
      ['/admin/email-management/new', 'admin-email-editor'],
      ['/admin/campaign-triggers', 'admin-campaign-triggers'],
      ['/account/profile', 'profile'],
      ['/account/profile?tab=preferences', 'preferences'],
      ['/no-such-page', 'not-found'],
    ];
    for (const [path, name] of screens) {
      await openScreen(page, path);
      await look(page, found, `${name}-${scheme}`);
    }
    await openScreen(page, '/contacts');
    await page.getByRole('button', { name: 'Filters', exact: true }).click();
    await look(page, found, `contacts-filters-${scheme}`);
    // The merge dialog: two duplicates side by side, from the list's cards.
    await openScreen(page, '/contacts?duplicates=1');
    const boxes = page.getByRole('list', { name: 'Contacts' }).getByRole('checkbox');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await page.getByRole('button', { name: 'Bulk actions' }).click();
    await page.getByRole('menuitem', { name: 'Merge duplicates' }).click();
    await expect(page.getByRole('table', { name: 'Records to merge' })).toBeVisible();
    await page.waitForTimeout(300); // the dialog's fade-in
    await look(page, found, `merge-${scheme}`);
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open navigation' }).click();
    await expect(page.getByRole('navigation', { name: 'Main navigation' })).toBeVisible();
    await look(page, found, `navigation-${scheme}`);
    expect(found).toEqual([]);
  });
}

test('the wallet at 390 px: the phone waits in the header, the top-up form is clear and transactions are cards', async ({
  page,
}) => {
  test.setTimeout(180_000);
  const found: string[] = [];
  // Angela has the dialer and a verified number: the softphone is hers.
  await signIn(page, 'agent@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  await openScreen(page, '/wallets');
  const header = page.getByRole('banner');
  await expect(header.getByRole('button', { name: 'Open the phone' })).toBeVisible();
  // Nothing floats over the page: the launcher lies inside the header's box, which content scrolls under.
  const inHeader = async () => {
    const phone = (await header.getByRole('button', { name: 'Open the phone' }).boundingBox())!;
    const bar = (await header.boundingBox())!;
    return phone.y >= bar.y && phone.y + phone.height <= bar.y + bar.height;
  };
  expect(await inHeader()).toBe(true);

  const form = page.getByRole('form', { name: 'Top up with a card' });
  await form.getByRole('button', { name: /^Pay/ }).scrollIntoViewIfNeeded();
  await field(page, 'Amount \\(USD\\)').fill('12.50');
  await field(page, 'Description').fill('Phone width top-up');
  await fillTestCard(page);
  await page.screenshot({ path: `${SHOTS}/phone-wallet-top-up.png` });
  await form.getByRole('button', { name: 'Pay $12.50' }).click();
  await expect(page.getByRole('heading', { name: 'Receipt' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^Paid$/ })).toBeVisible({ timeout: 45_000 });
  await page.getByRole('link', { name: 'Back to the wallet' }).click();

  // The transactions are cards, one a movement with its amount in view: no table to scroll sideways.
  const list = page.getByRole('list', { name: 'Wallet transactions' });
  await expect(list.getByRole('listitem').filter({ hasText: 'Phone width top-up' })).toBeVisible();
  await expect(list.getByText('+$12.50').first()).toBeVisible();
  await expect(page.getByRole('table', { name: 'Wallet transactions' })).toHaveCount(0);
  await look(page, found, 'wallet');
  await page.evaluate('window.scrollTo(0, 0)');
  await header.getByRole('button', { name: 'Open the phone' }).click();
  await expect(page.getByRole('dialog', { name: 'Phone' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/phone-wallet-phone-open.png` });
  await page.getByRole('button', { name: 'Close the phone' }).click();
  expect(await inHeader()).toBe(true);
  expect(found).toEqual([]);
});
