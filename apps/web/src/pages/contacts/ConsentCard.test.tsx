import type { ConsentRecord, CurrentUser } from '@harbor/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentUserContext } from '../../auth/session';
import { click, findButton, findByText, mount, queryByText, unmount } from '../../test/dom';
import { makeUser } from '../../test/fixtures';
import { fakeServer, json, routes } from '../../test/server';
import { ConsentCard } from './ConsentCard';

const channel = (c: string, over: Record<string, unknown> = {}) => ({
  channel: c,
  status: 'unknown',
  since: null,
  source: null,
  detail: null,
  recorded_by: null,
  address: c === 'email' ? 'ruth@example.com' : '18135550101',
  suppressed: null,
  senders_opted_out: [],
  ...over,
});
const base: ConsentRecord = {
  contact_id: 5,
  channels: [channel('email'), channel('sms'), channel('voice')] as ConsentRecord['channels'],
  permission_to_contact: null,
  history: [],
};

async function render(user: CurrentUser = makeUser()) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  await mount(
    <QueryClientProvider client={client}>
      <CurrentUserContext.Provider value={user}>
        <MantineProvider>
          <ConsentCard number={100005} />
        </MantineProvider>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('ConsentCard', () => {
  it('records an opt-out heard on a call in two clicks and shows it', async () => {
    const after: ConsentRecord = {
      ...base,
      channels: [
        base.channels[0],
        base.channels[1],
        channel('voice', {
          status: 'opted_out',
          since: '2026-11-25T10:00:00Z',
          source: 'call',
          recorded_by: { id: 7, name: 'Ada Lovelace' },
          suppressed: { reason: 'opted_out', since: '2026-11-25T10:00:00Z', detail: null },
        }),
      ] as ConsentRecord['channels'],
    };
    const seen = fakeServer(
      routes({
        'GET /v1/contacts/100005/consent': () => json(200, base),
        'POST /v1/contacts/100005/consent': () => json(200, after),
        'GET /v1/health': () => json(200, {}),
      }),
    );
    await render();
    await findByText('Calls: Unknown');
    await click(await findButton('Record opt-out'));
    await click(await findButton('Calls'));
    await findByText('Calls: Opted out');
    await findByText('Recorded: no more calls.');
    expect(queryByText(/by Ada Lovelace/)).not.toBeNull();
    const post = seen.find((r) => r.key === 'POST /v1/contacts/100005/consent');
    expect(post?.body).toMatchObject({ channels: ['voice'], status: 'opted_out', source: 'call' });
  });

  it('shows the permission to contact with its expiry, and hides it without the Medicare center', async () => {
    const withPtc: ConsentRecord = {
      ...base,
      permission_to_contact: {
        id: 1,
        products: ['medicare_advantage'],
        granted_at: '2026-01-10T12:00:00Z',
        expires_at: '2027-01-10T12:00:00Z',
        source: 'form',
        detail: null,
        recorded_by: null,
        state: 'active',
        revoked_at: null,
      },
    };
    fakeServer(routes({ 'GET /v1/contacts/100005/consent': () => json(200, withPtc) }));
    await render();
    await findByText(/valid until Jan 10, 2027/);
    expect(queryByText(/Medicare Advantage \(Part C\)/)).not.toBeNull();
    await unmount();
    const user = makeUser();
    await render({ ...user, features: { ...user.features, medicare_center: false } });
    await findByText('Email: Unknown');
    expect(queryByText(/Medicare permission to contact/)).toBeNull();
  });
});
