/**
 * One page of contacts (server paging, 50 a page: a page never holds thousands of rows). Headers sort, rows select,
 * and "select all N matching" widens the selection from the page to the whole filtered set.
 */
import type { ContactListRow } from '@harbor/shared';
import { Anchor, Badge, Button, Checkbox, Group, Table, Text, UnstyledButton } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ContactsList } from './useContactsList';

export interface Column {
  key: string;
  label: string;
  /** The order_field this column sorts by, if sortable. */
  sort?: string;
  render: (r: ContactListRow) => ReactNode;
}

export const COLUMNS: Column[] = [
  {
    key: 'name',
    label: 'Name',
    sort: 'last_name',
    render: (r) => (
      <Anchor component={Link} to={`/contacts/${r.number}`} onClick={(e) => e.stopPropagation()}>
        {`${r.last_name}, ${r.first_name}`.replace(/^, |, $/, '') || `#${r.number}`}
      </Anchor>
    ),
  },
  { key: 'number', label: 'Number', sort: 'number', render: (r) => r.number },
  { key: 'email', label: 'Email', sort: 'email', render: (r) => r.email ?? '' },
  { key: 'phone', label: 'Phone', render: (r) => r.phone ?? '' },
  { key: 'city', label: 'City', sort: 'city', render: (r) => r.city ?? '' },
  { key: 'state', label: 'State', sort: 'state', render: (r) => r.state ?? '' },
  { key: 'zip', label: 'Zip', sort: 'zip', render: (r) => r.zip ?? '' },
  { key: 'type', label: 'Type', sort: 'type', render: (r) => r.type },
  { key: 'dob', label: 'Date of birth', sort: 'date_of_birth', render: (r) => r.date_of_birth ?? '' },
  {
    key: 'status',
    label: 'Status',
    render: (r) =>
      r.status ? (
        <Badge color={r.status.color} variant="light">
          {r.status.name}
        </Badge>
      ) : (
        ''
      ),
  },
  { key: 'source', label: 'Source', render: (r) => r.source?.name ?? '' },
  { key: 'owner', label: 'Owner', render: (r) => r.owner?.name ?? '' },
  { key: 'pool', label: 'Pool', render: (r) => r.pool?.name ?? '' },
  { key: 'group', label: 'Group', render: (r) => r.group?.name ?? '' },
  {
    key: 'tags',
    label: 'Tags',
    render: (r) => (
      <Group gap={4}>
        {r.tags.map((t) => (
          <Badge key={t.id} color={t.color} size="sm" variant="dot">
            {t.name}
          </Badge>
        ))}
      </Group>
    ),
  },
  { key: 'created', label: 'Created', sort: 'created_at', render: (r) => r.created_at.slice(0, 10) },
];
export const DEFAULT_COLUMNS = ['name', 'phone', 'email', 'state', 'status', 'owner', 'tags'];

export function ContactsTable({ list, columns }: { list: ContactsList; columns: string[] }) {
  const navigate = useNavigate();
  const rows = list.query.data?.data ?? [];
  const meta = list.query.data?.meta;
  const shown = COLUMNS.filter((c) => columns.includes(c.key));
  const pageIds = rows.map((r) => r.id);
  const pageChecked = pageIds.length > 0 && pageIds.every((id) => list.allMatching || list.selected.has(id));
  const total = meta
    ? `${meta.count_estimated ? 'about ' : ''}${meta.total_count.toLocaleString()}${meta.count_capped ? '+' : ''}`
    : '';

  return (
    <>
      {pageChecked && !list.allMatching && meta && meta.total_count > rows.length && (
        <Group gap="xs" role="status">
          <Text size="sm">All {rows.length} contacts on this page are selected.</Text>
          <Button variant="subtle" size="xs" onClick={() => list.setAllMatching(true)}>
            Select all {total} matching contacts
          </Button>
        </Group>
      )}
      {list.allMatching && (
        <Group gap="xs" role="status">
          <Text size="sm">Every contact matching this filter is selected ({total}).</Text>
          <Button variant="subtle" size="xs" onClick={list.clearSelection}>
            Clear selection
          </Button>
        </Group>
      )}
      <Table.ScrollContainer minWidth={900}>
        <Table highlightOnHover aria-label="Contacts" stickyHeader>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={40}>
                <Checkbox
                  aria-label="Select this page"
                  checked={pageChecked}
                  onChange={(e) => list.togglePage(pageIds, e.currentTarget.checked)}
                  disabled={list.query.isPlaceholderData}
                />
              </Table.Th>
              {shown.map((c) => (
                <Table.Th key={c.key}>
                  {c.sort ? (
                    <UnstyledButton
                      onClick={() => list.sortBy(c.sort!)}
                      aria-label={`Sort by ${c.label}`}
                      fw={600}
                      fz="sm"
                    >
                      <Group gap={4} wrap="nowrap">
                        {c.label}
                        {list.state.orderField === c.sort &&
                          (list.state.order === 'ASC' ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />)}
                      </Group>
                    </UnstyledButton>
                  ) : (
                    c.label
                  )}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.id} style={{ cursor: 'pointer' }} onClick={() => navigate(`/contacts/${r.number}`)}>
                <Table.Td onClick={(e) => e.stopPropagation()}>
                  <Checkbox
                    aria-label={`Select ${r.first_name} ${r.last_name}`}
                    checked={list.allMatching || list.selected.has(r.id)}
                    onChange={() => list.toggle(r.id)}
                    // Rows of the previous filter stay in view while the new ones load; they are not selectable.
                    disabled={list.query.isPlaceholderData}
                  />
                </Table.Td>
                {shown.map((c) => (
                  <Table.Td key={c.key}>{c.render(r)}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <Group justify="space-between">
        <Text size="sm" c="dimmed" aria-live="polite">
          {meta ? `Page ${list.page} of ${meta.count_capped ? 'many' : meta.total_pages} · ${total} contacts` : ''}
        </Text>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={list.previous} disabled={list.page === 1}>
            Previous page
          </Button>
          <Button variant="default" size="xs" onClick={list.next} disabled={!meta?.next_cursor}>
            Next page
          </Button>
        </Group>
      </Group>
    </>
  );
}
