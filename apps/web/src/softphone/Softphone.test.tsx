import { type DeviceToken, INVALID_PHONE_NUMBER, NO_DEVICE_READY } from '@harbor/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, findButton, findByText, mount, queryByLabel, type, unmount } from '../test/dom';
import { fakeServer, json, routes } from '../test/server';
import { requestDial } from './dial';
import { Softphone } from './Softphone';
import { mmss, resetPhone } from './store';

vi.mock('../live/cable', () => ({ subscribe: () => () => {} }));

const token = (over: Partial<DeviceToken> = {}): DeviceToken => ({
  token: null,
  provider: 'none',
  identity: null,
  expires_at: null,
  sip: null,
  message: 'The voice service is not configured on this server.',
  enabled: true,
  hidden: false,
  reasons: [],
  ...over,
});

async function render() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await mount(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <MantineProvider>
          <Softphone />
        </MantineProvider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  await unmount();
  resetPhone();
  vi.unstubAllGlobals();
});

describe('Softphone', () => {
  it('opens from the launcher, says why it cannot call, and refuses a short number with the spec text', async () => {
    fakeServer(routes({ 'GET /v1/dialer/fetch_device_token': () => json(200, token()) }));
    await render();
    await click(await findButton('Open the phone'));
    await findByText(/The voice service is not configured/);
    await type(queryByLabel('Number to call')!, '81355');
    await click(await findButton(/^Call$/));
    await findByText(INVALID_PHONE_NUMBER);
  });

  it('dials through the server first; with no device the spec result is shown', async () => {
    const seen = fakeServer(
      routes({
        'GET /v1/dialer/fetch_device_token': () => json(200, token({ provider: 'twilio', message: null })),
        'GET /v1/health': () => json(200, { status: 'ok' }),
        'POST /v1/dialer/calls': () =>
          json(200, {
            call: { id: 9 },
            params: { To: '18135550100', timeout: 60, callerId: '', cid: '9' },
            max_seconds: 600,
          }),
      }),
    );
    await render();
    await act(async () => requestDial('18135550100', 100005));
    await findByText(NO_DEVICE_READY);
    expect(seen.find((r) => r.key === 'POST /v1/dialer/calls')?.body).toEqual({
      to: '18135550100',
      contact_number: 100005,
    });
  });

  it("shows the dialer's own refusal for a 403 (the quota), not 'Access denied!'", async () => {
    const quota = 'Please request additional minutes from your manager.';
    fakeServer(
      routes({
        'GET /v1/dialer/fetch_device_token': () => json(200, token({ provider: 'twilio', message: null })),
        'GET /v1/health': () => json(200, { status: 'ok' }),
        'POST /v1/dialer/calls': () =>
          json(403, { errors: { user: [quota], dialer: [quota], result: ['Over minutes allocated'] } }),
      }),
    );
    await render();
    await act(async () => requestDial('18135550100'));
    await findByText(quota);
  });

  it('hides itself where the server says so (stage and demo deployments)', async () => {
    fakeServer(routes({ 'GET /v1/dialer/fetch_device_token': () => json(200, token({ hidden: true })) }));
    await render();
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(document.querySelector('[aria-label="Open the phone"]')).toBeNull();
  });

  it('formats the counter as mm:ss', () => {
    expect(mmss(0)).toBe('00:00');
    expect(mmss(61)).toBe('01:01');
    expect(mmss(3599)).toBe('59:59');
  });
});
