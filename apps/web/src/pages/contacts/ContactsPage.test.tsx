import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../../App';
import { click, findButton, findByLabel, findByText, mount, queryByText, type, unmount, waitFor } from '../../test/dom';
import { makeUser } from '../../test/fixtures';
import { fakeServer } from '../../test/server';

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

const TAGS = [
  { id: 3, name: 'Turning 65', color: 'purple', contacts_count: 4 },
  { id: 4, name: 'T65', color: 'blue', contacts_count: 9 },
];
const tagList = (search?: string) => {
  const data = TAGS.filter((t) => !search || t.name.toLowerCase().includes(search.toLowerCase()));
  return { data, meta: { current_page: 1, limit: 500, total_count: data.length, total_pages: 1 } };
};
const meta = (total: number, next: string | null = null) => ({
  current_page: 1,
  limit: 50,
  total_count: total,
  total_pages: Math.ceil(total / 50),
  count_capped: false,
  count_estimated: false,
  next_cursor: next,
});
const LOOKUPS = {
  'GET /v1/statuses': () =>
    json(200, {
      data: [
        { id: 1, name: 'New', color: 'blue', position: 0, active: true },
        { id: 2, name: 'Sold', color: 'green', position: 1, active: true },
      ],
    }),
  'GET /v1/agentflow_statuses': () => json(200, { groups: [], ungrouped: [] }),
  'GET /v1/sources': () => json(200, { data: [{ id: 5, name: 'Facebook', active: true }] }),
  'GET /v1/groups': () => json(200, { data: [] }),
  'GET /v1/pools': () => json(200, { data: [] }),
  'PATCH /v1/tags': (body: any) => json(200, tagList(body?.search)),
};

function server(routes: Record<string, (body: any) => Response>): Seen[] {
  return fakeServer(({ key, body }) => routes[key]?.(body));
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
    timeout: 60_000,
  }, async () => {
    const page = [row(1, 'Margaret', 'Whitfield'), row(2, 'Harold', 'Benson')];
    const seen = server({
      ...LOOKUPS,
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': () =>
        json(200, {
          data: page,
          meta: { current_page: 1, limit: 50, has_more: true, next_cursor: 'c2' },
        }),
      'PATCH /v1/contacts/count': () => json(200, { count: 120, exact: true, margin: null }),
      'POST /v1/contacts/selected_items': () => json(200, { count: 120, ids: [] }),
      'PATCH /v1/contacts/update_tags_group': () => json(200, { count: 120 }),
      'PATCH /v1/tags': (body) => json(200, tagList(body?.search)),
      'POST /v1/tags': (body) => json(201, { id: 90, name: body.name, color: body.color, contacts_count: 0 }),
    });
    window.history.replaceState(null, '', '/contacts');
    await mount(<App />);
    await findByText('Whitfield, Margaret');
    // The count comes on its own request, with the page's scope and no paging.
    await findByText('120 contacts');
    expect(seen.find((s) => s.key === 'PATCH /v1/contacts/count')?.body).toMatchObject({ contact_group: 'all' });

    const search = (await findByLabel('Search contacts')) as HTMLInputElement;
    await type(search, 'm');
    await type(search, 'ma');
    await type(search, 'mar');
    // Keystrokes in quick succession make one query, for the last text (not one per keystroke). Whether a request
    // has gone out before the pause is not asserted: on a loaded machine one keystroke can outlast the debounce.
    await waitFor(
      () => seen.some((s) => s.key === 'PATCH /v1/contacts' && s.body.q === 'mar'),
      'debounced search',
      4000,
    );
    await act(() => new Promise((r) => setTimeout(r, 400)));
    expect(seen.filter((s) => s.key === 'PATCH /v1/contacts' && s.body.q === 'mar')).toHaveLength(1);

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
    // Tags are picked by name; a name not in the list is created in place.
    const tagInput = (await findByLabel('Tags')) as HTMLInputElement;
    await click(tagInput);
    await type(tagInput, 'VIP');
    await click(await findByText('Create tag “VIP”'));
    await waitFor(() => seen.some((s) => s.key === 'POST /v1/tags'), 'the new tag');
    expect(seen.find((s) => s.key === 'POST /v1/tags')?.body).toMatchObject({ name: 'VIP' });
    await type(tagInput, 'Turn');
    await click(await findByText('Turning 65'));
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

  it('filters by name: a status picked by its name goes to the address and the server, and shows as a chip', {
    timeout: 60_000,
  }, async () => {
    const seen = server({
      ...LOOKUPS,
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': () => json(200, { data: [row(1, 'Margaret', 'Whitfield')], meta: meta(1) }),
      'PATCH /v1/contacts/count': () => json(200, { count: 1, exact: true, margin: null }),
    });
    window.history.replaceState(null, '', '/contacts');
    await mount(<App />);
    await findByText('Whitfield, Margaret');
    await click(await findButton('Filters'));
    const status = (await findByLabel('Status')) as HTMLInputElement;
    await click(status);
    await click(await findByText('Sold'));
    await waitFor(() => window.location.search === '?status_id=2' || null, 'the filter in the address');
    await waitFor(
      () =>
        seen.some(
          (s) =>
            s.key === 'PATCH /v1/contacts' && JSON.stringify(s.body.search) === '[{"field":"status_id","value":["2"]}]',
        ),
      'the filtered request',
    );
    await findByText('Status: Sold');
    await click(await findButton('Remove filter Status: Sold'));
    await waitFor(() => window.location.search === '' || null, 'the filter removed');
  });

  it('opens a shared address as that view: filters, sort, page and page size; Back returns to it', {
    timeout: 60_000,
  }, async () => {
    const seen = server({
      ...LOOKUPS,
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': (body) =>
        json(200, { data: [row(body.page, `Page${body.page}`, 'Row')], meta: { ...meta(400, 'next'), limit: 100 } }),
      'PATCH /v1/contacts/count': () => json(200, { count: 400, exact: true, margin: null }),
    });
    window.history.replaceState(null, '', '/contacts?status_id=2&tag_ids=4&sort=email&order=desc&page=2&size=100');
    await mount(<App />);
    await findByText('Row, Page2');
    expect(seen.find((s) => s.key === 'PATCH /v1/contacts')?.body).toMatchObject({
      search: [
        { field: 'status_id', value: ['2'] },
        { field: 'tag_ids', value: ['4'] },
      ],
      order_field: 'email',
      order: 'DESC',
      page: 2,
      limit: 100,
    });
    await findByText('Status: Sold');
    await findByText('Tag: T65');
    await click(await findButton('Next page'));
    await findByText('Row, Page3');
    expect(new URLSearchParams(window.location.search).get('page')).toBe('3');
    await act(async () => window.history.back());
    await findByText('Row, Page2');
    expect(new URLSearchParams(window.location.search).get('page')).toBe('2');
    expect(new URLSearchParams(window.location.search).get('status_id')).toBe('2');
  });

  it('says so when a search finds nothing, and offers to clear it', { timeout: 60_000 }, async () => {
    server({
      ...LOOKUPS,
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': (body) =>
        json(200, body.q ? { data: [], meta: meta(0) } : { data: [row(1, 'Margaret', 'Whitfield')], meta: meta(1) }),
      'PATCH /v1/contacts/count': (body) => json(200, { count: body.q ? 0 : 1, exact: true, margin: null }),
    });
    window.history.replaceState(null, '', '/contacts?q=zzyzx');
    await mount(<App />);
    await findByText('No contacts match “zzyzx”.');
    await click(await findButton('Clear search and filters'));
    await findByText('Whitfield, Margaret');
    expect(window.location.search).toBe('');
  });

  it('orders by a clicked header, pages by number in the address, and hides the downline view from agents', async () => {
    const seen = server({
      ...LOOKUPS,
      'GET /v1/users/me': () => json(200, makeUser()),
      'GET /v1/users/quick_filters': () => json(200, []),
      'PATCH /v1/contacts': (body) =>
        json(200, {
          data: [row(body.page === 2 ? 3 : 1, body.page === 2 ? 'Second' : 'First', 'Page')],
          meta: {
            current_page: body.page,
            limit: 50,
            total_count: 60,
            total_pages: 2,
            count_capped: false,
            count_estimated: false,
            next_cursor: body.page === 2 ? null : 'c2',
          },
        }),
      'PATCH /v1/contacts/count': () => json(200, { count: 2, exact: true, margin: null }),
    });
    window.history.replaceState(null, '', '/contacts');
    await mount(<App />);
    await findByText('Page, First');
    expect(queryByText('Downline')).toBeNull();
    await click(await findButton('Next page'));
    await findByText('Page, Second');
    // Within page-number reach the page is a number in the address, so it can be bookmarked.
    expect(seen.filter((s) => s.key === 'PATCH /v1/contacts').at(-1)?.body).toMatchObject({ page: 2, cursor: null });
    expect(window.location.search).toBe('?page=2');
    await click(await findButton('Email'));
    await waitFor(() =>
      seen.some(
        (s) =>
          s.key === 'PATCH /v1/contacts' && s.body.order_field === 'email' && s.body.order === 'ASC' && !s.body.cursor,
      ),
    );
    await click(await findButton('Email'));
    await waitFor(() =>
      seen.some((s) => s.key === 'PATCH /v1/contacts' && s.body.order_field === 'email' && s.body.order === 'DESC'),
    );
    expect(window.location.search).toBe('?sort=email&order=desc');
  });
});
