/** Issue 3 screens in happy-dom: users admin actions, team without actions, single sign-on callback. */
import type { AdminUser, CurrentUser } from '@harbor/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from '../App';
import { click, findButton, findByText, mount, queryButton, unmount } from '../test/dom';
import { makeUser } from '../test/fixtures';
import { fakeServer } from '../test/server';

type Route = (init: RequestInit, url: URL) => Response | undefined;
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

function server(routes: Record<string, Route>) {
  return fakeServer(({ key, init, url }) => routes[key]?.(init, url));
}

const health = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: the fake server sets the CSRF cookie
  document.cookie = 'csrf_token=t0k';
  return json(200, { status: 'ok', version: 'test' });
};

const row = (over: Partial<AdminUser>): AdminUser => ({
  id: 9,
  number: 'U-9',
  email: 'angela@example.test',
  username: 'angela',
  first_name: 'Angela',
  last_name: 'Diaz',
  name: 'Angela Diaz',
  roles: ['agent'],
  account_type: 'agent',
  business_unit: null,
  manager: { id: 5, name: 'Monica Reyes' },
  position_title: null,
  office_location_id: null,
  timezone: 'est',
  about_me: null,
  paid: true,
  relationship_manager: false,
  change_password: false,
  two_fa_required: false,
  has_2fa_enabled: false,
  created_at: '2026-01-01T00:00:00Z',
  ...over,
});
const page = (data: AdminUser[]) => ({
  data,
  meta: { current_page: 1, limit: 25, total_count: data.length, total_pages: 1 },
});

class NoSocket {
  onopen = null;
  onmessage = null;
  onclose = null;
  onerror = null;
  readyState = 0;
  send() {}
  close() {}
}

beforeEach(() => {
  vi.stubGlobal('WebSocket', NoSocket);
  sessionStorage.clear();
  localStorage.clear();
});
afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

const admin = makeUser({
  id: 1,
  roles: ['admin'],
  admin: true,
  profile: { ...makeUser().profile, first_name: 'Alicia', account_type: 'admin' },
  permissions: ['admin.manage', 'users.manage', 'team.view', 'admin.feature_flags'],
});

describe('Admin > Users', () => {
  it('lists users and impersonates one, landing on the dashboard as them', async () => {
    const angela: CurrentUser = makeUser({
      id: 9,
      profile: { ...makeUser().profile, first_name: 'Angela', last_name: 'Diaz' },
      login_stack: [{ kind: 'impersonating', user_id: 1, name: 'Alicia Grant' }],
    });
    const seen = server({
      'GET /v1/health': health,
      'GET /v1/users/me': () => json(200, admin),
      'GET /v1/business_units/manageable': () => json(200, { data: [] }),
      'GET /v1/admin/users': () => json(200, page([row({})])),
      'POST /v1/admin/users/9/login': () => json(200, { user: angela }),
      // Where impersonation lands: the dashboard's follow-up queue and Medicare dates card (their requests come as
      // soon as the dashboard's chunk is loaded, which may be before the test ends).
      'GET /v1/events': () =>
        json(200, { data: [], meta: { start_date: '', end_date: '', count: 0, truncated: false } }),
      'PATCH /v1/contacts': () =>
        json(200, { data: [], meta: { current_page: 1, limit: 5, has_more: false, next_cursor: null } }),
    });
    window.history.replaceState(null, '', '/admin/users');
    await mount(<App />);
    await findByText('Angela Diaz');
    await click(await findButton('Actions for Angela Diaz'));
    await click(await findButton('Impersonate'));
    await findByText('You are signed in as Angela Diaz on behalf of Alicia Grant');
    expect(window.location.pathname).toBe('/');
    expect(seen.find((s) => s.key === 'POST /v1/admin/users/9/login')?.body).toEqual({ login_type: 'impersonate' });
  });
});

describe('Team', () => {
  it('shows a manager their downline with profile links and no admin actions', async () => {
    const manager = makeUser({ roles: ['manager'], permissions: ['team.view', 'users.manage'] });
    server({
      'GET /v1/health': health,
      'GET /v1/users/me': () => json(200, manager),
      'GET /v1/business_units/manageable': () => json(200, { data: [] }),
      'GET /v1/admin/users': () => json(200, page([row({})])),
    });
    window.history.replaceState(null, '', '/team');
    await mount(<App />);
    const link = await findButton('Angela Diaz');
    expect(link.getAttribute('href')).toBe('/team/9');
    expect(queryButton('Actions for Angela Diaz')).toBeNull();
    expect(queryButton('New user')).toBeNull();
  });
});

describe('single sign-on callback', () => {
  it('posts what the provider sent and lands on the dashboard', async () => {
    const seen = server({
      'GET /v1/health': health,
      'POST /v1/sessions/sso': () => json(200, { user: makeUser() }),
      'GET /v1/users/me': () => json(200, makeUser()),
      // The dashboard's follow-up queue.
      'GET /v1/events': () =>
        json(200, { data: [], meta: { start_date: '', end_date: '', count: 0, truncated: false } }),
      // The dashboard's Medicare dates card.
      'PATCH /v1/contacts': () =>
        json(200, { data: [], meta: { current_page: 1, limit: 5, has_more: false, next_cursor: null } }),
    });
    window.history.replaceState(null, '', '/api/auth/callback?code=abc&state=xyz');
    await mount(<App />);
    await findByText('Welcome, Ada');
    expect(seen.find((s) => s.key === 'POST /v1/sessions/sso')?.body).toEqual({ code: 'abc', state: 'xyz' });
  });

  it('names the error kind the server answers', async () => {
    server({
      'GET /v1/health': health,
      'POST /v1/sessions/sso': () => json(400, { errors: { invalid_state: ['The sign-in state does not match.'] } }),
    });
    window.history.replaceState(null, '', '/api/auth/callback?code=abc&state=forged');
    await mount(<App />);
    await findByText(/did not match this browser/);
  });
});
