import { expect, type Page } from '@playwright/test';

/** A form field by its exact label; Mantine appends ' *' to the accessible name of required fields. */
export const field = (page: Page, label: string) => page.getByLabel(new RegExp(`^${label}( \\*)?$`));

/** Our own card form (billing, wallet): the processor's test card that succeeds, expiring `expiry` (MM/YY). */
export async function fillTestCard(page: Page, expiry = '12/34') {
  await field(page, 'Card number').fill('4242 4242 4242 4242');
  await field(page, 'Expiry \\(MM/YY\\)').fill(expiry);
  await field(page, 'Security code').fill('123');
}

export const PASSWORD = 'harbor-demo-2026';
export const SHOTS = 'test-results/screens';
/** Now on the servers' clock of quiet hours (shifted to ~15:00 UTC by playwright.config.ts). */
export const clockNow = () => new Date(Date.now() + Number(process.env.E2E_CLOCK_OFFSET_MS ?? 0));

export async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.goto('/login');
  await field(page, 'Email or username').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function signOut(page: Page, name: string) {
  await page.getByRole('button', { name: `User menu for ${name}` }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
}

/** Reads the newest mail to `to` from the development inbox API (the page itself is exercised in its own flow). */
export async function latestMailTo(page: Page, to: string, subject: RegExp) {
  for (let i = 0; i < 50; i++) {
    const list = await (await page.request.get('/v1/dev/mails')).json();
    const hit = list.data.find((m: { to: string; subject: string }) => m.to.includes(to) && subject.test(m.subject));
    if (hit) return (await (await page.request.get(`/v1/dev/mails/${hit.id}`)).json()) as { text: string; id: number };
    await page.waitForTimeout(100);
  }
  throw new Error(`no mail to ${to} matching ${subject}`);
}
