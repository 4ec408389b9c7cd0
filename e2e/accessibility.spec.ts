/**
 * WCAG 2.2 AA in a browser: axe-core finds no critical or serious violation on any screen of the router, signed in
 * as the roles that see it, with the contacts screens' menus and dialogs open, in the light and the dark scheme
 * (the app follows the device until a person chooses). Screenshots of both schemes land in test-results/screens.
 */

import { api, check, listContacts, showScreen, withOpen } from './a11y';
import { expect, test } from './fixtures';
import { signIn, signOut } from './helpers';

const PUBLIC = [
  '/login',
  '/reset-password?reset_password_token=not-a-real-token',
  '/login/sso',
  '/sso-logout',
  '/contact-us',
  '/privacy-policy',
  '/terms-of-use',
  '/dev/inbox',
  '/unsubscribe/not-a-valid.unsubscribe-token',
  '/no-such-page',
];

const PROFILE_TABS = [
  'profile',
  'password',
  'two_factor',
  'preferences',
  'webpage',
  'api_keys',
  'favorites',
  'sign_ins',
];
const ADMIN = [
  '/admin/users',
  '/admin/feature-flags',
  '/admin/single-sign-on',
  '/admin/security-log',
  '/admin/signups',
  '/admin/office-locations',
  '/admin/statuses',
  '/admin/agentflow-statuses',
  '/admin/sources',
  '/admin/carriers',
  '/admin/tags',
  '/admin/groups',
  '/admin/pools',
  '/admin/email-management',
  '/admin/email-management/new',
  '/admin/campaign-triggers',
];
const CONTACT_TABS = ['details', 'notes', 'files', 'holdings', 'more', 'email', 'timeline'];

for (const scheme of ['light', 'dark'] as const) {
  test.describe(`${scheme} scheme`, () => {
    // axe-core is injected as an inline script, which the app's Content Security Policy rightly refuses.
    test.use({ colorScheme: scheme, bypassCSP: true });

    test('public screens have no critical or serious violation', async ({ page }) => {
      const found: string[] = [];
      for (const path of PUBLIC) {
        await showScreen(page, path);
        await check(page, found, `${scheme} ${path}`, path === '/login' ? `a11y-login-${scheme}` : undefined);
      }
      expect(found).toEqual([]);
    });

    test('every screen an admin sees, and the contacts screens with their menus and dialogs open', async ({ page }) => {
      test.setTimeout(600_000);
      const found: string[] = [];
      await signIn(page, 'admin@demo.harbor.test');
      await expect(page).toHaveURL(/\/$/);
      // A contact of an agent's book, so the admin sees "Assign to me" (and its question) on it.
      const rows = await listContacts(page, { limit: 200 });
      const agentContact = rows.find((r) => r.owner?.name === 'Angela Diaz') ?? rows[0];
      const owners = await api<{ data: Array<{ id: number; name: string }> }>(page, 'GET', '/v1/admin/users/owners');
      const teammate = owners.data.find((o) => o.name === 'Tyler Brooks') ?? owners.data[1];

      const screens = [
        '/',
        ...PROFILE_TABS.map((t) => `/account/profile?tab=${t}`),
        '/billing',
        '/contacts',
        '/contacts/new',
        ...CONTACT_TABS.map((t) => `/contacts/${agentContact.number}?tab=${t}`),
        '/contacts/999999999',
        '/contacts/transfers',
        '/contacts/imports',
        '/contacts/imports/new',
        '/team',
        `/team/${teammate.id}`,
        ...ADMIN,
        '/no-such-page',
      ];
      for (const path of screens) {
        await showScreen(page, path);
        const name =
          path === '/contacts'
            ? `a11y-contacts-${scheme}`
            : path.endsWith('tab=details')
              ? `a11y-contact-${scheme}`
              : undefined;
        await check(page, found, `${scheme} ${path}`, name);
      }

      // The contacts list with each of its menus, panels and dialogs open.
      await showScreen(page, '/contacts');
      await page.getByRole('button', { name: 'Filters', exact: true }).click();
      await check(page, found, `${scheme} /contacts filters open`, `a11y-contacts-filters-${scheme}`);
      await withOpen(page, found, `${scheme} /contacts quick filters menu`, () =>
        page.getByRole('button', { name: 'Quick filters' }).click(),
      );
      await page.getByRole('button', { name: 'Quick filters' }).click();
      await withOpen(page, found, `${scheme} /contacts save quick filter`, () =>
        page.getByRole('menuitem', { name: 'Save current filter' }).click(),
      );
      await withOpen(page, found, `${scheme} /contacts columns`, () =>
        page.getByRole('button', { name: 'Columns' }).click(),
      );
      await withOpen(page, found, `${scheme} user menu`, () =>
        page.getByRole('button', { name: /^User menu for/ }).click(),
      );
      await withOpen(page, found, `${scheme} notifications`, () =>
        page.getByRole('button', { name: /^Notifications/ }).click(),
      );
      await page.getByLabel('Select this page').check();
      await withOpen(page, found, `${scheme} /contacts bulk actions menu`, () =>
        page.getByRole('button', { name: 'Bulk actions' }).click(),
      );
      await withOpen(page, found, `${scheme} /contacts send email dialog`, async () => {
        await page.getByRole('button', { name: 'Bulk actions' }).click();
        await page.getByRole('menuitem', { name: 'Send email' }).click();
        await expect(page.getByLabel('What to send')).toBeVisible();
      });
      for (const action of ['Add tags', 'Change group', 'Transfer contacts', 'Delete contacts', 'Export CSV']) {
        await withOpen(page, found, `${scheme} /contacts ${action} dialog`, async () => {
          await page.getByRole('button', { name: 'Bulk actions' }).click();
          await page.getByRole('menuitem', { name: action }).click();
          await expect(page.getByText(/This will affect/)).toBeVisible();
        });
      }

      // One contact: taking it from its owner asks first; deleting a policy asks first.
      await showScreen(page, `/contacts/${agentContact.number}`);
      await withOpen(page, found, `${scheme} contact assign-to-me dialog`, () =>
        page.getByRole('button', { name: 'Assign to me' }).click(),
      );

      // A transfer to revert: the confirmation dialog.
      const attempt = await api<{ id: number }>(page, 'PATCH', '/v1/contacts/transfer_group', {
        ids: [agentContact.id],
        to_user_id: teammate.id,
      });
      await showScreen(page, `/contacts/transfers?attempt=${attempt.id}`);
      await expect(page.getByLabel('Status complete')).toBeVisible({ timeout: 20_000 });
      await withOpen(page, found, `${scheme} revert dialog`, () =>
        page.getByRole('button', { name: 'Revert transfer' }).click(),
      );
      await page.getByRole('button', { name: 'Revert transfer' }).click();
      await page
        .getByRole('dialog', { name: 'Revert transfer' })
        .getByRole('button', { name: 'Revert transfer' })
        .click();
      await expect(page.getByLabel('Status reverted')).toBeVisible({ timeout: 20_000 });
      await check(page, found, `${scheme} reverted transfer`, `a11y-transfer-reverted-${scheme}`);

      expect(found).toEqual([]);
    });

    test('the screens an agent and a manager see', async ({ page }) => {
      test.setTimeout(300_000);
      const found: string[] = [];
      await signIn(page, 'agent@demo.harbor.test');
      await expect(page).toHaveURL(/\/$/);
      const [mine] = await listContacts(page);
      for (const path of ['/', '/contacts', `/contacts/${mine.number}`, '/contacts/imports', '/account/profile']) {
        await showScreen(page, path);
        await check(page, found, `${scheme} agent ${path}`);
      }
      await signOut(page, 'Angela Diaz');
      await signIn(page, 'manager@demo.harbor.test');
      await expect(page).toHaveURL(/\/$/);
      for (const path of ['/team', '/contacts?view=downline', '/contacts/transfers']) {
        await showScreen(page, path);
        await check(page, found, `${scheme} manager ${path}`);
      }
      expect(found).toEqual([]);
    });
  });
}
