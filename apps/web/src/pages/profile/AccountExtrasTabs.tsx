/** Account additions: profile details, webpage, favorite users, offices and the addresses you signed in from. */

import { OFFICE_TYPES, positionTitleLabel, positionTitlesFor, type UpdateProfileBody } from '@harbor/shared';
import {
  Alert,
  Badge,
  Button,
  Group,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../api/client';
import { updateDashboard, updateProfile, updateWebpage } from '../../api/people';
import { callQuery } from '../../api/queries';
import { useCurrentUser, useUserMutation } from '../../auth/session';

const fieldError = (error: unknown, f: string) => (error instanceof ApiError ? error.errors[f]?.[0] : undefined);

export function ProfileDetailsForm() {
  const user = useCurrentUser();
  const save = useUserMutation(updateProfile);
  const offices = useQuery(callQuery('GET /v1/users/office_locations'));
  const [form, setForm] = useState({
    first_name: user.profile.first_name,
    last_name: user.profile.last_name,
    about_me: user.profile.about_me ?? '',
    position_title: user.profile.position_title,
    office_location_id: user.profile.office_location_id,
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({ ...form, about_me: form.about_me || null } as UpdateProfileBody);
      }}
    >
      <Stack maw={560} mt="lg">
        <Group grow>
          <TextInput
            label="First name"
            value={form.first_name}
            onChange={(e) => setForm({ ...form, first_name: e.currentTarget.value })}
            error={fieldError(save.error, 'first_name')}
          />
          <TextInput
            label="Last name"
            value={form.last_name}
            onChange={(e) => setForm({ ...form, last_name: e.currentTarget.value })}
            error={fieldError(save.error, 'last_name')}
          />
        </Group>
        <Select
          label="Position title"
          clearable
          data={positionTitlesFor(user.company.variant).map((t) => ({ value: t, label: positionTitleLabel(t) }))}
          value={form.position_title}
          onChange={(v) => setForm({ ...form, position_title: v })}
        />
        <Select
          label="Office"
          clearable
          data={(offices.data?.data ?? []).map((o) => ({ value: String(o.id), label: `${o.name} (${o.office_type})` }))}
          value={form.office_location_id ? String(form.office_location_id) : null}
          onChange={(v) => setForm({ ...form, office_location_id: v ? Number(v) : null })}
        />
        <Textarea
          label="About me"
          rows={3}
          value={form.about_me}
          onChange={(e) => setForm({ ...form, about_me: e.currentTarget.value })}
        />
        {save.isError && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        {save.isSuccess && (
          <Text size="sm" c="green">
            Saved.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save profile
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function WebpageTab() {
  const user = useCurrentUser();
  const save = useUserMutation((body: Parameters<typeof updateWebpage>[1]) => updateWebpage(user.id, body));
  const [form, setForm] = useState({
    subdomain: user.webpage.subdomain ?? '',
    headline: user.webpage.headline ?? '',
    phone: user.webpage.phone ?? '',
    active: user.webpage.active,
    show_email: user.webpage.show_email,
  });
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate({
          ...form,
          subdomain: form.subdomain || null,
          headline: form.headline || null,
          phone: form.phone || null,
        });
      }}
    >
      <Stack maw={480}>
        <TextInput
          label="Subdomain"
          description="Your page's address: <subdomain>.<company domain>"
          value={form.subdomain}
          onChange={(e) => setForm({ ...form, subdomain: e.currentTarget.value })}
          error={fieldError(save.error, 'subdomain')}
        />
        <TextInput
          label="Headline"
          value={form.headline}
          onChange={(e) => setForm({ ...form, headline: e.currentTarget.value })}
        />
        <TextInput
          label="Phone shown"
          value={form.phone}
          onChange={(e) => setForm({ ...form, phone: e.currentTarget.value })}
        />
        <Switch
          label="Show my email"
          checked={form.show_email}
          onChange={(e) => setForm({ ...form, show_email: e.currentTarget.checked })}
        />
        <Switch
          label="Page is live"
          checked={form.active}
          onChange={(e) => setForm({ ...form, active: e.currentTarget.checked })}
        />
        {save.isError && !fieldError(save.error, 'subdomain') && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        {save.isSuccess && (
          <Text size="sm" c="green">
            Saved.
          </Text>
        )}
        <Group>
          <Button type="submit" loading={save.isPending}>
            Save webpage
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

export function FavoritesTab() {
  const user = useCurrentUser();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 250);
  const people = useQuery({
    ...callQuery('GET /v1/users/favorite_lists', { query: { q: q || undefined } }),
    placeholderData: keepPreviousData,
  });
  const save = useUserMutation(updateDashboard);
  // The chosen ones keep their labels while the candidates follow the search.
  const byId = new Map<number, string>();
  for (const p of [...(people.data?.data ?? []), ...(people.data?.candidates ?? [])]) byId.set(p.id, p.name);
  const options = [...byId].map(([id, name]) => ({ value: String(id), label: name }));
  return (
    <Stack maw={480}>
      <Text size="sm" c="dimmed">
        Favorite users appear first wherever you pick a colleague. You can pick your team, your upline and the people
        below you.
      </Text>
      <MultiSelect
        label="Favorite users"
        searchable
        hidePickedOptions
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={people.isFetching ? 'Searching…' : 'Nobody found'}
        data={options}
        value={user.favorite_users.filter((id) => byId.has(id)).map(String)}
        onChange={(v) => save.mutate({ favorite_user_ids: v.map(Number) })}
      />
      {people.isError && (
        <Alert color="red" role="alert">
          {errorMessage(people.error)}
        </Alert>
      )}
      {save.isError && (
        <Alert color="red" role="alert">
          {errorMessage(save.error)}
        </Alert>
      )}
      <Select
        label="Dashboard birthdays"
        allowDeselect={false}
        data={[
          { value: 'today', label: 'Today' },
          { value: 'week', label: 'This week' },
          { value: 'month', label: 'This month' },
        ]}
        value={user.dashboard_info.preferences.birthday_range}
        onChange={(v) => v && save.mutate({ birthday_range: v as 'today' | 'week' | 'month' })}
      />
    </Stack>
  );
}

export function SignInsTab() {
  const ips = useQuery(callQuery('GET /v1/users/auth_ips'));
  const offices = useQuery(callQuery('GET /v1/users/office_locations'));
  return (
    <Stack maw={640}>
      <Text fw={600}>Addresses you signed in from</Text>
      <Table.ScrollContainer minWidth={520}>
        <Table aria-label="Signed-in addresses">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Address</Table.Th>
              <Table.Th>Last sign-in</Table.Th>
              <Table.Th>Sign-ins</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(ips.data?.data ?? []).map((r) => (
              <Table.Tr key={r.ip}>
                <Table.Td>{r.ip}</Table.Td>
                <Table.Td>
                  {new Date(r.last_sign_in_at).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })}
                </Table.Td>
                <Table.Td>{r.sign_in_count}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Text fw={600} mt="md">
        Office locations
      </Text>
      {(offices.data?.data ?? []).map((o) => (
        <Group key={o.id} gap="xs">
          <Badge variant="light" color={o.office_type === OFFICE_TYPES[0] ? 'blue' : 'gray'}>
            {o.office_type}
          </Badge>
          <Text size="sm">
            {o.name}
            {o.city ? `, ${o.city}` : ''}
            {o.state ? ` ${o.state}` : ''}
          </Text>
        </Group>
      ))}
    </Stack>
  );
}
