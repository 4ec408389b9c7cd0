import type { CurrentUser } from '@harbor/shared';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { App } from './App';
import { openProcessNotification } from './stores/processNotification';
import { click, findButton, findByLabel, findByText, mount, queryByText, type, unmount, waitFor } from './test/dom';
import { makeUser } from './test/fixtures';
import { fakeServer } from './test/server';

type Route = (init: RequestInit, url: URL) => Response | undefined;
const json = (status: number, body?: unknown) =>
  new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });

/** Routes keyed "METHOD /path"; anything unrouted fails the test (test/server.ts). */
/** The dashboard's follow-up queue asks for today's events wherever a test lands there: none, unless a test says. */
const noEventsToday: Route = (_init, url) =>
  json(200, {
    data: [],
    meta: {
      start_date: url.searchParams.get('start_date') ?? '',
      end_date: url.searchParams.get('end_date') ?? '',
      count: 0,
      truncated: false,
    },
  });

function server(routes: Record<string, Route>) {
  // The dashboard's Medicare dates card lists a few contacts: none here.
  const noContacts: Route = () =>
    json(200, { data: [], meta: { current_page: 1, limit: 5, has_more: false, next_cursor: null } });
  const table: Record<string, Route> = { 'GET /v1/events': noEventsToday, 'PATCH /v1/contacts': noContacts, ...routes };
  return fakeServer(({ key, init, url }) => table[key]?.(init, url));
}

class FakeWebSocket {
  static opened: FakeWebSocket[] = [];
  readyState = 0;
  sent: string[] = [];
  onopen: ((e: unknown) => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  onclose: ((e: unknown) => void) | null = null;
  onerror: ((e: unknown) => void) | null = null;
  constructor(readonly url: string) {
    FakeWebSocket.opened.push(this);
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {
    this.readyState = 3;
  }
  serverSends(frame: unknown) {
    this.readyState = 1;
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

const health = () => {
  // biome-ignore lint/suspicious/noDocumentCookie: the fake server sets the CSRF cookie
  document.cookie = 'csrf_token=t0k';
  return json(200, { status: 'ok', version: 'test' });
};

beforeEach(() => {
  FakeWebSocket.opened = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
  sessionStorage.clear();
  localStorage.clear();
});

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('sign-in', () => {
  it('signs in through the one-time-code step and lands on the dashboard', async () => {
    const user = makeUser({ roles: ['manager'], profile: { ...makeUser().profile, account_type: 'manager' } });
    const seen = server({
      'GET /v1/health': health,
      'POST /v1/sessions': (init) => {
        const body = JSON.parse(String(init.body));
        if (body.otp_code) return json(200, { user });
        if (body.password === 'right') return json(200, { otp_secret: true, last_otp_at: null, otp_method: 'email' });
        return json(401, { errors: { user: ['Invalid email or password'] } });
      },
      'GET /v1/users/me': () => json(200, user),
    });
    window.history.replaceState(null, '', '/login');
    await mount(<App />);

    await type(await findByLabel('Email or username'), 'ada@example.test');
    await type(await findByLabel('Password'), 'wrong');
    await click(await findButton('Sign in'));
    await findByText('Invalid email or password');

    await type(await findByLabel('Password'), 'right');
    await click(await findButton('Sign in'));
    await findByText(/We emailed you a 6-digit code/);
    const emailMe = await findButton('Email me a code');
    expect(emailMe.tagName).toBe('A');
    await type(await findByLabel('Authentication code'), '123456');
    await click(await findButton('Verify'));

    await findByText('Welcome, Ada');
    expect(queryByText('Acme Insurance · Manager')).not.toBeNull();
    expect(seen.filter((s) => s.key === 'POST /v1/sessions').map((s) => s.body)).toEqual([
      { email: 'ada@example.test', password: 'wrong' },
      { email: 'ada@example.test', password: 'right' },
      { otp_code: '123456' },
    ]);
    expect(window.location.pathname).toBe('/');
  });

  it("continues a single sign-on that needs the person's own code at the code step", async () => {
    const user = makeUser({ roles: ['agent'] });
    const seen = server({
      'GET /v1/health': health,
      'POST /v1/sessions/sso': () => json(200, { otp_secret: true, last_otp_at: null, otp_method: 'app' }),
      'POST /v1/sessions': () => json(200, { user }),
      'GET /v1/users/me': () => json(200, user),
    });
    window.history.replaceState(null, '', '/api/auth/callback?code=abc&state=xyz');
    await mount(<App />);
    await type(await findByLabel('Authentication code'), '654321');
    await click(await findButton('Verify'));
    await findByText('Welcome, Ada');
    expect(seen.filter((s) => s.key.startsWith('POST')).map((s) => [s.key, s.body])).toEqual([
      ['POST /v1/sessions/sso', { code: 'abc', state: 'xyz' }],
      ['POST /v1/sessions', { otp_code: '654321' }],
    ]);
  });

  it('asks for reset instructions from the Forgot password? link and shows the reply', async () => {
    const seen = server({
      'GET /v1/health': health,
      'POST /v1/users/reset_password_instructions': () =>
        json(200, { message: 'If that email is registered, instructions are on their way.' }),
    });
    window.history.replaceState(null, '', '/login');
    await mount(<App />);
    await click(await findButton('Forgot password?'));
    expect(window.location.search).toBe('?step=forgot');
    await type(await findByLabel('Email'), 'ada@example.test');
    await click(await findButton('Send reset instructions'));
    await findByText('If that email is registered, instructions are on their way.');
    const last = seen.at(-1);
    expect({ key: last?.key, body: last?.body }).toEqual({
      key: 'POST /v1/users/reset_password_instructions',
      body: { email: 'ada@example.test' },
    });
  });

  it('sends a signed-out visitor of a guarded page to /login', async () => {
    server({ 'GET /v1/users/me': () => json(401, { errors: { user: ['Not signed in'] } }) });
    window.history.replaceState(null, '', '/account/profile');
    await mount(<App />);
    await findByLabel('Email or username');
    expect(window.location.pathname).toBe('/login');
  });
});

describe('sign-in with a recovery code', () => {
  it('offers a recovery code at the code step and signs in with it', async () => {
    const user = makeUser({ roles: ['agent'] });
    let signedIn = false;
    const seen = server({
      'GET /v1/health': health,
      'POST /v1/sessions': (init) => {
        const body = JSON.parse(String(init.body));
        if (body.password) return json(200, { otp_secret: true, last_otp_at: null, otp_method: 'app' });
        if (body.recovery_code !== 'k7m2-q9xw-4hfd') {
          return json(422, { errors: { recovery_code: ['is not one of your unused recovery codes'] } });
        }
        signedIn = true;
        return json(200, { user });
      },
      'GET /v1/users/me': () => (signedIn ? json(200, user) : json(401, { errors: { user: ['You need to sign in'] } })),
    });
    window.history.replaceState(null, '', '/login');
    await mount(<App />);
    await type(await findByLabel('Email or username'), 'ada@example.test');
    await type(await findByLabel('Password'), 'right');
    await click(await findButton('Sign in'));
    await click(await findButton('Use a recovery code'));
    await type(await findByLabel('Recovery code'), 'aaaa-bbbb-cccc');
    await click(await findButton('Verify'));
    await findByText('is not one of your unused recovery codes');
    await type(await findByLabel('Recovery code'), 'k7m2-q9xw-4hfd');
    await click(await findButton('Verify'));
    await findByText('Welcome, Ada');
    expect(window.location.pathname).toBe('/');
    expect(seen.filter((s) => s.key === 'POST /v1/sessions').map((s) => s.body)).toEqual([
      { email: 'ada@example.test', password: 'right' },
      { recovery_code: 'aaaa-bbbb-cccc' },
      { recovery_code: 'k7m2-q9xw-4hfd' },
    ]);
  });
});

describe('access guard in the shell', () => {
  it('blocks with the Terms until accepted', async () => {
    let current: CurrentUser = makeUser({ tos: false, 'paid_user?': false });
    server({
      'GET /v1/health': health,
      'GET /v1/users/me': () => json(200, current),
      'PATCH /v1/users/accept_tos': () => {
        current = { ...current, tos: true, 'paid_user?': true };
        return json(200, current);
      },
    });
    window.history.replaceState(null, '', '/');
    await mount(<App />);
    await findByText('Terms of Use');
    expect(window.location.pathname).toBe('/'); // the unpaid redirect waits for the terms
    expect(queryByText('Welcome, Ada')).toBeNull();
    await click(await findButton('Accept'));
    await findByText('Welcome, Ada');
  });

  it('sends an unpaid account to /billing', async () => {
    server({
      'GET /v1/users/me': () => json(200, makeUser({ 'paid_user?': false })),
      // What /billing asks for: the account (no plan, no card) and its empty history.
      'GET /v1/accounts/info': () =>
        json(200, {
          info: { paid: false, company: 'Acme', subscription: null },
          plans: [],
          payment_infos: [],
          chosen_plan: null,
        }),
      'GET /v1/accounts/history': () =>
        json(200, { data: [], meta: { current_page: 1, limit: 10, total_count: 0, total_pages: 0 } }),
    });
    window.history.replaceState(null, '', '/');
    await mount(<App />);
    await findByText('Your account is not active');
    expect(window.location.pathname).toBe('/billing');
  });

  it('sends a forced password change to the password tab', async () => {
    server({ 'GET /v1/users/me': () => json(200, makeUser({ 'change_password?': true })) });
    window.history.replaceState(null, '', '/');
    await mount(<App />);
    await findByText('You must change your password before continuing');
    expect(`${window.location.pathname}${window.location.search}`).toBe('/account/profile?tab=password');
  });
});

describe('the shell', () => {
  it('shows the impersonation banner and returns to the admin on Return', async () => {
    const admin = makeUser({
      id: 1,
      roles: ['sub_admin', 'admin'],
      profile: { ...makeUser().profile, first_name: 'Grace', last_name: 'Hopper', account_type: 'sub_admin' },
    });
    const ada = makeUser({ login_stack: [{ kind: 'impersonating', user_id: 1, name: 'Grace Hopper' }] });
    server({
      'GET /v1/health': health,
      'GET /v1/users/me': () => json(200, ada),
      'GET /v1/users/office_locations': () =>
        json(200, { data: [], meta: { current_page: 1, limit: 100, total_count: 0, total_pages: 0 } }),
      'DELETE /v1/sessions': () => json(200, { user: admin }),
    });
    window.history.replaceState(null, '', '/account/profile');
    await mount(<App />);
    await findByText('You are signed in as Ada Lovelace on behalf of Grace Hopper');
    await click(await findButton('Return'));
    await findByText('Welcome, Grace');
    expect(window.location.pathname).toBe('/');
    expect(queryByText(/on behalf of/)).toBeNull();
  });

  it('signs out: clears harbor: storage and goes to /login', async () => {
    server({
      'GET /v1/health': health,
      'GET /v1/users/me': () => json(200, makeUser()),
      'DELETE /v1/sessions': () => new Response(null, { status: 204 }),
    });
    localStorage.setItem('harbor:0.2.37:saved_search', '{"q":"smith"}');
    sessionStorage.setItem('harbor:0.2.37:filters', '{}');
    localStorage.setItem('other-app', 'keep');
    window.history.replaceState(null, '', '/');
    await mount(<App />);
    // The name shows once per screen width (a visible one from sm up, a hidden one below); happy-dom has no CSS.
    await click(await findButton(/^User menu for Ada Lovelace/));
    await click(await findButton('Sign out'));
    await findByLabel('Email or username');
    expect(window.location.pathname).toBe('/login');
    expect(localStorage.getItem('harbor:0.2.37:saved_search')).toBeNull();
    expect(sessionStorage.getItem('harbor:0.2.37:filters')).toBeNull();
    expect(localStorage.getItem('other-app')).toBe('keep');
  });

  it('applies a theme change at once', async () => {
    let current = makeUser();
    server({
      'GET /v1/health': health,
      'GET /v1/users/me': () => json(200, current),
      'PATCH /v1/users/update_theme': (init) => {
        current = { ...current, profile: { ...current.profile, ...JSON.parse(String(init.body)) } };
        return json(200, current);
      },
    });
    window.history.replaceState(null, '', '/account/profile?tab=preferences');
    await mount(<App />);
    await type(await findByLabel('Font size'), 'large');
    await waitFor(() => document.documentElement.style.fontSize === '18px', 'root font size 18px');
    await type(await findByLabel('Background'), 'dark');
    await waitFor(
      () => document.documentElement.getAttribute('data-mantine-color-scheme') === 'dark',
      'dark color scheme',
    );
  });
});

describe('live connection and notifications', () => {
  it('connects in the shell quietly and puts notifications under the bell', async () => {
    server({ 'GET /v1/users/me': () => json(200, makeUser()) });
    window.history.replaceState(null, '', '/');
    await mount(<App />);
    await findByText('Welcome, Ada');
    const socket = await waitFor(() => FakeWebSocket.opened[0], 'a socket');
    expect(socket.url).toBe(`ws://${window.location.host}/cable`);

    const identifier = JSON.stringify({ channel: 'NotificationsChannel' });
    await act(async () => socket.serverSends({ type: 'welcome' }));
    // The shell follows the user's notifications and their texts (the inbox and its toasts live on SmsChannel).
    expect(socket.sent.map((f) => JSON.parse(f))).toEqual([
      { command: 'subscribe', identifier },
      { command: 'subscribe', identifier: JSON.stringify({ channel: 'SmsChannel' }) },
    ]);
    await act(async () => socket.serverSends({ type: 'confirm_subscription', identifier }));
    // A healthy connection shows nothing (no developer badge, issue 8); only trouble is announced.
    expect(queryByText('connected')).toBeNull();

    await act(async () =>
      socket.serverSends({
        identifier,
        message: { type: 'notification', title: 'Import finished', body: '120 contacts added' },
      }),
    );
    // A shape the shared schema refuses is dropped (with a warning), never shown half-read.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await act(async () =>
      socket.serverSends({ identifier, message: { type: 'transfer_attempt', id: 4, status: 'x' } }),
    );
    expect(warn).toHaveBeenCalledWith('Live connection: unexpected notification payload');
    warn.mockRestore();
    // A transfer update becomes a notification too, and opens the process notification with its link.
    await act(async () =>
      socket.serverSends({
        identifier,
        message: {
          type: 'transfer_attempt',
          id: 4,
          status: 'complete',
          reverting: false,
          reverted: true,
          processed: 3,
          total: 3,
          title: 'Transfer reverted',
          body: 'Transfer #4: contacts moved back from Tyler Brooks.',
          link: '/contacts/transfers?attempt=4',
        },
      }),
    );
    const card = await findByLabel('Process notification');
    expect(card.textContent).toContain('Transfer #4: contacts moved back from Tyler Brooks.');
    const bell = await findButton('Notifications, 2 unread');
    await click(bell);
    await findByText('Import finished');
    expect(queryByText('120 contacts added')).not.toBeNull();
    expect(queryByText('Transfer reverted')).not.toBeNull();
  });

  it('does not open the live connection on public pages', async () => {
    server({});
    window.history.replaceState(null, '', '/terms-of-use');
    await mount(<App />);
    await findByText('Terms of use');
    expect(FakeWebSocket.opened).toHaveLength(0);
  });
});

describe('development inbox', () => {
  it('lists mail, opens one, sandboxes its HTML and links its text', async () => {
    const seen = server({
      'GET /v1/dev/mails': () =>
        json(200, {
          data: [
            {
              id: 3,
              to: 'ada@example.test',
              from: 'no-reply@harbor.test',
              subject: 'Reset your password',
              created_at: '2025-01-15T10:00:00Z',
            },
          ],
        }),
      'GET /v1/dev/mails/3': () =>
        json(200, {
          id: 3,
          to: 'ada@example.test',
          from: 'no-reply@harbor.test',
          subject: 'Reset your password',
          text: 'Open http://localhost:5173/reset-password?reset_password_token=abc to continue.',
          html: '<p>Open the <a href="#">link</a></p><script>parent.alert(1)</script>',
          created_at: '2025-01-15T10:00:00Z',
        }),
    });
    window.history.replaceState(null, '', '/dev/inbox');
    await mount(<App />);
    await click(await findByText('Reset your password'));
    const link = await waitFor(
      () => document.querySelector<HTMLAnchorElement>('a[href^="http://localhost:5173/reset-password"]'),
      'the reset link',
    );
    expect(link.textContent).toBe('http://localhost:5173/reset-password?reset_password_token=abc');
    const frame = document.querySelector('iframe');
    expect(frame?.getAttribute('sandbox')).toBe('');
    expect(frame?.getAttribute('srcdoc')).toContain('<p>Open the');
    // The page's own first request must not be mistaken for one left over from a previous page.
    expect(seen.filter((r) => r.key === 'GET /v1/dev/mails')).toHaveLength(1);
  });
});

describe('process notification', () => {
  it('opens bottom-right with a progress indicator and closes', async () => {
    server({ 'GET /v1/users/me': () => json(200, makeUser()) });
    window.history.replaceState(null, '', '/');
    await mount(<App />);
    await findByText('Welcome, Ada');
    await act(async () =>
      openProcessNotification({ text: 'Importing contacts…', linkUrl: '/contacts/imports', linkText: 'See imports' }),
    );
    await findByText('Importing contacts…');
    expect(document.querySelector('[aria-label="In progress"]')).not.toBeNull();
    expect(queryByText('See imports')).not.toBeNull();
    await click(await findButton('Close process notification'));
    await waitFor(() => !queryByText('Importing contacts…'), 'the card to close');
  });
});
