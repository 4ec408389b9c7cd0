import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentUserContext } from '../../auth/session';
import { findByLabel, findByText, mount, queryByText, type, unmount, waitFor } from '../../test/dom';
import { makeUser } from '../../test/fixtures';
import { NewContactPage } from './NewContactPage';

const json = (status: number, body?: unknown) =>
  new Response(JSON.stringify(body ?? {}), { status, headers: { 'Content-Type': 'application/json' } });

function server(routes: Record<string, (body: any) => Response>) {
  const seen: Array<{ key: string; body: any }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(String(input), window.location.origin);
      const key = `${init.method ?? 'GET'} ${url.pathname}`;
      const body = typeof init.body === 'string' ? JSON.parse(init.body) : undefined;
      seen.push({ key, body });
      await new Promise((r) => setTimeout(r, 0));
      const route = routes[key];
      if (!route) return json(200, { data: [], groups: [], ungrouped: [], meta: {} });
      return route(body);
    }),
  );
  return seen;
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
