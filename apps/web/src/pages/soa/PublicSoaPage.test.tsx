import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, findButton, findByLabel, findByText, mount, queryByText, type, unmount } from '../../test/dom';
import { PublicSoaPage } from './PublicSoaPage';

const json = (status: number, body?: unknown) =>
  new Response(JSON.stringify(body ?? {}), { status, headers: { 'Content-Type': 'application/json' } });

function server(routes: Record<string, (body: any) => Response>) {
  const seen: Array<{ key: string; body: any }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(String(input), window.location.origin);
      const key = `${init.method ?? 'GET'} ${url.pathname}`;
      seen.push({ key, body: typeof init.body === 'string' ? JSON.parse(init.body) : undefined });
      const route = routes[key];
      return route ? route(seen.at(-1)!.body) : json(404, { errors: { path: ['none'] } });
    }),
  );
  return seen;
}

async function open() {
  const router = createMemoryRouter([{ path: '/soa/:domain/:token', element: <PublicSoaPage /> }], {
    initialEntries: ['/soa/acme.test/abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG'],
  });
  await mount(
    <MantineProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('the public SOA page', () => {
  it('names the agent, and asks for products, a typed name and a signature before it sends anything', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the fake server's CSRF cookie
    document.cookie = 'csrf_token=t0k';
    const seen = server({
      'GET /v1/soa_requests/view': () =>
        json(200, {
          agent_name: 'Ada Lovelace',
          status: 'open',
          products_offered: ['medicare_advantage', 'medigap'],
          expires_at: '2030-01-01T00:00:00.000Z',
        }),
    });
    await open();
    await findByText(/Ada Lovelace, a licensed insurance agent/);
    expect(queryByText('Stand-alone prescription drug plans (Part D)')).toBeNull();
    await click(await findButton('Sign and send'));
    await findByText('Pick at least one product to discuss.');
    expect(queryByText('Type your full name to sign.')).not.toBeNull();
    expect(seen.some((s) => s.key === 'POST /v1/soa_requests/submit')).toBe(false);
    await type(await findByLabel('Your full name'), 'Rosa Vega');
    // Without a pointer, the typed name can be written into the signature box.
    expect(queryByText('Draw your signature in the box, or use your typed name.')).not.toBeNull();
  });

  it('says plainly when the link has expired or is not valid', async () => {
    server({
      'GET /v1/soa_requests/view': () =>
        json(410, { errors: { soa_request: ['This link has expired. Ask your agent for a new one.'] } }),
    });
    await open();
    await findByText('This link has expired. Ask your agent for a new one.');
    await unmount();
    server({
      'GET /v1/soa_requests/view': () =>
        json(404, { errors: { soa_request: ['This link is not valid. Ask your agent for a new one.'] } }),
    });
    await open();
    await findByText('This link is not valid. Ask your agent for a new one.');
  });

  it('thanks the beneficiary when it is already signed', async () => {
    server({
      'GET /v1/soa_requests/view': () =>
        json(200, { agent_name: 'Ada Lovelace', status: 'signed', products_offered: [], expires_at: '2030-01-01' }),
    });
    await open();
    await findByText('This scope of appointment is already signed. You can close this page.');
  });
});
