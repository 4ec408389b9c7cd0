import type { ContactDetail, CurrentUser } from '@harbor/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentUserContext } from '../../auth/session';
import {
  click,
  findButton,
  findByLabel,
  findByText,
  mount,
  queryButton,
  queryByText,
  type,
  unmount,
  waitFor,
} from '../../test/dom';
import { makeUser } from '../../test/fixtures';
import { fakeServer } from '../../test/server';
import { ContactDetailPage } from './ContactDetailPage';
import { toBody } from './ContactForm';

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const contact: ContactDetail = {
  id: 5,
  number: 100005,
  type: 'lead',
  first_name: 'Mary',
  last_name: 'Smith',
  full_name: 'Mary Smith',
  email: 'mary@gmial.com',
  email_status: 'unknown',
  phone: '1-502-555-0143',
  phone_type: null,
  secondary_phone: null,
  date_of_birth: '1959-03-02',
  age: 67,
  gender: 'female',
  gender_label: 'Female',
  language: null,
  address: null,
  address2: null,
  city: 'Louisville',
  state: 'KY',
  zip: null,
  county: null,
  medicare_number: null,
  part_a_effective: null,
  part_b_effective: null,
  status: { id: 1, name: 'New', color: 'blue' },
  agentflow_status: null,
  source: null,
  api_vendor: null,
  category: null,
  owner: { id: 7, name: 'Ada Lovelace' },
  pool: null,
  group: null,
  tags: [{ id: 3, name: 'T65', color: 'purple' }],
  linked_contact: null,
  note: null,
  is_new: false,
  last_activity: null,
  deleted_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  timeline: [
    { id: 1, kind: 'created', data: {}, actor: { id: 7, name: 'Ada Lovelace' }, created_at: '2026-01-01T00:00:00Z' },
  ],
};

function server(routes: Record<string, (body: unknown) => Response>) {
  return fakeServer(({ key, body }) => routes[key]?.(body));
}

const lookups = {
  'GET /v1/statuses': () =>
    json(200, {
      data: [
        { id: 1, name: 'New', color: 'blue', position: 0, active: true },
        { id: 2, name: 'Sold', color: 'green', position: 1, active: true },
      ],
    }),
  'GET /v1/agentflow_statuses': () => json(200, { groups: [], ungrouped: [] }),
  'GET /v1/sources': () => json(200, { data: [] }),
  'GET /v1/groups': () => json(200, { data: [] }),
  'PATCH /v1/tags': () =>
    json(200, {
      data: [{ id: 3, name: 'T65', color: 'purple', contacts_count: 1 }],
      meta: { current_page: 1, limit: 500, total_count: 1, total_pages: 1 },
    }),
  'GET /v1/health': () => json(200, {}),
  'GET /v1/contacts/100005/consent': () =>
    json(200, {
      contact_id: 5,
      channels: ['email', 'sms', 'voice'].map((channel) => ({
        channel,
        status: 'unknown',
        since: null,
        source: null,
        detail: null,
        recorded_by: null,
        address: null,
        suppressed: null,
        senders_opted_out: [],
      })),
      permission_to_contact: null,
      history: [],
    }),
};

async function render(path: string, user: CurrentUser = makeUser()) {
  const router = createMemoryRouter([{ path: '/contacts/:number', element: <ContactDetailPage /> }], {
    initialEntries: [path],
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await mount(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={user}>
        <MantineProvider>
          <RouterProvider router={router} />
        </MantineProvider>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('ContactDetailPage', () => {
  it('shows the header, and a note added goes to the server and the list', async () => {
    let notes: unknown[] = [];
    const seen = server({
      ...lookups,
      'GET /v1/contacts/100005': () => json(200, contact),
      'GET /v1/contacts/100005/notes': () => json(200, { data: notes }),
      'POST /v1/contacts/100005/notes': (body) => {
        const note = {
          id: 9,
          body: (body as { body: string }).body,
          author: { id: 7, name: 'Ada Lovelace' },
          created_at: '2026-01-02T00:00:00Z',
          updated_at: '2026-01-02T00:00:00Z',
        };
        notes = [note];
        return json(201, note);
      },
    });
    await render('/contacts/100005?tab=notes');
    await findByText('Mary Smith');
    // The tab names the contact.
    expect(document.title).toBe('Mary Smith · Contacts · Harbor');
    expect(queryByText('T65')).not.toBeNull();
    await type(await findByLabel('New note'), 'Wants a Part D quote');
    await click(await findButton('Add note'));
    await findByText('Wants a Part D quote');
    const post = await waitFor(() => seen.find((s) => s.key === 'POST /v1/contacts/100005/notes'), 'the note POST');
    expect(post.body).toEqual({
      body: 'Wants a Part D quote',
    });
  });

  it('shows the offline validation result with the suggestion', async () => {
    server({
      ...lookups,
      'GET /v1/contacts/100005': () => json(200, contact),
      'PATCH /v1/contacts/100005/validate_email': () =>
        json(200, {
          email_status: 'invalid',
          valid: false,
          reasons: ['looks like a misspelling of gmail.com'],
          suggestion: 'mary@gmail.com',
          mailbox_checked: false,
          contact: { ...contact, email_status: 'invalid' },
        }),
    });
    await render('/contacts/100005');
    await click(await findButton('Validate email'));
    await findByText(/Did you mean mary@gmail.com\?/);
  });

  it('changes the status from the header dropdown (the value is read before the request, not after)', async () => {
    const seen = server({
      ...lookups,
      'GET /v1/contacts/100005': () => json(200, contact),
      'PATCH /v1/contacts/100005/quick_update': () =>
        json(200, { ...contact, status: { id: 2, name: 'Sold', color: 'green' }, updated_at: '2026-01-03T00:00:00Z' }),
    });
    await render('/contacts/100005');
    const select = (await findByLabel('Quick status')) as HTMLSelectElement;
    await waitFor(() => select.querySelector('option[value="2"]'), 'the statuses');
    await type(select, '2');
    const patch = await waitFor(
      () => seen.find((s) => s.key === 'PATCH /v1/contacts/100005/quick_update'),
      'the quick_update request',
    );
    expect(patch.body).toEqual({ field: 'status_id', value: 2 });
    expect(queryByText(/Something went wrong/)).toBeNull();
  });

  it('offers "Assign to me" only when the contact is not already mine, and asks before taking it from someone', async () => {
    server({ ...lookups, 'GET /v1/contacts/100005': () => json(200, contact) });
    await render('/contacts/100005');
    await findByText('Mary Smith');
    expect(queryButton('Assign to me')).toBeNull();
    await unmount();

    const theirs = { ...contact, owner: { id: 9, name: 'Angela Diaz' } };
    const seen = server({
      ...lookups,
      'GET /v1/contacts/100005': () => json(200, theirs),
      'PATCH /v1/contacts/100005/assign_to_me': () => json(200, { ...contact, updated_at: '2026-01-04T00:00:00Z' }),
    });
    await render('/contacts/100005');
    await click(await findButton('Assign to me'));
    await findByText(/Take Mary Smith from Angela Diaz\?/);
    expect(seen.some((s) => s.key === 'PATCH /v1/contacts/100005/assign_to_me')).toBe(false);
    const dialog = await waitFor(() => document.querySelector('[role="dialog"]'), 'the confirmation');
    await click(Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Assign to me')!);
    await waitFor(() => seen.some((s) => s.key === 'PATCH /v1/contacts/100005/assign_to_me'), 'the assignment');
  });

  it('says so when the contact cannot be seen', async () => {
    server({ ...lookups, 'GET /v1/contacts/100999': () => json(404, { errors: { contact: ['not found'] } }) });
    await render('/contacts/100999');
    await findByText('Contact not found');
    expect(document.querySelector('h1')?.textContent).toBe('Contact not found');
    expect(document.title).toBe('Contact not found · Harbor');
    expect(queryButton('Back to contacts')).not.toBeNull();
  });
});

describe('policies', () => {
  it('shows the policy number, money and dates for people, and clears the form after adding', async () => {
    let policies: unknown[] = [];
    const seen = server({
      ...lookups,
      'GET /v1/contacts/100005': () => json(200, contact),
      'GET /v1/carriers': () => json(200, { data: [{ id: 4, name: 'Humana', active: true }] }),
      'GET /v1/contacts/100005/securities': () => json(200, { data: [] }),
      'GET /v1/contacts/100005/policies': () => json(200, { data: policies }),
      'POST /v1/contacts/100005/policies': (body) => {
        const b = body as Record<string, unknown>;
        policies = [
          {
            id: 1,
            carrier: null,
            product_type: b.product_type,
            plan_name: null,
            policy_number: b.policy_number,
            premium_cents: b.premium_cents,
            status: 'active',
            effective_date: b.effective_date,
            termination_date: null,
            notes: null,
            created_at: '2026-01-02T00:00:00Z',
            updated_at: '2026-01-02T00:00:00Z',
          },
        ];
        return json(201, policies[0]);
      },
    });
    await render('/contacts/100005?tab=holdings');
    await findByText('No policies yet.');
    const number = (await findByLabel('Policy number')) as HTMLInputElement;
    await type(number, 'H1234-001');
    await type(await findByLabel('Monthly premium (USD)'), '$1,250.50');
    await type(await findByLabel('Effective date'), '2026-01-01');
    await click(await findButton('Add policy'));
    await waitFor(() => seen.find((s) => s.key === 'POST /v1/contacts/100005/policies'), 'the policy POST');
    expect(seen.find((s) => s.key === 'POST /v1/contacts/100005/policies')?.body).toMatchObject({
      policy_number: 'H1234-001',
      premium_cents: 125050,
      effective_date: '2026-01-01',
    });
    const table = await waitFor(() => document.querySelector('table[aria-label="Policies"]'), 'the policies table');
    expect(table.textContent).toContain('H1234-001');
    expect(table.textContent).toContain('$1,250.50');
    expect(table.textContent).toContain('Jan 1, 2026');
    expect(table.textContent).toContain('Medicare advantage');
    await waitFor(() => number.value === '' || null, 'the cleared form');
  });
});

describe('owner picker on the Edit tab', () => {
  it('is not shown to an agent, whose role the owners list refuses', async () => {
    const seen = server({ ...lookups, 'GET /v1/contacts/100005': () => json(200, contact) });
    await render('/contacts/100005');
    await findByLabel('First name');
    expect([...document.querySelectorAll('label')].some((l) => l.textContent?.startsWith('Owner'))).toBe(false);
    expect(seen.some((s) => s.key === 'GET /v1/admin/users/owners')).toBe(false);
  });

  it('lets a manager hand the contact to someone in reach, sending owner_id', async () => {
    const owners = [
      { id: 7, name: 'Ada Lovelace', email: 'ada@example.test', roles: ['agent'] },
      { id: 8, name: 'Grace Hopper', email: 'grace@example.test', roles: ['agent'] },
      { id: 9, name: 'Alan Turing', email: 'alan@example.test', roles: ['agent'] },
    ];
    const seen = server({
      ...lookups,
      'GET /v1/contacts/100005': () => json(200, contact),
      'GET /v1/admin/users/owners': () => json(200, { data: owners }),
      'PATCH /v1/contacts/100005': () => json(200, { ...contact, owner: { id: 8, name: 'Grace Hopper' } }),
    });
    await render(
      '/contacts/100005',
      makeUser({ roles: ['manager'], permissions: ['users.manage'], favorite_users: [9] }),
    );
    const owner = (await findByLabel('Owner')) as HTMLInputElement;
    await waitFor(() => owner.value === 'Ada Lovelace (ada@example.test)' || null, 'the current owner');
    await click(owner);
    await findByText('Grace Hopper (grace@example.test)');
    // The manager's favourite comes first.
    const listed = [...document.querySelectorAll('[role="option"]')].map((o) => o.textContent);
    expect(listed[0]).toBe('Alan Turing (alan@example.test)');
    await click(await findByText('Grace Hopper (grace@example.test)'));
    await click(await findButton('Save changes'));
    await waitFor(() => seen.find((s) => s.key === 'PATCH /v1/contacts/100005'), 'the save');
    expect(seen.find((s) => s.key === 'PATCH /v1/contacts/100005')?.body).toEqual({ owner_id: 8 });
  });
});

describe('toBody', () => {
  it('sends only changed fields, nulls for cleared ones and numbers for ids', () => {
    const start = { first_name: 'Mary', city: 'Louisville', status_id: '1', zip: '' };
    expect(toBody({ ...start, city: '', status_id: '2' }, start, null)).toEqual({ city: null, status_id: 2 });
    expect(toBody(start, start, [3])).toEqual({ tag_ids: [3] });
    expect(toBody({ ...start, owner_id: '' }, { ...start, owner_id: '' }, null)).toEqual({});
    expect(toBody({ ...start, owner_id: '8' }, { ...start, owner_id: '7' }, null)).toEqual({ owner_id: 8 });
  });
});
