/**
 * Texting flows (issue 12): an agent texts a contact from the contact page, the loopback carrier delivers it to the
 * "be the phone" page, the contact replies and the reply appears live in the thread with its toast; a contact
 * replies "Por favor no me escriban más" and is opted out at once (one confirmation, the composer gone).
 */
import { expect, type Page, test } from './fixtures';
import { clockNow, SHOTS, signIn as signInForm } from './helpers';

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

/** A state whose local time is in quiet hours (9 p.m. to 8 a.m.) right now, if any. */
function quietState(): string | null {
  const zones: Array<[string, string]> = [
    ['FL', 'America/New_York'],
    ['TX', 'America/Chicago'],
    ['CO', 'America/Denver'],
    ['CA', 'America/Los_Angeles'],
    ['HI', 'Pacific/Honolulu'],
  ];
  for (const [state, zone] of zones) {
    const h = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(clockNow()),
    );
    if (h >= 21 || h < 8) return state;
  }
  return null;
}
function awakeState(): string | null {
  for (const [state, zone] of [
    ['CA', 'America/Los_Angeles'],
    ['HI', 'Pacific/Honolulu'],
    ['FL', 'America/New_York'],
    ['TX', 'America/Chicago'],
  ]) {
    const h = Number(
      new Intl.DateTimeFormat('en-US', { timeZone: zone, hour: 'numeric', hourCycle: 'h23' }).format(clockNow()),
    );
    if (h >= 8 && h < 21) return state;
  }
  return null;
}

test('the text broadcast preview removes an opted-out contact and a landline, holds quiet hours, and shows the cost', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // The servers' quiet-hours clock reads ~15:00 UTC (playwright.config.ts): Florida awake, Hawaii asleep, whenever
  // this runs (in real time every US zone sleeps from ~07:00 to 12:00 UTC).
  const awake = awakeState();
  if (awake === null) throw new Error(`no US zone is awake at ${clockNow().toISOString()} on the servers' clock`);
  await signIn(page, 'agent@demo.harbor.test');
  await fundWallet(page);
  const asleep = quietState();
  const people: Array<[string, string, string, 'allowed' | 'opted_out']> = [
    ['Ada', '1-415-555-0121', awake, 'allowed'],
    ['Ben', '1-415-555-0122', awake, 'opted_out'],
    ['Cal', '1-415-555-9123', awake, 'allowed'],
    ...(asleep ? ([['Dee', '1-415-555-0124', asleep, 'allowed']] as Array<[string, string, string, 'allowed']>) : []),
  ];
  for (const [first, phone, state, status] of people) {
    const c = await call<{ id: number }>(page, 'POST', '/v1/contacts', {
      first_name: first,
      last_name: 'Textcast',
      phone,
      state,
    });
    await call(page, 'POST', '/v1/sms/update_permission', {
      contact_id: c.id,
      status: 'allowed',
      detail: 'Signed the texting form',
    });
    if (status === 'opted_out') await call(page, 'POST', '/v1/sms/update_permission', { contact_id: c.id, status });
  }
  // Cal's number was looked up: a landline.
  await call(page, 'POST', '/v1/sms/mobile_validation_single', { phone: '1-415-555-9123' });

  await page.goto('/contacts?q=Textcast');
  await expect(page.getByText('Cal Textcast').or(page.getByText('Textcast, Cal')).first()).toBeVisible();
  await page.getByLabel('Select this page').check();
  await page.getByRole('button', { name: 'Bulk actions' }).click();
  await page.getByRole('menuitem', { name: 'Send text' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send text' });
  await dialog.getByLabel('Text').fill('AEP opens October 15. Reply to book a review. Reply STOP to opt out.');
  await dialog.getByRole('button', { name: 'Preview recipients' }).click();
  const receive = asleep ? 2 : 1;
  await expect(dialog.getByText(`${receive} of ${people.length} will receive it.`)).toBeVisible();
  await expect(dialog.getByText('Opted out: 1')).toBeVisible();
  await expect(dialog.getByText('Landline or invalid number: 1')).toBeVisible();
  if (asleep) await expect(dialog.getByText(/In quiet hours where they are now: 1/)).toBeVisible();
  await expect(dialog.getByText(new RegExp(`Cost: ${receive} × 1 segment`))).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/sms-broadcast-preview.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SHOTS}/sms-broadcast-preview-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await dialog.getByRole('button', { name: `Send to ${receive} contact${receive === 1 ? '' : 's'}` }).click();
  await expect(dialog.getByText(/1 sent, 1 removed/)).toBeVisible({ timeout: 60_000 });
});
