/**
 * Calendar, follow-ups and scope of appointment (issue 14), as people do them: an agent books a follow-up from a
 * contact and finds it in today's queue; a manager opens a downline agent's week; a beneficiary signs an SOA on the
 * public page, and the agent's appointment inside 48 hours is refused, then allowed once the clock has moved on; the
 * "turning 65" quick filter lists the right contacts. Screens are checked with axe and photographed (desktop and
 * 390 px, light and dark) into test-results/screens/calendar-*.png.
 */

import { TIME_ZONE_IANA, type TimeZone } from '../packages/shared/src/options';
import { api, axeFindings, openScreen } from './a11y';
import { expect, type Page, test } from './fixtures';
import { SHOTS, signIn as signInForm } from './helpers';

// Browser globals of the code that runs inside the page (page.evaluate); this project compiles without the DOM lib.
declare const document: any;

// axe-core is injected as a script of its own, which the app's Content-Security-Policy (rightly) refuses; the
// policy itself is checked in security.spec.ts.
test.use({ bypassCSP: true });

async function signIn(page: Page, email: string) {
  await signInForm(page, email);
  await expect(page).toHaveURL(/\/$/);
}

interface Created {
  id: number;
  number: number;
}
const newContact = (page: Page, body: Record<string, unknown>) => api<Created>(page, 'POST', '/v1/contacts', body);

/** YYYY-MM-DD of a Date in UTC. */
const ymd = (d: Date) => d.toISOString().slice(0, 10);
/** The date of birth of someone whose 65th birthday is `days` from now. */
const dobTurning65In = (days: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCFullYear(d.getUTCFullYear() - 65);
  return ymd(d);
};

test('an agent books a follow-up from a contact and sees it in today’s queue', async ({ page }) => {
  await signIn(page, 'agent@demo.harbor.test');
  const c = await newContact(page, { first_name: 'Queue', last_name: 'Tester', date_of_birth: '1961-04-03' });
  await page.goto(`/contacts/${c.number}?tab=calendar`);
  await expect(page.getByText('Turns 65:')).toBeVisible();
  await page.getByRole('button', { name: 'Book follow-up' }).click();
  const dialog = page.getByRole('dialog', { name: 'New event' });
  await dialog.getByLabel('Title').fill('Call Queue about the quote');
  // Due now (in the agent's time zone, Eastern): certainly today's.
  const now = await page.evaluate(() =>
    new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'America/New_York',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    })
      .format(new Date())
      .replace(' ', 'T'),
  );
  await dialog.getByLabel('Starts').fill(now);
  await dialog.getByLabel('Ends').fill(now);
  await page.screenshot({ path: `${SHOTS}/calendar-book-follow-up.png` });
  await dialog.getByRole('button', { name: 'Save event' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Call Queue about the quote' })).toBeVisible();

  await page.goto('/');
  const queue = page.getByRole('region', { name: /Today.s follow-ups/ });
  await expect(queue.getByText('Call Queue about the quote')).toBeVisible();
  // The seeded call back from yesterday is overdue, so it comes first.
  await expect(queue.getByText('Overdue').first()).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/calendar-today-queue.png`, fullPage: true });
  await page.getByRole('button', { name: 'Mark Call Queue about the quote done' }).click();
  await expect(queue.getByText('Call Queue about the quote')).toBeHidden();
  // The timeline of the contact tells the story.
  await page.goto(`/contacts/${c.number}?tab=timeline`);
  await expect(page.getByText(/event created/i).first()).toBeVisible();
});

test('a manager views a downline agent’s week', async ({ page }) => {
  await signIn(page, 'manager@demo.harbor.test');
  const agents = await api<{ data: Array<{ id: number; name: string }> }>(page, 'GET', '/v1/admin/users/owners');
  const angela = agents.data.find((u) => u.name === 'Angela Diaz')!;
  await openScreen(page, '/calendar');
  await page.getByRole('combobox', { name: 'Calendar of' }).click();
  await page.getByRole('option', { name: /Angela Diaz/ }).click();
  await expect(page).toHaveURL(new RegExp(`user=${angela.id}`));
  // The seeded "Team meeting" is three days after the demo was seeded: go to its week.
  const start = new Date(Date.now() - 7 * 86_400_000);
  const end = new Date(Date.now() + 7 * 86_400_000);
  const us = (d: Date) => `${ymd(d).slice(5, 7)}/${ymd(d).slice(8)}/${ymd(d).slice(0, 4)}`;
  const list = await api<{ data: Array<{ title: string; start_at: string }> }>(
    page,
    'GET',
    `/v1/events?start_date=${us(start)}&end_date=${us(end)}&downline_user_id=${angela.id}&types_list=meeting`,
  );
  const meeting = list.data[0];
  expect(meeting, 'the seeded team meeting').toBeDefined();
  // The calendar shows days in the viewer's time zone: the meeting's day there, not in UTC (a meeting seeded at
  // 02:00 UTC is on the evening before in New York, possibly in the week before).
  const me = await api<{ timezone: TimeZone | null }>(page, 'GET', '/v1/users/me');
  const day = new Intl.DateTimeFormat('en-CA', { timeZone: TIME_ZONE_IANA[me.timezone ?? 'est'] }).format(
    new Date(meeting.start_at),
  );
  await page.goto(`/calendar?user=${angela.id}&date=${day}`);
  await expect(page.getByRole('button', { name: /Team meeting, Meeting/ })).toBeVisible();
  expect(await axeFindings(page, 'calendar week (manager)')).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/calendar-manager-week.png`, fullPage: true });
});

test('a beneficiary signs an SOA; an appointment inside 48 hours is refused, then allowed', async ({
  page,
  browser,
}) => {
  await signIn(page, 'agent@demo.harbor.test');
  const c = await newContact(page, { first_name: 'Sofia', last_name: 'Ramirez', email: 'sofia.r@example.com' });
  await page.goto(`/contacts/${c.number}?tab=calendar`);
  await page.getByRole('button', { name: 'Send scope of appointment' }).click();
  const send = page.getByRole('dialog', { name: 'Send a scope of appointment' });
  await send.getByRole('button', { name: 'Send' }).click();
  const link = await send.getByLabel('Signing link').inputValue();
  expect(link).toMatch(/\/soa\/demo\.harbor\.test\/[\w-]{40,}$/);
  await send.getByRole('button', { name: 'Done' }).click();

  // The beneficiary, in a browser of their own.
  const beneficiary = await (await browser.newContext()).newPage();
  await beneficiary.goto(link);
  await expect(beneficiary.getByText('Angela Diaz', { exact: false })).toBeVisible();
  await expect(beneficiary.getByText('Harbor Demo Insurance')).toHaveCount(0);
  await beneficiary.getByRole('button', { name: 'Sign and send' }).click();
  await expect(beneficiary.getByText('Pick at least one product to discuss.')).toBeVisible();
  await beneficiary.getByLabel('Medicare Advantage (Part C) and cost plans').check();
  await beneficiary.getByLabel('Your full name').fill('Sofia Ramirez');
  const pad = beneficiary.getByRole('img', { name: 'Your signature' });
  const box = (await pad.boundingBox())!;
  await beneficiary.mouse.move(box.x + 20, box.y + 100);
  await beneficiary.mouse.down();
  for (let i = 1; i <= 12; i++) await beneficiary.mouse.move(box.x + 20 + i * 18, box.y + 100 - (i % 2) * 40);
  await beneficiary.mouse.up();
  expect(await axeFindings(beneficiary, 'public SOA page')).toEqual([]);
  await beneficiary.screenshot({ path: `${SHOTS}/calendar-public-soa.png`, fullPage: true });
  await beneficiary.getByRole('button', { name: 'Sign and send' }).click();
  await expect(beneficiary.getByText(/was signed and sent to Angela Diaz/)).toBeVisible();
  await beneficiary.screenshot({ path: `${SHOTS}/calendar-public-soa-signed.png` });
  await beneficiary.context().close();

  // The agent books the Medicare Advantage appointment for the next quarter hour: refused, with the reason.
  const book = async () => {
    await page.goto(`/contacts/${c.number}?tab=calendar`);
    await page.getByRole('button', { name: 'New appointment' }).click();
    const dialog = page.getByRole('dialog', { name: 'New event' });
    await dialog.getByRole('combobox', { name: 'Products to discuss' }).click();
    await page.getByRole('option', { name: 'Medicare Advantage (Part C) and cost plans' }).click();
    await dialog.getByLabel('Title').click();
    await dialog.getByRole('button', { name: 'Save event' }).click();
    return dialog;
  };
  const refused = await book();
  await expect(refused.getByRole('alert')).toContainText('at least 48 hours after the scope of appointment was signed');
  await expect(refused.getByRole('alert')).toContainText('The earliest start allowed is');
  await page.screenshot({ path: `${SHOTS}/calendar-soa-refused.png` });
  await refused.getByRole('button', { name: 'Cancel' }).click();

  // Two days later (the browser's clock moved on 48.5 hours): the same booking goes through.
  await page.clock.setSystemTime(new Date(Date.now() + 48.5 * 3_600_000));
  const allowed = await book();
  await expect(allowed).toBeHidden();
  await expect(page.getByRole('button', { name: 'Appointment with Sofia Ramirez' })).toBeVisible();

  await openScreen(page, '/soa-requests');
  await expect(page.getByRole('button', { name: 'Sofia Ramirez' })).toBeVisible();
  await page.getByRole('button', { name: 'Sofia Ramirez' }).click();
  await expect(page.getByRole('img', { name: 'Drawn signature of Sofia Ramirez' })).toBeVisible();
  expect(await axeFindings(page, 'SOA requests')).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/calendar-soa-list.png`, fullPage: true });
});

test('the "turning 65" quick filter lists the right contacts', async ({ page }) => {
  await signIn(page, 'agent@demo.harbor.test');
  await newContact(page, { first_name: 'Sixtyfive', last_name: 'Soon', date_of_birth: dobTurning65In(30) });
  await newContact(page, { first_name: 'Sixtyfive', last_name: 'Later', date_of_birth: dobTurning65In(200) });
  await newContact(page, { first_name: 'Sixtyfive', last_name: 'Past', date_of_birth: dobTurning65In(-20) });
  await openScreen(page, '/contacts?q=sixtyfive');
  await expect(page.getByText('Later, Sixtyfive')).toBeVisible();
  await page.getByRole('button', { name: 'Quick filters' }).click();
  await page.getByRole('menuitem', { name: 'Turning 65 in the next 90 days' }).click();
  await expect(page).toHaveURL(/turning_65_within=90/);
  await expect(page.getByText('Soon, Sixtyfive')).toBeVisible();
  await expect(page.getByText('Later, Sixtyfive')).toBeHidden();
  await expect(page.getByText('Past, Sixtyfive')).toBeHidden();
  await expect(page.getByRole('group', { name: 'Active filters' })).toContainText('Turning 65 within: 90 days');
  await page.screenshot({ path: `${SHOTS}/calendar-turning-65.png`, fullPage: true });
});

for (const scheme of ['light', 'dark'] as const) {
  for (const width of [1280, 390]) {
    test(`calendar screens hold up (${scheme}, ${width} px)`, async ({ page }) => {
      test.setTimeout(180_000);
      await page.setViewportSize({ width, height: width > 400 ? 900 : 844 });
      await page.emulateMedia({ colorScheme: scheme });
      await signIn(page, 'agent@demo.harbor.test');
      const found: string[] = [];
      for (const view of ['month', 'week', 'day', 'agenda']) {
        await openScreen(page, `/calendar?view=${view}`);
        await expect(page.getByLabel('Loading the calendar')).toHaveCount(0);
        found.push(...(await axeFindings(page, `calendar ${view} ${scheme} ${width}`)));
        const wide = await page.evaluate(
          () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
        );
        if (wide) found.push(`calendar ${view} at ${width} px scrolls sideways`);
        await page.screenshot({ path: `${SHOTS}/calendar-${view}-${scheme}-${width}.png`, fullPage: true });
      }
      await page.getByRole('button', { name: 'New event' }).click();
      await expect(page.getByRole('dialog', { name: 'New event' })).toBeVisible();
      found.push(...(await axeFindings(page, `event dialog ${scheme} ${width}`)));
      await page.screenshot({ path: `${SHOTS}/calendar-dialog-${scheme}-${width}.png` });
      await page.keyboard.press('Escape');
      for (const [path, name] of [
        ['/', 'dashboard'],
        ['/soa-requests', 'soa-requests'],
      ]) {
        await openScreen(page, path);
        found.push(...(await axeFindings(page, `${name} ${scheme} ${width}`)));
        await page.screenshot({ path: `${SHOTS}/calendar-${name}-${scheme}-${width}.png`, fullPage: true });
      }
      expect(found).toEqual([]);
    });
  }
}
