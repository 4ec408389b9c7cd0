import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CurrentUserContext } from '../../../auth/session';
import {
  click,
  findButton,
  findByLabel,
  findByText,
  mount,
  queryByText,
  type,
  unmount,
  waitFor,
} from '../../../test/dom';
import { makeUser } from '../../../test/fixtures';
import { fakeServer, json } from '../../../test/server';
import { PlanCatalog } from './PlanCatalog';

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

const meta = (n: number) => ({ current_page: 1, limit: Math.max(1, n), total_count: n, total_pages: 1 });
const starter = {
  id: 9,
  product: 'sms',
  name: 'Starter',
  description: '',
  tier: 'premium',
  enterprise: false,
  price: 700,
  units: 1000,
  unit_price: 2,
  min_seats: 1,
  active: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

async function render() {
  const router = createMemoryRouter([{ path: '/', element: <PlanCatalog product="sms" /> }]);
  await mount(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <CurrentUserContext.Provider value={makeUser({ roles: ['admin'], admin: true })}>
        <MantineProvider>
          <RouterProvider router={router} />
        </MantineProvider>
      </CurrentUserContext.Provider>
    </QueryClientProvider>,
  );
}

describe('admin texting plans', () => {
  it('says what to do when there is no plan, and a new plan starts at the price of its tier', async () => {
    // biome-ignore lint/suspicious/noDocumentCookie: the fake server's CSRF cookie
    document.cookie = 'csrf_token=t0k';
    let plans: unknown[] = [];
    const seen = fakeServer(({ key, body }) => {
      if (key === 'GET /v1/admin/sms/sms_plans') return json(200, { data: plans, meta: meta(plans.length) });
      if (key === 'POST /v1/admin/sms/sms_plans') {
        plans = [{ ...starter, ...(body as object) }];
        return json(201, plans[0]);
      }
      return undefined;
    });
    await render();
    await findByText('No texting plans yet');
    expect(queryByText(/Agents can subscribe only to a plan on sale/)).not.toBeNull();
    await click(await findButton('Create the first plan'));
    await type(await findByLabel('Name'), 'Starter');
    const price = (await findByLabel('Price a seat a month (USD)')) as HTMLInputElement;
    // Spec §9: a standard texting seat is $5, a premium one $7.
    expect(price.value).toBe('5.00');
    await type(await findByLabel('Tier'), 'premium');
    await waitFor(() => price.value === '7.00', 'the premium price');
    await click(await findButton('Create plan'));
    const created = await waitFor(() => seen.find((s) => s.key === 'POST /v1/admin/sms/sms_plans'), 'the create');
    expect(created.body).toMatchObject({ name: 'Starter', tier: 'premium', price: 700, units: 1000, unit_price: 2 });
    await findByText('Starter');
    expect(queryByText('No texting plans yet')).toBeNull();
  });
});
