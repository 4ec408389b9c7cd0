import type { TransferAttempt } from '@harbor/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { click, findButton, findByText, mount, queryByText, unmount, waitFor } from '../../test/dom';
import { fakeServer } from '../../test/server';
import { TransfersPage } from './TransfersPage';

const json = (status: number, body?: unknown) =>
  new Response(JSON.stringify(body ?? {}), { status, headers: { 'Content-Type': 'application/json' } });

const attempt = (over: Partial<TransferAttempt> = {}): TransferAttempt => ({
  id: 4,
  status: 'complete',
  reverted: false,
  reverting: false,
  total: 2,
  processed: 2,
  error: null,
  created_by: { id: 2, name: 'Morgan Manager' },
  to_user: { id: 9, name: 'Tyler Brooks' },
  to_pool: null,
  created_at: '2026-01-02T10:00:00Z',
  updated_at: '2026-01-02T10:00:00Z',
  completed_at: '2026-01-02T10:00:05Z',
  ...over,
});
const logs = {
  data: [
    {
      id: 1,
      contact: { id: 5, number: 100005, name: 'Mary Smith' },
      from_user: { id: 7, name: 'Ada Lovelace' },
      to_user: { id: 9, name: 'Tyler Brooks' },
      from_pool_id: null,
      created_at: '2026-01-02T10:00:01Z',
    },
  ],
  meta: { current_page: 1, limit: 50, total_count: 1, total_pages: 1 },
};
const page = (a: TransferAttempt) => ({
  data: [a],
  meta: { current_page: 1, limit: 15, total_count: 1, total_pages: 1 },
});

let current = attempt();
function server() {
  const seen = fakeServer(({ key }) => {
    if (key === 'GET /v1/contacts/transfer_attempts') return json(200, page(current));
    if (key === 'GET /v1/contacts/transfer_attempts/4') return json(200, current);
    if (key === 'GET /v1/contacts/transfer_attempts/4/logs') return json(200, logs);
    if (key === 'POST /v1/contacts/transfer_attempts/4') {
      current = attempt({ reverted: true });
      return json(200, current);
    }
    return undefined;
  });
  return { includes: (key: string) => seen.some((r) => r.key === key) };
}

beforeEach(() => {
  vi.stubGlobal(
    'WebSocket',
    class {
      readyState = 0;
      send() {}
      close() {}
    },
  );
  // biome-ignore lint/suspicious/noDocumentCookie: the fake server's CSRF cookie
  document.cookie = 'csrf_token=t0k';
  current = attempt();
});
afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

async function render() {
  const router = createMemoryRouter([{ path: '/contacts/transfers', element: <TransfersPage /> }], {
    initialEntries: ['/contacts/transfers?attempt=4'],
  });
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider>
        <RouterProvider router={router} />
      </MantineProvider>
    </QueryClientProvider>,
  );
}

describe('/contacts/transfers', () => {
  it('asks before reverting, then shows the rows as moved back, not moved', async () => {
    const seen = server();
    await render();
    await findByText(/^2 of 2 contacts moved ·/);
    expect(queryByText('Moved')).not.toBeNull();
    await click(await findButton('Revert transfer'));
    await findByText(/Move the 2 contacts of transfer #4 back/);
    expect(seen.includes('POST /v1/contacts/transfer_attempts/4')).toBe(false);
    const dialog = await waitFor(() => document.querySelector('[role="dialog"]'), 'the confirmation');
    await click(Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Revert transfer')!);
    await findByText(/^2 contacts moved back to their previous owners ·/);
    await findByText('Moved back');
    expect(queryByText('Moved')).toBeNull();
    expect(document.querySelector('[aria-label="Status reverted"]')).not.toBeNull();
  });
});
