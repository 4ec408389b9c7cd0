/**
 * The softphone on the embedded default (issue 13): no voice service is configured, so the panel says so and a dial
 * answers the server's reason; the keypad refuses a bad number with the spec's text; Recent and the contact's
 * Calls tab show their empty states. The real calls through the local voice lab are e2e/voice-lab.spec.ts.
 * Checked with axe at 1280 and 390 px; screenshots for a human to look at.
 */

import { check, listContacts } from './a11y';
import { expect, test } from './fixtures';
import { SHOTS, signIn } from './helpers';

// The page's own globals, read inside page.evaluate (the flows compile without the DOM library).
declare const document: { documentElement: { scrollWidth: number; clientWidth: number } };

test.use({ bypassCSP: true }); // axe-core is injected as an inline script, which the app's policy rightly refuses

for (const width of [1280, 390]) {
  test(`an agent opens the phone, sees why it cannot call yet, and the Calls tab (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 860 });
    await signIn(page, 'agent@demo.harbor.test');
    await expect(page).toHaveURL(/\/$/);
    const [contact] = (await listContacts(page)).filter((c) => c.phone);
    await page.goto(`/contacts/${contact.number}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

    // Click to call: the panel opens with the number, and the server's answer is shown.
    await page.getByRole('button', { name: 'Call', exact: true }).click();
    const phone = page.getByRole('dialog', { name: 'Phone' });
    await expect(phone).toBeVisible();
    // By its text: the recent calls' loader is a status too while they load.
    await expect(
      phone.getByRole('status').filter({ hasText: 'The voice service is not configured on this server' }),
    ).toBeVisible();
    // The server's 503 says the same as the notice: shown once.
    await expect(phone.getByRole('alert')).toHaveCount(0);
    await expect(phone.getByLabel('Number to call')).toHaveValue(contact.phone!);
    const found: string[] = [];
    await check(page, found, `phone ${width}`, `softphone-not-configured-${width}`);

    // The keypad: spec §5's text for a number too short, Reset, then the digits typed on the pad.
    await phone.getByRole('button', { name: 'Reset' }).click();
    for (const d of ['8', '1', '3', '5']) await phone.getByRole('button', { name: d, exact: true }).click();
    await expect(phone.getByLabel('Number to call')).toHaveValue('8135');
    await phone.getByRole('button', { name: 'Backspace' }).click();
    await expect(phone.getByLabel('Number to call')).toHaveValue('813');
    await phone.getByRole('button', { name: 'Call', exact: true }).click();
    await expect(phone.getByRole('alert')).toHaveText('Invlaid phone number');

    await phone.locator('label', { hasText: 'Recent' }).click();
    await expect(phone.getByText('No calls yet.')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/softphone-recent-${width}.png` });

    // Closed, the launcher stays; the contact's Calls tab has its empty state.
    await phone.getByRole('button', { name: 'Close the phone' }).click();
    await expect(page.getByRole('button', { name: 'Open the phone' })).toBeVisible();
    await page.getByRole('tab', { name: 'Calls' }).click();
    await expect(page).toHaveURL(/tab=calls/);
    await expect(page.getByText('No calls with this contact yet.')).toBeVisible();
    await check(page, found, `calls tab ${width}`, `contact-calls-tab-${width}`);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    expect(found).toEqual([]);
  });
}
