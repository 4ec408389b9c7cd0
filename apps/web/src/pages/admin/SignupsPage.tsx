/** Admin > Signups: people colleagues proposed to join the company (POST /v1/users/signups), newest first, paged. */

import { Alert, Badge, Group, Pagination, Stack, Table, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../api/client';
import { callQuery } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';

export function SignupsPage() {
  const [page, setPage] = useState(1);
  const signups = useQuery({
    ...callQuery('GET /v1/admin/signups', { query: { page, limit: 25 } }),
    placeholderData: keepPreviousData,
  });
  const meta = signups.data?.meta;
  return (
    <Stack>
      <PageHeading title="Signups" section="Admin" />
      {signups.isError && (
        <Alert color="red" role="alert">
          {errorMessage(signups.error)}
        </Alert>
      )}
      {signups.isSuccess && signups.data.data.length === 0 && (
        <Text c="dimmed">Nobody has been proposed yet. Anyone in the company can propose a person to join.</Text>
      )}
      {!!signups.data?.data.length && (
        <Table.ScrollContainer minWidth={600}>
          <Table aria-label="Signups" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                <Table.Th>Phone</Table.Th>
                <Table.Th>Proposed by</Table.Th>
                <Table.Th>Note</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>Received</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {signups.data.data.map((s) => (
                <Table.Tr key={s.id}>
                  <Table.Td>{`${s.first_name} ${s.last_name}`}</Table.Td>
                  <Table.Td>{s.email}</Table.Td>
                  <Table.Td>{s.phone ?? '—'}</Table.Td>
                  <Table.Td>{s.sponsor?.name ?? '—'}</Table.Td>
                  <Table.Td maw={280}>
                    <Text size="sm" lineClamp={2}>
                      {s.note ?? ''}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light">{s.status}</Badge>
                  </Table.Td>
                  <Table.Td>{new Date(s.created_at).toLocaleDateString()}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {meta && meta.total_pages > 1 && (
        <Group justify="space-between">
          <Text size="sm" c="dimmed">
            {meta.total_count} signups
          </Text>
          <Pagination total={meta.total_pages} value={page} onChange={setPage} aria-label="Signup pages" />
        </Group>
      )}
    </Stack>
  );
}
