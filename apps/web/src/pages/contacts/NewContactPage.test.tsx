import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentUserContext } from '../../auth/session';
import { findByLabel, findByText, mount, queryByText, type, unmount, waitFor } from '../../test/dom';
import { makeUser } from '../../test/fixtures';
import { fakeServer } from '../../test/server';
import { NewContactPage } from './NewContactPage';

const json = (status: number, body?: unknown) =>
  new Response(JSON.stringify(body ?? {}), { status, headers: { 'Content-Type': 'application/json' } });

function server(routes: Record<string, (body: any) => Response>) {
  return fakeServer(({ key, body }) => routes[key]?.(body));
}

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('/contacts/new', () => {
  it('warns while typing when the phone is already in the book, naming the contact it matches', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the fake server's CSRF cookie
    document.cookie = 'csrf_token=t0k';
    const seen = server({
      // The form's pickers load the lookups; this book has none.
      'GET /v1/statuses': () => json(200, { data: [] }),
      'GET /v1/agentflow_statuses': () => json(200, { groups: [], ungrouped: [] }),
      'GET /v1/sources': () => json(200, { data: [] }),
      'GET /v1/groups': () => json(200, { data: [] }),
      'PATCH /v1/tags': () =>
        json(200, { data: [], meta: { current_page: 1, limit: 500, total_count: 0, total_pages: 0 } }),
      'POST /v1/contacts/duplicate_check': (body) =>
        json(
          200,
          body.phone === '13058920101'
            ? {
                matches: [
                  {
                    id: 12,
                    number: 100012,
                    name: 'Rosa Vega',
                    owner: { id: 7, name: 'Ada Lovelace' },
                    matched_on: ['phone'],
                  },
                ],
                hidden_count: 1,
              }
            : { matches: [], hidden_count: 0 },
        ),
    });
    const router = createMemoryRouter([{ path: '/contacts/new', element: <NewContactPage /> }], {
      initialEntries: ['/contacts/new'],
    });
    await mount(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <CurrentUserContext.Provider value={makeUser()}>
          <MantineProvider>
            <RouterProvider router={router} />
          </MantineProvider>
        </CurrentUserContext.Provider>
      </QueryClientProvider>,
    );
    expect(document.title).toBe('New contact · Contacts · Harbor');
    await type(await findByLabel('Email'), 'rosa@');
    await type(await findByLabel('Phone'), '(305) 892-0101');
    await findByText('This may be a contact you already have');
    expect(queryByText('Rosa Vega (#100012)')).not.toBeNull();
    expect(queryByText(/A contact you cannot see/)).not.toBeNull();
    // An unfinished email is not asked about; the phone is sent as stored (11 digits).
    const ask = await waitFor(() => seen.find((s) => s.key === 'POST /v1/contacts/duplicate_check'), 'the check');
    expect(ask.body).toEqual({ phone: '13058920101' });
  });
});
