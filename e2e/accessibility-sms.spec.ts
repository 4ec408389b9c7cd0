/**
 * The texting screens (the inbox with a conversation open, the numbers dialog, "be the phone", the bulk text dialog)
 * under axe-core at 1280 and 390 px in both schemes: no critical or serious finding, and at phone width nothing
 * pushes the inbox sideways. Screenshots: test-results/screens/a11y-sms-*.png.
 */

import { api, check, showScreen, withOpen } from './a11y';
import { expect, type Page, test } from './fixtures';
import { signIn } from './helpers';

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
      test.use({ colorScheme: scheme, bypassCSP: true, viewport: { width, height: width === 390 ? 844 : 900 } });
      const tag = `${scheme}-${width}`;

      test('texting screens', async ({ page }) => {
        test.setTimeout(300_000);
        const found: string[] = [];
        await signIn(page, 'agent@demo.harbor.test');
        await expect(page).toHaveURL(/\/$/);
        const c = await api<{ id: number }>(page, 'POST', '/v1/contacts', {
          first_name: 'Axe',
          last_name: `Texter ${tag}`,
          phone: '1-813-555-0177',
        });
        await showScreen(page, '/sms');
        await check(page, found, `${tag} /sms`, `a11y-sms-inbox-${tag}`);
        await showScreen(page, `/sms?contact=${c.id}`);
        await expect(page.getByLabel('Message')).toBeVisible();
        await check(page, found, `${tag} /sms thread`, `a11y-sms-thread-${tag}`);
        if (width === 390) await sideways(page, found, `${tag} /sms thread`);
        await withOpen(page, found, `${tag} numbers dialog`, () =>
          page.getByRole('button', { name: 'Numbers' }).click(),
        );
        await showScreen(page, '/dev/phone?number=18135550177');
        await check(page, found, `${tag} /dev/phone`, `a11y-sms-dev-phone-${tag}`);
        if (width === 390) await sideways(page, found, `${tag} /dev/phone`);
        expect(found).toEqual([]);
      });
    });
  }
}
