/**
 * Issue 15 and 8 in a real browser: the Content-Security-Policy lets every screen and the API docs run (no violation
 * report), and two-factor recovery codes are shown once, saved, and sign a person in when the phone is gone.
 */

import { generate } from 'otplib';
import { expect, type Page, test } from './fixtures';
import { field, SHOTS, signIn, signOut } from './helpers';

/** Collects every CSP violation Chromium reports on the page. */
function watchCsp(page: Page) {
  const violations: string[] = [];
  page.on('console', (msg) => {
    if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(msg.text())) {
      violations.push(`${page.url()}: ${msg.text()}`);
    }
  });
  return violations;
}

test('the security policy lets the app and the API docs run', async ({ page }) => {
  const violations = watchCsp(page);
  const res = await page.goto('/login');
  expect(res?.headers()['content-security-policy']).toContain("script-src 'self'");
  expect(res?.headers()['x-frame-options']).toBe('DENY');
  await signIn(page, 'admin@demo.harbor.test');
  await expect(page).toHaveURL(/\/$/);
  for (const path of ['/contacts', '/account/profile?tab=two_factor', '/admin/users', '/contacts/imports']) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
  }
  await page.goto('/v1/docs/');
  await expect(page.getByText('Harbor API').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/api-docs-under-csp.png` });
  expect(violations).toEqual([]);
});

test('recovery codes: shown once, downloadable, and they sign in without the phone', async ({ page }) => {
  const email = 'field_manager@demo.harbor.test';
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account/profile?tab=two_factor');
  await page.getByRole('button', { name: 'Set up two-factor' }).click();
  const secret = (await field(page, 'Secret key').textContent())!.trim();
  await field(page, 'Authentication code').fill(await generate({ secret }));
  await page.getByRole('button', { name: 'Turn on two-factor' }).click();

  const panel = page.getByRole('region', { name: 'Your recovery codes' });
  await expect(panel).toBeVisible();
  const codes = (await panel.locator('code').allTextContents()).map((c) => c.trim());
  expect(codes).toHaveLength(10);
  for (const c of codes) expect(c).toMatch(/^[2-9a-z]{4}-[2-9a-z]{4}-[2-9a-z]{4}$/);
  await page.screenshot({ path: `${SHOTS}/recovery-codes.png`, fullPage: true });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    panel.getByRole('button', { name: 'Download' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('harbor-recovery-codes.txt');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/recovery-codes-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await panel.getByRole('button', { name: 'I saved my codes' }).click();
  await expect(panel).toBeHidden();
  await expect(page.getByText('10 of 10 recovery codes left.')).toBeVisible();
  // The company does not require two-factor here, so it can be turned off.
  await expect(page.getByRole('button', { name: 'Turn off two-factor' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/two-factor-manage.png`, fullPage: true });
  await signOut(page, 'Fiona Park');

  // The phone is gone: a recovery code at the code step.
  await signIn(page, email);
  await expect(page.getByRole('form', { name: 'Two-factor authentication' })).toBeVisible();
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await field(page, 'Recovery code').fill(codes[0].toUpperCase());
  await page.screenshot({ path: `${SHOTS}/recovery-code-step.png` });
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/recovery-code-step-phone-dark.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/account/profile?tab=two_factor');
  await expect(page.getByText('9 of 10 recovery codes left.')).toBeVisible();

  // Used once: the same code no longer works.
  await signOut(page, 'Fiona Park');
  await signIn(page, email);
  await page.getByRole('button', { name: 'Use a recovery code' }).click();
  await field(page, 'Recovery code').fill(codes[0]);
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByText('is not one of your unused recovery codes')).toBeVisible();
});
