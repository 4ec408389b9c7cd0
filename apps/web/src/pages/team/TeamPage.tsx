/** Team: a manager's downline (any depth), each person's profile one click away. */

import { positionTitleLabel, roleLabel } from '@harbor/shared';
import { Alert, Anchor, Loader, Stack, Table } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { UsersDirectory } from '../admin/users/UsersDirectory';

export function TeamPage() {
  return <UsersDirectory title="Team" manage={false} profilePath="/team" />;
}

export function TeamMemberPage() {
  const me = useCurrentUser();
  const id = Number(useParams().id);
  const user = useQuery(callQuery('GET /v1/admin/users/{id}', { params: { id } }));
  if (user.isPending) return <Loader aria-label="Loading the profile" />;
  if (user.isError)
    return (
      <Alert color="red" role="alert">
        {errorMessage(user.error)}
      </Alert>
    );
  const u = user.data;
  const rows: [string, string][] = [
    ['Name', u.name],
    ['Email', u.email],
    ['Username', u.username],
    ['Number', u.number],
    ['Role', u.roles.map((r) => roleLabel(r, me.company.variant)).join(', ')],
    ['Position', u.position_title ? positionTitleLabel(u.position_title) : '—'],
    ['Upline', u.manager?.name ?? '—'],
    ['Business unit', u.business_unit?.name ?? '—'],
    ['About', u.about_me ?? '—'],
  ];
  return (
    <Stack>
      <Anchor component={Link} to="/team">
        ← Team
      </Anchor>
      <PageHeading title={u.name} section="Team" />
      <Table variant="vertical" withTableBorder maw={560} aria-label="Profile">
        <Table.Tbody>
          {rows.map(([k, v]) => (
            <Table.Tr key={k}>
              <Table.Th w={160}>{k}</Table.Th>
              <Table.Td>{v}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Stack>
  );
}
