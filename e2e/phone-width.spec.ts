/**
 * Phone width (390 px) in both schemes: no screen pushes the page sideways; wide tables scroll inside their own box
 * or become cards. Each screen is photographed for a person to look at (test-results/screens/phone-*.png).
 */
import { expect, type Page, test } from '@playwright/test';
import { api, listContacts, openScreen } from './a11y';
import { SHOTS, signIn } from './helpers';

// Browser globals of the code that runs inside the page (page.evaluate); this project compiles without the DOM lib.
declare const document: any;
declare const window: any;
declare const getComputedStyle: any;
type Element = any;

test.use({ viewport: { width: 390, height: 844 } });

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

async function look(page: Page, found: string[], name: string) {
  const problems = await overflow(page);
  found.push(...problems.map((p) => `${name}: ${p}`));
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
    const imports = await api<{ data: Array<{ id: number }> }>(page, 'GET', '/v1/contacts/import_attempts');
    const screens: Array<[string, string]> = [
      ['/', 'dashboard'],
      ['/contacts', 'contacts'],
      [`/contacts/${c.number}`, 'contact'],
      [`/contacts/${c.number}?tab=holdings`, 'contact-policies'],
      [`/contacts/${c.number}?tab=more`, 'contact-more'],
      ['/contacts/new', 'new-contact'],
      ['/contacts/transfers', 'transfers'],
      ['/contacts/imports', 'imports'],
      ['/contacts/imports/new', 'import-wizard'],
      [`/contacts/imports/${imports.data[0]?.id}`, 'import-result'],
      ['/team', 'team'],
      ['/admin/users', 'admin-users'],
      ['/admin/feature-flags', 'admin-flags'],
      ['/admin/tags', 'admin-tags'],
      ['/admin/security-log', 'admin-security-log'],
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
