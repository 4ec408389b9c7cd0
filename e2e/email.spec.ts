/**
 * Email flows (issue 11): an admin builds a template and a campaign trigger; an agent previews and sends a broadcast
 * to a filtered selection with one opted-out recipient (the preview removes them, the record proves nothing went to
 * them); the recipient unsubscribes by one click; an agent emails one contact and sees the log entry.
 */
import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { SHOTS, signIn as signInForm } from './helpers';

async function signIn(page: Page, email: string) {
  await signInForm(page, email);
  await expect(page).toHaveURL(/\/$/);
}

/** A JSON call as the signed-in page makes it (session cookie and CSRF header). */
async function call<T>(page: Page, method: string, url: string, data?: unknown): Promise<T> {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const res = await page.request.fetch(url, { method, data, headers: { 'x-csrf-token': csrf } });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return (await res.json()) as T;
}

async function devMails(request: APIRequestContext, to: string) {
  const list = (await (await request.get('/v1/dev/mails')).json()) as {
    data: Array<{ id: number; to: string; subject: string }>;
  };
  return list.data.filter((m) => m.to === to);
}

test('an admin builds a template with the editor and a campaign trigger that sends it', async ({ page }) => {
  await signIn(page, 'admin@demo.harbor.test');
  await page.goto('/admin/email-management/new');
  await page.getByLabel(/^Name/).fill('Plan review invitation');
  await page.getByLabel(/^Subject/).fill('Time for your plan review, {{first_name}}');
  const editor = page.getByRole('textbox', { name: 'Message' });
  await editor.click();
  await editor.pressSequentially('Hello ');
  await page.getByRole('button', { name: 'First name', exact: true }).click();
  await editor.pressSequentially(', AEP opens October 15. Reply and we will find a time.');
  await page.getByRole('button', { name: 'Preview', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Time for your plan review, Mary' })).toBeVisible();
  await page.getByRole('button', { name: 'Save template' }).click();
  await expect(page.getByText('Saved.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\/email-management\/\d+$/);
  await page.screenshot({ path: `${SHOTS}/email-template-editor.png`, fullPage: true });

  await page.goto('/admin/campaign-triggers');
  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog', { name: 'New campaign trigger' });
  await dialog.getByLabel(/^Name/).fill('AEP plan review');
  await dialog.getByLabel('Emails it sends').click();
  await page.getByRole('option', { name: 'Plan review invitation' }).click();
  await dialog.getByLabel('Category').selectOption('medicare');
  await dialog.getByLabel('Reviewed as compliant (agents only see compliant triggers)').check();
  await page.screenshot({ path: `${SHOTS}/email-trigger-form.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Save trigger' }).click();
  await expect(page.getByRole('button', { name: 'AEP plan review' })).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/email-triggers.png`, fullPage: true });
});

test('an agent sends a broadcast to a filtered selection; the opted-out contact gets nothing; a recipient unsubscribes by one click', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000);
  await signIn(page, 'agent@demo.harbor.test');
  const template = await call<{ data: Array<{ id: number; name: string }> }>(page, 'GET', '/v1/contacts/emails');
  expect(template.data.length).toBeGreaterThan(0);
  const made: Array<{ id: number; number: number; email: string }> = [];
  for (const [first, email] of [
    ['Ada', 'ada.bcast@example.com'],
    ['Ben', 'ben.bcast@example.com'],
    ['Cal', 'cal.bcast@example.com'],
  ]) {
    const c = await call<{ id: number; number: number }>(page, 'POST', '/v1/contacts', {
      first_name: first,
      last_name: 'Broadcastson',
      email,
    });
    made.push({ ...c, email });
  }
  // Cal said "no more email" on a call: two clicks on his page.
  await page.goto(`/contacts/${made[2].number}`);
  await page.getByRole('button', { name: 'Record opt-out' }).click();
  await page.getByRole('menuitem', { name: 'Email' }).click();
  await expect(page.getByText('Recorded: no more email.')).toBeVisible();
  await expect(page.getByText('Email: Opted out')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/email-consent-card.png`, fullPage: true });

  await page.goto('/contacts?q=Broadcastson');
  await expect(page.getByText('Cal Broadcastson').or(page.getByText('Broadcastson, Cal')).first()).toBeVisible();
  await page.getByLabel('Select this page').check();
  await page.getByRole('button', { name: 'Bulk actions' }).click();
  await page.getByRole('menuitem', { name: 'Send email' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send email' });
  await dialog.getByLabel('What to send').selectOption({ label: `Email: ${template.data[0].name}` });
  await dialog.getByRole('button', { name: 'Preview recipients' }).click();
  await expect(dialog.getByText('2 of 3 will receive it.')).toBeVisible();
  await expect(dialog.getByText('Opted out: 1')).toBeVisible();
  await expect(dialog.getByText(/Cal Broadcastson \(opted out\)/)).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/email-broadcast-preview.png`, fullPage: true });
  await dialog.getByRole('button', { name: 'Send to 2 contacts' }).click();
  await expect(dialog.getByText(/Sent: 2 sent, 1 removed of 3\./)).toBeVisible({ timeout: 60_000 });
  await page.screenshot({ path: `${SHOTS}/email-broadcast-sent.png`, fullPage: true });

  // The record: Cal removed as opted out, and the mail server never saw anything for him.
  const list = await call<{ data: Array<{ id: number; title: string }> }>(page, 'GET', '/v1/broadcasts?channel=email');
  const removed = await call<{ data: Array<{ contact: { id: number }; reason: string }> }>(
    page,
    'GET',
    `/v1/broadcasts/${list.data[0].id}/recipients?status=removed`,
  );
  expect(removed.data).toEqual([
    expect.objectContaining({ contact: expect.objectContaining({ id: made[2].id }), reason: 'opted_out' }),
  ]);
  const admin = await browser.newContext();
  const adminPage = await admin.newPage();
  await signIn(adminPage, 'admin@demo.harbor.test');
  expect(await devMails(adminPage.request, 'cal.bcast@example.com')).toEqual([]);
  const [ada] = await devMails(adminPage.request, 'ada.bcast@example.com');
  expect(ada).toBeDefined();
  const mail = (await (await adminPage.request.get(`/v1/dev/mails/${ada.id}`)).json()) as { html: string };
  const link = /href="[^"]*(\/unsubscribe\/[A-Za-z0-9_.-]+)"/.exec(mail.html)?.[1];
  expect(link).toBeTruthy();
  await admin.close();

  // Ada, signed in nowhere, follows the link and stops everything in one click.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(link!);
  await expect(strangerPage.getByRole('heading', { name: 'Unsubscribe' })).toBeVisible();
  await strangerPage.getByRole('button', { name: /^All emails from/ }).click();
  await expect(strangerPage.getByText(/You will get no more email from/)).toBeVisible();
  await strangerPage.screenshot({ path: `${SHOTS}/email-unsubscribed.png`, fullPage: true });
  // The mail client's RFC 8058 one-click: no session, no CSRF, idempotent.
  const oneClick = await stranger.request.post(`/v1${link}`, {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    data: 'List-Unsubscribe=One-Click',
  });
  expect(oneClick.status()).toBe(200);
  await stranger.close();
  await page.goto(`/contacts/${made[0].number}`);
  await expect(page.getByText('Email: Opted out')).toBeVisible();
});

test('an agent emails one contact and sees the log entry', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, 'agent@demo.harbor.test');
  const c = await call<{ number: number }>(page, 'POST', '/v1/contacts', {
    first_name: 'Dora',
    last_name: 'Single',
    email: 'dora.single@example.com',
  });
  await page.goto(`/contacts/${c.number}?tab=email`);
  await page.getByLabel(/^Subject/).fill('Your Part D options');
  await page.getByLabel(/^Message/).fill('Hi Dora,\n\nI found two plans that cover your prescriptions.\n\nAngela');
  await page.getByRole('button', { name: 'Send email' }).click();
  await expect(page.getByText('Email queued to dora.single@example.com.')).toBeVisible();
  // The provider's 'delivered' event arrives by webhook a moment later: reload until the log shows it (waiting
  // for the page to render each time; counting right after a reload only ever saw the loading screen).
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole('list', { name: 'Email log' }).getByText('Delivered').first()).toBeVisible({
      timeout: 15_000,
    });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByRole('list', { name: 'Emails sent' }).getByText('Your Part D options')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/email-contact-log.png`, fullPage: true });
});
