/** Create or edit a user: names, sign-in identity, role (create), upline, business unit, title, time zone. */

import {
  type AdminUser,
  assignableRoles,
  positionTitleLabel,
  positionTitlesFor,
  type Role,
  roleLabel,
  TIME_ZONE_LABELS,
  TIME_ZONES,
  type TimeZone,
  type UpdateUserBody,
} from '@harbor/shared';
import {
  Alert,
  Button,
  Group,
  Modal,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, errorMessage } from '../../../api/client';
import { createUser, updateUser } from '../../../api/people';
import { callQuery, qkUnder } from '../../../api/queries';
import { useCurrentUser } from '../../../auth/session';

interface Props {
  opened: boolean;
  onClose: () => void;
  /** The user being edited; absent = create. */
  user?: AdminUser | null;
}

export function UserFormModal({ opened, onClose, user }: Props) {
  return (
    <Modal opened={opened} onClose={onClose} title={user ? `Edit ${user.name}` : 'New user'} size="lg">
      {opened && <UserForm user={user ?? null} onDone={onClose} />}
    </Modal>
  );
}

function UserForm({ user, onDone }: { user: AdminUser | null; onDone: () => void }) {
  const me = useCurrentUser();
  const queryClient = useQueryClient();
  const owners = useQuery(callQuery('GET /v1/admin/users/owners'));
  const units = useQuery(callQuery('GET /v1/business_units/manageable'));
  const roles = assignableRoles(me.roles, me.company.variant, me.features);
  const [form, setForm] = useState({
    first_name: user?.first_name ?? '',
    last_name: user?.last_name ?? '',
    email: user?.email ?? '',
    username: user?.username ?? '',
    password: '',
    account_type: (roles.includes('agent') ? 'agent' : roles[roles.length - 1]) as Role,
    manager_id: user?.manager?.id ?? null,
    business_unit_id: user?.business_unit?.id ?? null,
    position_title: user?.position_title ?? null,
    timezone: (user?.timezone ?? 'est') as TimeZone,
    relationship_manager: user?.relationship_manager ?? false,
  });
  const set = <K extends keyof typeof form>(k: K, v: (typeof form)[K]) => setForm((f) => ({ ...f, [k]: v }));
  const save = useMutation({
    mutationFn: () => {
      const common = {
        first_name: form.first_name,
        last_name: form.last_name,
        email: form.email,
        manager_id: form.manager_id,
        business_unit_id: form.business_unit_id,
        position_title: form.position_title as UpdateUserBody['position_title'],
        timezone: form.timezone,
        relationship_manager: form.relationship_manager,
        ...(form.username && { username: form.username }),
      };
      return user
        ? updateUser(user.id, common)
        : createUser({ ...common, password: form.password, account_type: form.account_type });
    },
    onSuccess: () => {
      queryClient.invalidateQueries(qkUnder('/v1/admin/users'));
      onDone();
    },
  });
  const fieldError = (f: string) => (save.error instanceof ApiError ? save.error.errors[f]?.[0] : undefined);
  const ownerData = (owners.data?.data ?? [])
    .filter((o) => o.id !== user?.id)
    .map((o) => ({ value: String(o.id), label: `${o.name} (${o.email})` }));
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <Stack>
        {save.isError && !fieldError('base') && (
          <Alert color="red" role="alert">
            {errorMessage(save.error)}
          </Alert>
        )}
        <SimpleGrid cols={2}>
          <TextInput
            label="First name"
            required
            value={form.first_name}
            onChange={(e) => set('first_name', e.currentTarget.value)}
            error={fieldError('first_name')}
          />
          <TextInput
            label="Last name"
            required
            value={form.last_name}
            onChange={(e) => set('last_name', e.currentTarget.value)}
            error={fieldError('last_name')}
          />
          <TextInput
            label="Email"
            type="email"
            required
            value={form.email}
            onChange={(e) => set('email', e.currentTarget.value)}
            error={fieldError('email')}
          />
          <TextInput
            label="Username"
            placeholder="From the email when empty"
            value={form.username}
            onChange={(e) => set('username', e.currentTarget.value)}
            error={fieldError('username')}
          />
        </SimpleGrid>
        {!user && (
          <SimpleGrid cols={2}>
            <PasswordInput
              label="Temporary password"
              description="They must change it at first sign-in"
              required
              value={form.password}
              onChange={(e) => set('password', e.currentTarget.value)}
              error={fieldError('password')}
            />
            <Select
              label="Role"
              required
              allowDeselect={false}
              data={roles.map((r) => ({ value: r, label: roleLabel(r, me.company.variant) }))}
              value={form.account_type}
              onChange={(v) => v && set('account_type', v as Role)}
              error={fieldError('account_type')}
            />
          </SimpleGrid>
        )}
        <SimpleGrid cols={2}>
          <Select
            label="Upline (manager)"
            placeholder="None"
            searchable
            clearable
            data={ownerData}
            value={form.manager_id ? String(form.manager_id) : null}
            onChange={(v) => set('manager_id', v ? Number(v) : null)}
            error={fieldError('manager_id')}
          />
          <Select
            label="Business unit"
            placeholder="None"
            clearable
            data={(units.data?.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
            value={form.business_unit_id ? String(form.business_unit_id) : null}
            onChange={(v) => set('business_unit_id', v ? Number(v) : null)}
            error={fieldError('business_unit_id')}
          />
          <Select
            label="Position title"
            placeholder="None"
            clearable
            data={positionTitlesFor(me.company.variant).map((t) => ({ value: t, label: positionTitleLabel(t) }))}
            value={form.position_title}
            onChange={(v) => set('position_title', v)}
            error={fieldError('position_title')}
          />
          <Select
            label="Time zone"
            allowDeselect={false}
            data={TIME_ZONES.map((z) => ({ value: z, label: TIME_ZONE_LABELS[z] }))}
            value={form.timezone}
            onChange={(v) => v && set('timezone', v as TimeZone)}
          />
        </SimpleGrid>
        <Switch
          label="Relationship manager"
          checked={form.relationship_manager}
          onChange={(e) => set('relationship_manager', e.currentTarget.checked)}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            {user ? 'Save' : 'Create user'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
