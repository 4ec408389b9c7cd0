import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findByText, mount, queryByLabel, unmount, waitFor } from '../../test/dom';
import { fakeServer, json } from '../../test/server';
import { ContactsCount, countLabel } from './ContactsCount';

beforeEach(() => {
  // biome-ignore lint/suspicious/noDocumentCookie: the fake server's CSRF cookie
  document.cookie = 'csrf_token=t0k';
});
afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

/** Answers the count route with `reply` once `release` is called, so the loading state can be seen. */
function countServer(reply: unknown) {
  let release: () => void = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  const seen = fakeServer(async ({ key }) => {
    if (key !== 'PATCH /v1/contacts/count') return undefined;
    await gate;
    return json(200, reply);
  });
  return { seen, release: () => release() };
}

const show = (scope = { q: 'ohnso' }) =>
  mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MantineProvider>
        <ContactsCount scope={scope} />
      </MantineProvider>
    </QueryClientProvider>,
  );

describe('ContactsCount', () => {
  it('shows its own loading state, then the exact count', async () => {
    const server = countServer({ count: 4303, exact: true, margin: null });
    await show();
    await waitFor(() => document.querySelector('[aria-label="Counting contacts"]'), 'the loading state');
    server.release();
    await findByText('4,303 contacts');
    expect(server.seen[0]?.body).toEqual({ q: 'ohnso' });
  });

  it('says "about" for an estimate, rounded, and how close it is', async () => {
    countServer({ count: 371_636, exact: false, margin: 0.024 }).release();
    await show({ q: '' });
    const el = await findByText('about 371,600 contacts');
    expect(el.getAttribute('aria-label')).toBe(
      'about 371,600 contacts. Estimated from a random sample of the book; within ±2.4% (99% confidence).',
    );
    expect(queryByLabel('Counting contacts')).toBeNull();
  });

  it('labels counts for a sentence', () => {
    expect(countLabel(undefined)).toBeNull();
    expect(countLabel({ count: 1, exact: true, margin: null })).toBe('1');
    expect(countLabel({ count: 9_999, exact: false, margin: 0.02 })).toBe('about 9,999');
    expect(countLabel({ count: 1_234_567, exact: false, margin: 0.01 })).toBe('about 1,235,000');
  });
});
