import type { ContactDetail } from '@harbor/shared';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { click, findButton, findByLabel, mount, queryByLabel, unmount, waitFor } from '../../test/dom';
import { fakeServer } from '../../test/server';
import { differingFields, MergeDialog } from './MergeDialog';

const json = (status: number, body?: unknown) =>
  new Response(JSON.stringify(body ?? {}), { status, headers: { 'Content-Type': 'application/json' } });

const base = {
  type: 'lead',
  email_status: 'unknown',
  phone_type: null,
  secondary_phone: null,
  date_of_birth: null,
  age: null,
  gender: null,
  gender_label: null,
  language: null,
  address: null,
  address2: null,
  city: null,
  state: null,
  zip: null,
  county: null,
  medicare_number: null,
  part_a_effective: null,
  part_b_effective: null,
  status: null,
  agentflow_status: null,
  source: null,
  api_vendor: null,
  category: null,
  owner: { id: 7, name: 'Angela Diaz' },
  pool: null,
  group: null,
  tags: [],
  linked_contact: null,
  note: null,
  is_new: false,
  last_activity: null,
  deleted_at: null,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  timeline: [],
} as const;
const kept = {
  ...base,
  id: 1,
  number: 100001,
  first_name: 'Rosa',
  last_name: 'Parks',
  full_name: 'Rosa Parks',
  email: null,
  phone: '1-555-700-0001',
  city: 'Montgomery',
} as unknown as ContactDetail;
const dup = {
  ...base,
  id: 2,
  number: 100002,
  first_name: 'Rosa',
  last_name: 'Parks',
  full_name: 'Rosa Parks',
  email: 'rosa@example.com',
  phone: '1-555-700-0002',
  city: 'Montgomery',
} as unknown as ContactDetail;

afterEach(async () => {
  await unmount();
  vi.unstubAllGlobals();
});

describe('differingFields', () => {
  it("lists only fields that differ, defaulting to the kept record's value, else the first that has one", () => {
    const { fields, defaults } = differingFields([kept, dup], kept.id);
    expect(fields).toEqual(['email', 'phone']);
    expect(defaults).toEqual({ email: dup.id, phone: kept.id });
  });
});

describe('MergeDialog', () => {
  it('shows both records side by side and sends the value the person picked for each differing field', async () => {
    const sent: unknown[] = [];
    fakeServer(({ key, body }) => {
      if (key === 'GET /v1/health') {
        // biome-ignore lint/suspicious/noDocumentCookie: the fake server sets the CSRF cookie
        document.cookie = 'csrf_token=t0k';
        return json(200, { status: 'ok', version: 'test' });
      }
      if (key === 'GET /v1/contacts/100001') return json(200, kept);
      if (key === 'GET /v1/contacts/100002') return json(200, dup);
      if (key === 'PATCH /v1/contacts/merge') {
        sent.push(body);
        return json(200, { kept_id: 1, merged_ids: [2], changes: {} });
      }
      return undefined;
    });
    const done = vi.fn();
    await mount(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MantineProvider>
          <MemoryRouter>
            <MergeDialog contacts={[kept, dup]} onDone={done} onCancel={() => {}} />
          </MemoryRouter>
        </MantineProvider>
      </QueryClientProvider>,
    );
    // The duplicate's email is picked by default (the kept record has none); the person keeps the duplicate's phone.
    const email = (await findByLabel('Email: rosa@example.com (#100002)')) as HTMLInputElement;
    expect(email.checked).toBe(true);
    expect(queryByLabel('City: Montgomery (#100001)')).toBeNull();
    await click(await findByLabel('Phone: 1-555-700-0002 (#100002)'));
    await click(await findButton('Merge into #100001'));
    await waitFor(() => done.mock.calls.length > 0, 'merge done');
    expect(sent).toEqual([{ kept_id: 1, ids: [2], choices: { email: 2, phone: 2 } }]);
    expect(done).toHaveBeenCalledWith('2 contacts merged into one.');
  });
});
