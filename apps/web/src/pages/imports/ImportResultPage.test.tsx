/**
 * An import's result page when there is no import to show: an address that names none, and one the server does not
 * know. Either way the page keeps its heading (focus and the tab's title need it) and says so, instead of spinning.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { findByText, mount, unmount } from '../../test/dom';
import { ImportResultPage } from './ImportResultPage';

function server() {
  const seen: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      seen.push(new URL(String(input), window.location.origin).pathname);
      return new Response(JSON.stringify({ errors: { id: ['Import not found'] } }), {
        status: 404,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return seen;
}

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

async function render(path: string) {
  const router = createMemoryRouter([{ path: '/contacts/imports/:id', element: <ImportResultPage /> }], {
    initialEntries: [path],
  });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe('/contacts/imports/:id without an import', () => {
  it('says the address names no import, with the page heading, and asks the server nothing', async () => {
    const seen = server();
    await render('/contacts/imports/undefined');
    await findByText('There is no import at this address.');
    expect(document.querySelector('h1[data-page-heading]')?.textContent).toBe('Import');
    expect(document.title).toBe('Import · Imports · Harbor');
    expect(seen).toEqual([]);
  });

  it("shows the server's answer for an import it does not know", async () => {
    server();
    await render('/contacts/imports/999');
    await findByText('Import not found');
    expect(document.querySelector('h1[data-page-heading]')?.textContent).toBe('Import');
  });
});
