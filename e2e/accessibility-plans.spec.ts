/**
 * The plan screens (texting and dialer, for agents, managers and admins) under axe-core at desktop (1280 px) and
 * phone (390 px) width, in both schemes, with their dialogs open: no critical or serious finding, and at phone
 * width nothing pushes the page sideways. Screenshots: test-results/screens/a11y-plans-*.png.
 */

import { check, showScreen, withOpen } from './a11y';
import { expect, type Page, test } from './fixtures';
import { signIn, signOut } from './helpers';

// Browser globals of the code that runs inside the page; this project compiles without the DOM lib.
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

async function sideways(page: Page, found: string[], where: string) {
  const { scroll, client } = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    client: document.documentElement.clientWidth,
  }));
  if (scroll > client + 1) found.push(`${where}: the page is ${scroll}px wide in a ${client}px window`);
}

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 390] as const) {
    test.describe(`${scheme} scheme, ${width} px`, () => {
      // axe-core is injected as an inline script, which the app's Content Security Policy rightly refuses.
      test.use({ colorScheme: scheme, bypassCSP: true, viewport: { width, height: width === 390 ? 844 : 900 } });
      const tag = `${scheme}-${width}`;

      test('plan screens of an admin, a manager and an agent', async ({ page }) => {
        test.setTimeout(600_000);
        const found: string[] = [];
        const look = async (path: string, shot?: string) => {
          await showScreen(page, path);
          await expect(page.getByRole('tab').first()).toBeVisible();
          await check(page, found, `${tag} ${path}`, shot ? `a11y-plans-${shot}-${tag}` : undefined);
          if (width === 390) await sideways(page, found, `${tag} ${path}`);
        };

        await signIn(page, 'admin@demo.harbor.test');
        await expect(page).toHaveURL(/\/$/);
        for (const product of ['sms', 'dialer']) {
          await look(`/admin/plans/${product}`, product === 'sms' ? 'admin-catalog' : undefined);
          for (const tab of ['subscriptions', 'orders', 'usage']) {
            await look(`/admin/plans/${product}?tab=${tab}`, product === 'sms' ? `admin-${tab}` : undefined);
          }
        }
        await showScreen(page, '/admin/plans/sms');
        await withOpen(page, found, `${tag} new plan dialog`, () =>
          page.getByRole('button', { name: 'New plan' }).click(),
        );
        await withOpen(page, found, `${tag} delete plan question`, () =>
          page
            .getByRole('button', { name: /^Delete plan/ })
            .first()
            .click(),
        );
        await showScreen(page, '/admin/plans/sms?tab=subscriptions');
        await withOpen(page, found, `${tag} prepare dialog`, () =>
          page.getByRole('button', { name: 'Prepare a subscription' }).click(),
        );
        await withOpen(page, found, `${tag} admin cancel dialog`, () =>
          page
            .getByRole('button', { name: /^Cancel .* of Monica Reyes/ })
            .first()
            .click(),
        );
        await showScreen(page, '/admin/plans/sms?tab=orders');
        await withOpen(page, found, `${tag} refund question`, () =>
          page
            .getByRole('button', { name: /^Refund order/ })
            .first()
            .click(),
        );
        await signOut(page, 'Alicia Grant');

        await signIn(page, 'manager@demo.harbor.test');
        await expect(page).toHaveURL(/\/$/);
        for (const product of ['sms', 'dialer']) {
          for (const tab of ['', '?tab=subscriptions', '?tab=licences', '?tab=orders']) {
            const name = product === 'dialer' ? `manager-${tab.replace('?tab=', '') || 'overview'}` : undefined;
            await look(`/plans/${product}${tab}`, name);
          }
        }
        await showScreen(page, '/plans/dialer');
        await withOpen(page, found, `${tag} subscribe dialog`, async () => {
          await page
            .getByRole('button', { name: /^Subscribe to / })
            .first()
            .click();
          await page.getByRole('dialog').getByText('My team', { exact: true }).click();
        });
        await showScreen(page, '/plans/dialer?tab=licences');
        await withOpen(page, found, `${tag} buy licences dialog`, () =>
          page.getByRole('button', { name: 'Buy more licences' }).first().click(),
        );
        await withOpen(page, found, `${tag} holder picker`, () =>
          page
            .getByLabel(/^Holder of free seat/)
            .first()
            .click(),
        );
        await showScreen(page, '/plans/dialer?tab=subscriptions');
        await withOpen(page, found, `${tag} cancel dialog`, () =>
          page.getByRole('button', { name: /^Cancel Dialer Standard of Monica Reyes/ }).click(),
        );
        await signOut(page, 'Monica Reyes');

        await signIn(page, 'agent@demo.harbor.test');
        await expect(page).toHaveURL(/\/$/);
        await look('/plans/sms', 'agent-overview');
        await look('/plans/dialer?tab=licences');
        expect(found).toEqual([]);
      });
    });
  }
}
