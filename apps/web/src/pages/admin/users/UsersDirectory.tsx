/**
 * The list of users in reach (the server scopes it: admins the company, BU admins their unit, managers their
 * downline): search, role and business-unit filters, paging. With `manage`, each row gets the admin actions.
 */

import { type AdminUser, can, DEBOUNCE_MS, ROLES, type Role, roleLabel, visibleRoles } from '@harbor/shared';
import {
  ActionIcon,
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Loader,
  Menu,
  Pagination,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDots, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../../api/client';
import { setPaidMembership } from '../../../api/people';
import { callQuery, qkUnder } from '../../../api/queries';
import { useCurrentUser } from '../../../auth/session';
import { PageHeading } from '../../../components/PageHeading';
import { subjectOf } from '../../../layout/nav';
import { DeleteUserModal } from './DeleteUserModal';
import { QuickUpdateModal } from './QuickUpdateModal';
import { RolesModal } from './RolesModal';
import { UserFormModal } from './UserFormModal';
import { useSignInAs } from './useSignInAs';

const PAGE_SIZE = 25;

export function UsersDirectory({
  title,
  manage,
  profilePath,
}: {
  title: string;
  manage: boolean;
  profilePath?: string;
}) {
  const me = useCurrentUser();
  const subject = subjectOf(me);
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [search] = useDebouncedValue(q.trim(), DEBOUNCE_MS);
  const [role, setRole] = useState<string | null>(null);
  const [unit, setUnit] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminUser | null | undefined>(undefined);
  const [rolesOf, setRolesOf] = useState<AdminUser | null>(null);
  const [quick, setQuick] = useState<AdminUser | null>(null);
  const [deleting, setDeleting] = useState<AdminUser | null>(null);
  const signInAs = useSignInAs();
  const units = useQuery(callQuery('GET /v1/business_units/manageable'));
  const query = {
    q: search || undefined,
    role: (role ?? undefined) as Role | undefined,
    business_unit_id: unit ? Number(unit) : undefined,
    page,
    limit: PAGE_SIZE,
  };
  const list = useQuery({
    ...callQuery('GET /v1/admin/users', { query }),
    placeholderData: keepPreviousData,
  });
  const paid = useMutation({
    mutationFn: (u: AdminUser) => setPaidMembership(u.id, !u.paid),
    onSuccess: () => queryClient.invalidateQueries(qkUnder('/v1/admin/users')),
  });
  const roleOptions = visibleRoles(me.company.variant, me.features).map((r) => ({
    value: r,
    label: roleLabel(r, me.company.variant),
  }));
  const label = (r: Role) => (ROLES.includes(r) ? roleLabel(r, me.company.variant) : r);
  const error = list.error ?? paid.error ?? signInAs.error;
  return (
    <Stack>
      <Group justify="space-between">
        <PageHeading title={title} />
        {manage && (
          <Button leftSection={<IconUserPlus size={16} />} onClick={() => setEditing(null)}>
            New user
          </Button>
        )}
      </Group>
      <Group align="flex-end">
        <TextInput
          label="Search"
          placeholder="Name, email, username or number"
          leftSection={<IconSearch size={14} />}
          value={q}
          onChange={(e) => {
            setQ(e.currentTarget.value);
            setPage(1);
          }}
        />
        <Select
          label="Role"
          placeholder="All roles"
          clearable
          data={roleOptions}
          value={role}
          onChange={(v) => {
            setRole(v);
            setPage(1);
          }}
        />
        {(units.data?.data.length ?? 0) > 1 && (
          <Select
            label="Business unit"
            placeholder="All units"
            clearable
            data={(units.data?.data ?? []).map((b) => ({ value: String(b.id), label: b.name }))}
            value={unit}
            onChange={(v) => {
              setUnit(v);
              setPage(1);
            }}
          />
        )}
      </Group>
      {error && (
        <Alert color="red" role="alert">
          {errorMessage(error)}
        </Alert>
      )}
      {list.isPending && <Loader aria-label="Loading users" />}
      {list.data && list.data.data.length === 0 && <Text c="dimmed">Nobody matches.</Text>}
      {list.data && list.data.data.length > 0 && (
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Role</Table.Th>
                <Table.Th>Upline</Table.Th>
                <Table.Th>Business unit</Table.Th>
                {manage && <Table.Th aria-label="Actions" />}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.data.map((u) => (
                <Table.Tr key={u.id}>
                  <Table.Td>
                    {profilePath ? (
                      <Anchor component={Link} to={`${profilePath}/${u.id}`}>
                        {u.name}
                      </Anchor>
                    ) : (
                      u.name
                    )}{' '}
                    {!u.paid && (
                      <Badge size="xs" color="gray" variant="light">
                        unpaid
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  <Table.Td>{label(u.account_type)}</Table.Td>
                  <Table.Td>{u.manager?.name ?? '—'}</Table.Td>
                  <Table.Td>{u.business_unit?.name ?? '—'}</Table.Td>
                  {manage && (
                    <Table.Td>
                      <Menu position="bottom-end" withinPortal>
                        <Menu.Target>
                          <ActionIcon variant="subtle" aria-label={`Actions for ${u.name}`}>
                            <IconDots size={16} />
                          </ActionIcon>
                        </Menu.Target>
                        <Menu.Dropdown>
                          <Menu.Item onClick={() => setEditing(u)}>Edit</Menu.Item>
                          <Menu.Item onClick={() => setQuick(u)}>Quick update</Menu.Item>
                          <Menu.Item onClick={() => setRolesOf(u)}>Roles</Menu.Item>
                          {can(subject, 'admin.manage') && (
                            <Menu.Item onClick={() => paid.mutate(u)}>
                              {u.paid ? 'Withdraw paid membership' : 'Grant paid membership'}
                            </Menu.Item>
                          )}
                          <Menu.Divider />
                          <Menu.Item onClick={() => signInAs.mutate({ id: u.id, type: 'login_as' })}>
                            Log in as
                          </Menu.Item>
                          <Menu.Item onClick={() => signInAs.mutate({ id: u.id, type: 'impersonate' })}>
                            Impersonate
                          </Menu.Item>
                          <Menu.Divider />
                          <Menu.Item color="red" onClick={() => setDeleting(u)}>
                            Delete
                          </Menu.Item>
                        </Menu.Dropdown>
                      </Menu>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {list.data && list.data.meta.total_pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {list.data.meta.total_count} users
          </Text>
          <Pagination total={list.data.meta.total_pages} value={page} onChange={setPage} />
        </Group>
      )}
      <UserFormModal opened={editing !== undefined} user={editing} onClose={() => setEditing(undefined)} />
      <RolesModal user={rolesOf} onClose={() => setRolesOf(null)} />
      <QuickUpdateModal user={quick} onClose={() => setQuick(null)} />
      <DeleteUserModal user={deleting} onClose={() => setDeleting(null)} />
    </Stack>
  );
}
