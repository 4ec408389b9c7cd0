/**
 * Issue 8, "Data safety first", in a browser. A manager imports a vendor list where one row shares a phone with an
 * agent's client (Carol Thompson): the preview shows what would change and that she is someone else's, the import
 * leaves her identity alone, and undo restores everything. Then a merge where the person keeps the duplicate's
 * email, and the timeline keeps the other record's values. Screens at desktop and phone width, light and dark.
 */
import { expect, type Page, test } from './fixtures';
import { SHOTS, signIn } from './helpers';

const stamp = Date.now().toString(36);
const n = String(Date.now() % 10_000_000).padStart(7, '0');
const carolPhone = `305${n}`;

/** A JSON call as the signed-in page (session cookie and CSRF header), for setting the scene. */
async function api(page: Page, method: string, url: string, body?: unknown) {
  const csrf = (await page.context().cookies()).find((c) => c.name === 'csrf_token')?.value ?? '';
  const res = await page.request.fetch(url, { method, data: body, headers: { 'x-csrf-token': csrf } });
  expect(res.ok(), `${method} ${url}: ${res.status()} ${await res.text()}`).toBe(true);
  return res.json();
}

/**
 * Desktop light, then phone width, then both again in dark. Dark is Mantine's own color-scheme attribute set on the
 * page as it stands (a reload would lose the wizard's state): the same CSS a user with the dark theme gets.
 */
async function shots(page: Page, name: string) {
  const desktop = page.viewportSize() ?? { width: 1280, height: 720 };
  const scheme = (v: 'light' | 'dark') =>
    page.evaluate(`document.documentElement.setAttribute('data-mantine-color-scheme', '${v}')`);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(400); // the layout's navbar and tables settle at the new width
  await page.screenshot({ path: `${SHOTS}/${name}-phone.png`, fullPage: true });
  await scheme('dark');
  await page.screenshot({ path: `${SHOTS}/${name}-phone-dark.png`, fullPage: true });
  await page.setViewportSize(desktop);
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS}/${name}-dark.png`, fullPage: true });
  await scheme('light');
}

// Two whole stories with four screenshots at each step, on a shared two-core machine.
test.setTimeout(240_000);

test("an import cannot overwrite another agent's client, shows what it would change, and undo restores it", async ({
  browser,
}) => {
  // The agent's client: Carol, with her own name, birth date, email and address.
  const agent = await browser.newPage();
  await signIn(agent, 'agent@demo.harbor.test');
  await expect(agent.getByRole('navigation')).toBeVisible();
  const carol = await api(agent, 'POST', '/v1/contacts', {
    first_name: 'Carol',
    last_name: 'Thompson',
    phone: carolPhone,
    email: `carol.${stamp}@example.com`,
    date_of_birth: '1948-09-30',
    address: '12 Palm Ave',
    type: 'client',
  });
  await agent.close();

  const page = await browser.newPage();
  await signIn(page, 'manager@demo.harbor.test');
  await page.getByRole('navigation').getByRole('link', { name: 'Imports' }).click();
  await page.getByRole('link', { name: 'Import a list' }).click();
  const csv = [
    'First Name,Last Name,Phone,Email,DOB,Address,City',
    `Ramón,Domínguez,${carolPhone},ramon.${stamp}@example.com,04/12/1952,77 Ocean Dr,Miami`,
    `Nina,Fresh${stamp},305${String((Number(n) + 1) % 10_000_000).padStart(7, '0')},nina.${stamp}@example.com,,1 Bay St,Miami`,
  ].join('\n');
  await page.locator('input[type="file"]').setInputFiles({
    name: `vendor-${stamp}.csv`,
    mimeType: 'text/csv',
    buffer: Buffer.from(csv),
  });
  await expect(page.getByRole('table', { name: 'Column mapping' })).toBeVisible();
  // The defaults: matched by phone, email and Medicare number; a match only gets its blank fields filled.
  await expect(page.getByLabel('When a contact already exists')).toHaveValue('fill');
  await page.getByRole('button', { name: 'Preview' }).click();
  const preview = page.getByLabel('Preview', { exact: true });
  await expect(preview.getByLabel('To update', { exact: true })).toHaveText('1');
  await expect(preview.getByLabel('To create', { exact: true })).toHaveText('1');
  await expect(preview.getByText("Other people's contacts")).toBeVisible();
  const changes = page.getByRole('table', { name: 'Contacts it would change' });
  await expect(changes).toContainText(`Carol Thompson (#${carol.number})`);
  await expect(changes).toContainText('Owner: Angela Diaz');
  await expect(changes).toContainText("Someone else's");
  await expect(changes).toContainText('Maybe someone else');
  await expect(changes).toContainText('City: (blank) → Miami');
  await expect(changes).toContainText('First name stays Carol (file: Ramón): not proven the same person');
  await expect(changes).toContainText('Date of birth stays 1948-09-30 (file: 1952-04-12)');
  await shots(page, 'import-safety-1-preview');

  await page.getByRole('button', { name: 'Start import' }).click();
  await expect(page).toHaveURL(/\/contacts\/imports\/\d+$/);
  await expect(page.getByText('Completed', { exact: true })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('Created', { exact: true })).toHaveText('1');
  await expect(page.getByLabel('Updated', { exact: true })).toHaveText('1');
  const resultUrl = page.url();
  await page.getByRole('tab', { name: /Changed/ }).click();
  const changed = page.getByRole('table', { name: 'Contacts changed' });
  await expect(changed).toContainText('City: (blank) → Miami');
  await shots(page, 'import-safety-2-result');

  // Carol is still Carol: name, birth date, email, address; her timeline says what the import changed.
  await changed.getByRole('link', { name: `Carol Thompson (#${carol.number})` }).click();
  await expect(page.getByRole('heading', { name: 'Carol Thompson' })).toBeVisible();
  const after = await api(page, 'GET', `/v1/contacts/${carol.number}?not_remove_new_tag=true`);
  expect(after).toMatchObject({
    first_name: 'Carol',
    last_name: 'Thompson',
    date_of_birth: '1948-09-30',
    email: `carol.${stamp}@example.com`,
    address: '12 Palm Ave',
    city: 'Miami',
  });
  await page.getByRole('tab', { name: 'Timeline' }).click();
  await expect(page.getByRole('tabpanel', { name: 'Timeline' })).toContainText('City: — → Miami');
  await shots(page, 'import-safety-3-carol');

  // Undo, seen first, then done: the created lead goes (restorable), Carol's city goes back to blank.
  await page.goto(resultUrl);
  await page.getByRole('button', { name: 'Undo this import…' }).click();
  const dialog = page.getByRole('dialog');
  const plan = dialog.getByLabel('What undo will do');
  await expect(plan).toContainText('Removes 1 contact it created');
  await expect(plan).toContainText('Puts the old values back on 1 contact (1 field)');
  await shots(page, 'import-safety-4-undo-preview');
  await dialog.getByRole('button', { name: 'Undo the import' }).click();
  await expect(page.getByText('Undone', { exact: true }).first()).toBeVisible({ timeout: 20_000 });
  await expect(page.getByLabel('What the undo did')).toContainText('1 created contact removed');
  await shots(page, 'import-safety-5-undone');
  const restored = await api(page, 'GET', `/v1/contacts/${carol.number}?not_remove_new_tag=true`);
  expect(restored).toMatchObject({ first_name: 'Carol', city: null, address: '12 Palm Ave' });
  expect(restored.timeline[0]).toMatchObject({ kind: 'import_undone' });
  const found = await api(page, 'PATCH', '/v1/contacts', { q: `fresh${stamp}` });
  expect(found.data).toEqual([]);
  await page.close();
});

test("a merge keeps the duplicate's email when the person picks it, and the timeline keeps the other's values", async ({
  page,
}) => {
  await signIn(page, 'agent@demo.harbor.test');
  await expect(page.getByRole('navigation')).toBeVisible();
  const name = `Merge${stamp}`;
  const kept = await api(page, 'POST', '/v1/contacts', {
    first_name: 'Rosa',
    last_name: name,
    email: `rosa.old.${stamp}@example.com`,
    phone: `555${n}`,
    city: 'Montgomery',
  });
  const dup = await api(page, 'POST', '/v1/contacts', {
    first_name: 'Rosa',
    last_name: name,
    email: `rosa.new.${stamp}@example.com`,
    date_of_birth: '1950-02-04',
  });
  await page.getByRole('navigation').getByRole('link', { name: 'Contacts' }).click();
  await page.getByLabel('Search contacts').fill(name);
  const boxes = page.getByRole('table', { name: 'Contacts' }).locator('tbody input[type=checkbox]');
  await expect(boxes).toHaveCount(2);
  await boxes.nth(0).check();
  await boxes.nth(1).check();
  await page.getByRole('button', { name: 'Bulk actions' }).click();
  await page.getByRole('menuitem', { name: 'Merge duplicates' }).click();
  const dialog = page.getByRole('dialog');
  const table = dialog.getByRole('table', { name: 'Records to merge' });
  await expect(table).toContainText(`#${kept.number}`);
  await expect(table).toContainText(`#${dup.number}`);
  await dialog.getByLabel(`Keep #${kept.number}`).check();
  await dialog.getByLabel(`Email: rosa.new.${stamp}@example.com (#${dup.number})`).check();
  await shots(page, 'merge-1-side-by-side');
  await dialog.getByRole('button', { name: `Merge into #${kept.number}` }).click();
  await expect(page.getByText('2 contacts merged into one.')).toBeVisible();

  await page.goto(`/contacts/${kept.number}`);
  await expect(page.getByRole('heading', { name: `Rosa ${name}` })).toBeVisible();
  const after = await api(page, 'GET', `/v1/contacts/${kept.number}?not_remove_new_tag=true`);
  expect(after).toMatchObject({
    email: `rosa.new.${stamp}@example.com`,
    date_of_birth: '1950-02-04',
    city: 'Montgomery',
  });
  await page.getByRole('tab', { name: 'Timeline' }).click();
  const timeline = page.getByRole('tabpanel', { name: 'Timeline' });
  await expect(timeline).toContainText(`Email: rosa.old.${stamp}@example.com → rosa.new.${stamp}@example.com`);
  await expect(timeline).toContainText(`Email rosa.new.${stamp}@example.com`);
  await expect(timeline).toContainText(`Merged #${dup.number} Rosa ${name} had:`);
  await shots(page, 'merge-2-timeline');
});
