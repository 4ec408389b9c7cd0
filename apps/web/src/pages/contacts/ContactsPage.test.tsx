import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../App';
import { click, findButton, findByLabel, findByText, mount, queryByText, type, unmount, waitFor } from '../../test/dom';
import { makeUser } from '../../test/fixtures';

const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

const row = (id: number, first: string, last: string) => ({
  id,
  number: 100000 + id,
  first_name: first,
  last_name: last,
  email: `${first.toLowerCase()}@example.com`,
  phone: '1-555-000-0000',
  city: 'Tampa',
  state: 'FL',
  zip: '33602',
  type: 'lead',
  category: null,
  date_of_birth: null,
  is_new: false,
  owner: { id: 7, name: 'Ada Lovelace' },
  status: null,
  source: null,
  pool: null,
  group: null,
  tags: [],
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  deleted_at: null,
});

type Seen = { key: string; body: any };

function server(routes: Record<string, (body: any) => Response>) {
  const seen: Seen[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = new URL(String(input), window.location.origin);
      const key = `${init.method ?? 'GET'} ${url.pathname}`;
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      seen.push({ key, body });
      await new Promise((r) => setTimeout(r, 0));
      if (init.signal?.aborted) throw new DOMException('The operation was aborted.', 'AbortError');
      const route = routes[key];
      if (!route) return json(404, { errors: { base: ['not here'] } });
      return route(body);
    }),
  );
  return seen;
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
  localStorage.clear();
});
afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('/contacts', () => {
  it('searches (debounced), selects every matching contact and tags them all, showing the count first', {
    timeout: 20_000,
  }, async () => {
    const page = [row(1, 'Margaret', 'Whitfield'), row(2, 'Harold', 'Benson')];
    const seen = server({
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': () =>
        json(200, {
          data: page,
          meta: {
            current_page: 1,
            limit: 50,
            total_count: 120,
            total_pages: 3,
            count_capped: false,
            count_estimated: false,
            next_cursor: 'c2',
          },
        }),
      'POST /v1/contacts/selected_items': () => json(200, { count: 120, ids: [] }),
      'PATCH /v1/contacts/update_tags_group': () => json(200, { count: 120 }),
    });
    window.history.replaceState(null, '', '/contacts');
    await mount(<App />);
    await findByText('Whitfield, Margaret');

    await type(await findByLabel('Search contacts'), 'mar');
    // Nothing is asked for while typing; the debounced query goes out once.
    expect(seen.filter((s) => s.key === 'PATCH /v1/contacts' && s.body.q === 'mar')).toHaveLength(0);
    await waitFor(
      () => seen.some((s) => s.key === 'PATCH /v1/contacts' && s.body.q === 'mar'),
      'debounced search',
      2000,
    );

    // While the new page loads, the old rows stay in view but cannot be selected.
    const pageBox = (await findByLabel('Select this page')) as HTMLInputElement;
    await waitFor(() => !pageBox.disabled, 'the new page');
    await click(pageBox);
    await click(await findButton('Select all 120 matching contacts'));
    await findByText('Every contact matching this filter is selected (120).');

    await click(await findButton('Bulk actions'));
    await click(await findButton('Add tags'));
    await findByText('This will affect 120 contacts.');
    expect(seen.find((s) => s.key === 'POST /v1/contacts/selected_items')?.body).toMatchObject({
      all: true,
      contacts_scope: { q: 'mar', contact_group: 'all', pool_id: 'mine' },
    });
    await type(await findByLabel('Tag names'), 'VIP, Turning 65');
    const dialog = await waitFor(() => document.querySelector('[role="dialog"]'), 'the action dialog');
    const confirm = Array.from(dialog.querySelectorAll('button')).find((b) => b.textContent === 'Add tags')!;
    await waitFor(() => !confirm.disabled, 'the confirm button to enable');
    await click(confirm);
    await waitFor(() => seen.some((s) => s.key === 'PATCH /v1/contacts/update_tags_group'), 'tag request');
    expect(seen.find((s) => s.key === 'PATCH /v1/contacts/update_tags_group')?.body).toMatchObject({
      all: true,
      contacts_scope: { q: 'mar' },
      tags: [{ name: 'VIP' }, { name: 'Turning 65' }],
      action: 'add',
    });
  });

  it('orders by a clicked header, pages with the cursor, and hides the downline view from agents', async () => {
    const seen = server({
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': (body) =>
        json(200, {
          data: [row(body.cursor ? 3 : 1, body.cursor ? 'Second' : 'First', 'Page')],
          meta: {
            current_page: body.page,
            limit: 50,
            total_count: 60,
            total_pages: 2,
            count_capped: false,
            count_estimated: false,
            next_cursor: body.cursor ? null : 'c2',
          },
        }),
    });
    window.history.replaceState(null, '', '/contacts');
    await mount(<App />);
    await findByText('Page, First');
    expect(queryByText('Downline')).toBeNull();
    await click(await findButton('Next page'));
    await findByText('Page, Second');
    expect(seen.filter((s) => s.key === 'PATCH /v1/contacts').at(-1)?.body).toMatchObject({ cursor: 'c2', page: 2 });
    await click(await findButton('Sort by Email'));
    await waitFor(() =>
      seen.some(
        (s) =>
          s.key === 'PATCH /v1/contacts' && s.body.order_field === 'email' && s.body.order === 'ASC' && !s.body.cursor,
      ),
    );
    await click(await findButton('Sort by Email'));
    await waitFor(() =>
      seen.some((s) => s.key === 'PATCH /v1/contacts' && s.body.order_field === 'email' && s.body.order === 'DESC'),
    );
  });
});
