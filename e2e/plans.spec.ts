/**
 * Texting and dialer plans as people use them (issues 12 and 13): an admin creates a texting plan and an agent
 * subscribes to it with a card (active once the processor confirms); a manager hands a free dialer seat to someone
 * by name and moves minutes between licences, and the agent sees the new allocation. Screenshots in
 * test-results/screens/plans-*.png.
 */
import { expect, type Page, test } from './fixtures';
import { field, SHOTS, signIn, signOut } from './helpers';

async function home(page: Page, email: string) {
  await signIn(page, email);
  await expect(page).toHaveURL(/\/$/);
}

test('an admin creates a texting plan and an agent subscribes to it by card', async ({ page }) => {
  test.setTimeout(180_000);
  await home(page, 'admin@demo.harbor.test');
  await page.goto('/admin/plans/sms');
  await expect(page.getByRole('heading', { name: 'Texting plans' })).toBeVisible();
  await page.getByRole('button', { name: 'New plan' }).click();
  const form = page.getByRole('dialog', { name: 'New texting plan' });
  await form.getByLabel(/^Name/).fill('Texting Starter');
  await form.getByLabel('Description').fill('For agents trying texting: 300 messages a month.');
  await form.getByLabel('Messages a seat a month').fill('300');
  // Spec §9: a standard texting seat is $5 a month.
  await expect(form.getByLabel(/^Price a seat a month/)).toHaveValue('5.00');
  await page.screenshot({ path: `${SHOTS}/plans-admin-new-plan.png`, fullPage: true });
  await form.getByRole('button', { name: 'Create plan' }).click();
  await expect(form).toBeHidden();
  const catalog = page.getByRole('table', { name: 'Texting plans' });
  await expect(catalog.getByText('Texting Starter')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/plans-admin-catalog.png`, fullPage: true });
  await signOut(page, 'Alicia Grant');

  await home(page, 'agent@demo.harbor.test');
  await page.goto('/plans/sms');
  await expect(page.getByRole('heading', { name: 'Texting plans' })).toBeVisible();
  await page.getByRole('button', { name: 'Subscribe to Texting Starter' }).click();
  const buy = page.getByRole('dialog', { name: 'Subscribe to Texting Starter' });
  await buy.getByText('Card', { exact: true }).click();
  await field(page, 'Card number').fill('4242 4242 4242 4242');
  await field(page, 'Expiry \\(MM/YY\\)').fill('12/34');
  await field(page, 'Security code').fill('123');
  await expect(buy.getByTestId('subscribe-total')).toHaveText('$5.00 now, then $5.00 each month until you cancel.');
  await page.screenshot({ path: `${SHOTS}/plans-agent-subscribe.png`, fullPage: true });
  await buy.getByRole('button', { name: 'Pay $5.00 and subscribe' }).click();
  await expect(buy).toBeHidden();
  await expect(page.getByText(/Subscribed to Texting Starter|being confirmed/)).toBeVisible();

  // The card is confirmed by the processor's webhook: the subscription is active once it has landed.
  await expect
    .poll(
      async () => {
        const res = await page.request.get('/v1/sms/sms_subscriptions?mine=true&q=Starter');
        return ((await res.json()).data as Array<{ status: string }>).map((s) => s.status);
      },
      { timeout: 30_000 },
    )
    .toEqual(['active']);
  await page.goto('/plans/sms?tab=subscriptions&mine=true');
  const row = page.getByRole('row', { name: /Texting Starter/ });
  await expect(row.getByText('Active', { exact: true })).toBeVisible();
  await expect(row).toContainText('Angela Diaz');
  await page.screenshot({ path: `${SHOTS}/plans-agent-subscriptions.png`, fullPage: true });
  await page.goto('/plans/sms?tab=orders');
  await expect(page.getByRole('row', { name: /Texting Starter/ }).getByText('Visa ending in 4242')).toBeVisible();
});

test('a manager allocates dialer minutes to agents through licences', async ({ page }) => {
  test.setTimeout(180_000);
  await home(page, 'manager@demo.harbor.test');
  await page.goto('/plans/dialer?tab=licences');
  const team = page.getByRole('region', { name: /Dialer Standard · Manager-paid/ });
  await expect(team.getByText('900 minutes allocated of 5,000 minutes')).toBeVisible();

  // A free seat to Nadia, picked by name.
  const holder = team.getByLabel(/^Holder of free seat/).first();
  const seat = ((await holder.getAttribute('aria-label')) ?? '').replace('Holder of ', '');
  await holder.click();
  await holder.fill('Nadia');
  await page.getByRole('option', { name: /Nadia Hughes/ }).click();
  await team.getByLabel(`Allocation of ${seat}`).fill('250');
  await team.getByRole('button', { name: `Save ${seat}` }).click();
  await expect(page.getByText('Saved: Nadia Hughes, 250 minutes a month (was a free seat).')).toBeVisible();
  await expect(team.getByText('1,150 minutes allocated of 5,000 minutes')).toBeVisible();

  // More minutes for Angela.
  await team.getByLabel('Allocation of Angela Diaz').fill('450');
  await team.getByRole('button', { name: 'Save Angela Diaz' }).click();
  await expect(team.getByText('1,300 minutes allocated of 5,000 minutes')).toBeVisible();
  await expect(team.getByLabel('Holder of Nadia Hughes')).toHaveValue(/Nadia Hughes/);
  await page.screenshot({ path: `${SHOTS}/plans-manager-licences.png`, fullPage: true });

  // More than the pool is refused with what is left.
  await team.getByLabel('Allocation of Angela Diaz').fill('9000');
  await team.getByRole('button', { name: 'Save Angela Diaz' }).click();
  await expect(team.getByText(/Only 4,150 minutes are left to allocate/)).toBeVisible();
  await signOut(page, 'Monica Reyes');

  await home(page, 'agent@demo.harbor.test');
  await page.goto('/plans/dialer');
  await expect(page.getByTestId('usage-line')).toHaveText('0 minutes used of 450 minutes · 450 minutes left');
  // Her licence is paid and the demo seed verified her dialer number: spec §4 enables the dialer.
  await expect(page.getByText('You can place calls')).toBeVisible();
  await page.goto('/plans/dialer?tab=licences');
  await expect(page.getByText('450 minutes a month · 0 minutes used this month')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/plans-agent-dialer-licence.png`, fullPage: true });
});
