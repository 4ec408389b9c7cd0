/**
 * Texting flows (issue 12): an agent texts a contact from the contact page, the loopback carrier delivers it to the
 * "be the phone" page, the contact replies and the reply appears live in the thread with its toast; a contact
 * replies "Por favor no me escriban más" and is opted out at once (one confirmation, the composer gone).
 */
import { expect, type Page, test } from '@playwright/test';
import { SHOTS, signIn as signInForm } from './helpers';

async function signIn(page: Page, email: string) {
  await signInForm(page, email);
  await expect(page).toHaveURL(/\/$/);
}

async function call<T>(page: Page, method: string, url: string, data?: unknown): Promise<T> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const res = await page.request.fetch(url, {
    method,
    data,
    headers: { 'x-csrf-token': csrf, 'idempotency-key': crypto.randomUUID() },
  });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

/** The agent's wallet, topped up by card through the loopback processor (texts are paid per segment). */
async function fundWallet(page: Page) {
  const pm = await call<{ id: string }>(page, 'POST', '/v1/wallets/payment_methods', {
    number: '4242424242424242',
    exp_month: 12,
    exp_year: new Date().getFullYear() + 3,
    cvc: '123',
  });
  await call(page, 'POST', '/v1/wallets/top_up', { amount: 2_000, payment_method_id: pm.id, description: 'Texting' });
}

test('an agent texts a contact and the reply appears live with its toast', async ({ page, context }) => {
  await signIn(page, 'agent@demo.harbor.test');
  await fundWallet(page);
  const contact = await call<{ id: number; number: number }>(page, 'POST', '/v1/contacts', {
    first_name: 'Rosa',
    last_name: 'Live',
    phone: '1-813-555-0142',
  });
  await page.goto(`/contacts/${contact.number}`);
  await page.getByRole('link', { name: 'Text', exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/sms\\?contact=${contact.id}`));
  await expect(page.getByRole('heading', { name: 'Rosa Live' })).toBeVisible();
  await page.getByLabel('Message').fill('Hi Rosa, this is Angela. Is Tuesday good for your plan review?');
  await expect(page.getByText('1 segment (GSM-7)')).toBeVisible();
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const log = page.getByRole('log', { name: 'Texts with Rosa Live' });
  await expect(log.getByText('Is Tuesday good for your plan review?')).toBeVisible();
  await expect(log.getByText(/Delivered/)).toBeVisible({ timeout: 15_000 });

  // Be the phone: the text arrived; reply from it.
  const phone = await context.newPage();
  await phone.goto('/dev/phone?number=18135550142');
  await expect(phone.getByRole('log').getByText('Is Tuesday good for your plan review?')).toBeVisible();
  await phone.getByLabel('Reply from this phone').fill('Yes, Tuesday at 10 works for me');
  await phone.getByRole('button', { name: 'Send reply' }).click();
  await expect(phone.getByRole('log').getByText('Yes, Tuesday at 10 works for me')).toBeVisible();
  await phone.screenshot({ path: `${SHOTS}/sms-dev-phone.png`, fullPage: true });

  await page.bringToFront();
  await expect(log.getByText('Yes, Tuesday at 10 works for me')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByText('New message from 1-813-555-0142')).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: `${SHOTS}/sms-inbox.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(log.getByText('Yes, Tuesday at 10 works for me')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sms-inbox-390.png`, fullPage: true });
  await page.getByRole('button', { name: 'All conversations' }).click();
  await expect(page.getByRole('navigation', { name: 'Conversations' }).getByText('Rosa Live')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sms-list-390.png`, fullPage: true });
});

test('a contact replies "Por favor no me escriban más" and is opted out', async ({ page, context }) => {
  await signIn(page, 'agent@demo.harbor.test');
  await fundWallet(page);
  const contact = await call<{ id: number; number: number }>(page, 'POST', '/v1/contacts', {
    first_name: 'Elena',
    last_name: 'Baja',
    phone: '1-813-555-0190',
  });
  await page.goto(`/sms?contact=${contact.id}`);
  await page.getByLabel('Message').fill('Hola Elena, ¿tiene un momento para revisar su plan?');
  await page.getByRole('button', { name: 'Send', exact: true }).click();
  const log = page.getByRole('log', { name: 'Texts with Elena Baja' });
  await expect(log.getByText('¿tiene un momento')).toBeVisible();

  const phone = await context.newPage();
  await phone.goto('/dev/phone?number=18135550190');
  await expect(phone.getByRole('log').getByText('¿tiene un momento')).toBeVisible({ timeout: 15_000 });
  await phone.getByLabel('Reply from this phone').fill('Por favor no me escriban más');
  await phone.getByRole('button', { name: 'Send reply' }).click();
  await expect(phone.getByRole('log').getByText(/You have been unsubscribed/)).toBeVisible({ timeout: 15_000 });

  await page.bringToFront();
  await expect(page.getByText('This contact opted out of texts.')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByLabel('Message')).toHaveCount(0);
  await expect(log.getByText(/Opted out/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sms-opted-out.png`, fullPage: true });
  await page.goto(`/contacts/${contact.number}`);
  await expect(page.getByText(/Opted out/).first()).toBeVisible();
});
