/**
 * One page of contacts (server paging; the page size is the person's choice). Headers sort, rows select, and
 * "select all N matching" widens the selection from the page to the whole filtered set. At phone width the rows
 * become cards: nothing scrolls sideways.
 */
import { CONTACT_ORDER_FIELDS, type ContactListRow } from '@harbor/shared';
import { Anchor, Badge, Button, Card, Checkbox, Group, Stack, Table, Text, UnstyledButton } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowsSort, IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { paletteOf } from '../../components/colors';
import { CallLink } from '../../softphone/CallLink';
import { countLabel, useContactsCount } from './ContactsCount';
import { ContactsPager } from './ContactsPager';
import { formatDate } from './format';
import type { ContactsList } from './useContactsList';

export interface Column {
  key: string;
  label: string;
  /** The order_field this column sorts by; it sorts once the server lists it in CONTACT_ORDER_FIELDS. */
  sort?: string;
  /** Short values read as one piece ("1-555-072-0629" split over two lines reads as two numbers). */
  nowrap?: boolean;
  render: (r: ContactListRow) => ReactNode;
}

export const displayName = (r: { first_name: string; last_name: string; number: number }) =>
  `${r.last_name}, ${r.first_name}`.replace(/^, |, $/, '') || `#${r.number}`;

/** A badge shows its whole name: the column grows (or the table scrolls) rather than cut "Appointment Set" short. */
const WHOLE = { label: { overflow: 'visible' } } as const;

/** An email may break before its "@" (a narrow column), never in the middle of a word. */
const Email = ({ email }: { email: string | null }) => {
  if (!email) return null;
  const at = email.indexOf('@');
  return at > 0 ? (
    <>
      {email.slice(0, at)}
      <wbr />
      {email.slice(at)}
    </>
  ) : (
    email
  );
};

const StatusBadge = ({ r }: { r: ContactListRow }) =>
  r.status ? (
    <Badge color={paletteOf(r.status.color)} variant="light" styles={WHOLE}>
      {r.status.name}
    </Badge>
  ) : null;

const Tags = ({ r }: { r: ContactListRow }) => (
  <Group gap={4}>
    {r.tags.map((t) => (
      <Badge key={t.id} color={paletteOf(t.color)} size="sm" variant="dot" styles={WHOLE}>
        {t.name}
      </Badge>
    ))}
  </Group>
);

export const COLUMNS: Column[] = [
  {
    key: 'name',
    label: 'Name',
    sort: 'last_name',
    render: (r) => (
      <Anchor component={Link} to={`/contacts/${r.number}`} onClick={(e) => e.stopPropagation()}>
        {displayName(r)}
      </Anchor>
    ),
  },
  { key: 'number', label: 'Number', sort: 'number', render: (r) => r.number },
  { key: 'email', label: 'Email', sort: 'email', render: (r) => <Email email={r.email} /> },
  {
    key: 'phone',
    label: 'Phone',
    sort: 'phone',
    nowrap: true,
    render: (r) => (r.phone ? <CallLink phone={r.phone} contactNumber={r.number} /> : ''),
  },
  { key: 'city', label: 'City', sort: 'city', render: (r) => r.city ?? '' },
  { key: 'state', label: 'State', sort: 'state', render: (r) => r.state ?? '' },
  { key: 'zip', label: 'ZIP code', sort: 'zip', render: (r) => r.zip ?? '' },
  { key: 'type', label: 'Type', sort: 'type', render: (r) => (r.type === 'client' ? 'Client' : 'Lead') },
  {
    key: 'dob',
    label: 'Date of birth',
    sort: 'date_of_birth',
    nowrap: true,
    render: (r) => formatDate(r.date_of_birth),
  },
  { key: 'status', label: 'Status', sort: 'status', render: (r) => <StatusBadge r={r} /> },
  { key: 'source', label: 'Source', sort: 'source', render: (r) => r.source?.name ?? '' },
  { key: 'owner', label: 'Owner', sort: 'owner', render: (r) => r.owner?.name ?? '' },
  { key: 'pool', label: 'Pool', sort: 'pool', render: (r) => r.pool?.name ?? '' },
  { key: 'group', label: 'Group', sort: 'group', render: (r) => r.group?.name ?? '' },
  { key: 'tags', label: 'Tags', render: (r) => <Tags r={r} /> },
  { key: 'created', label: 'Added', sort: 'created_at', nowrap: true, render: (r) => formatDate(r.created_at) },
];
export const DEFAULT_COLUMNS = ['name', 'phone', 'email', 'state', 'status', 'owner', 'tags'];

export const sortable = (c: Column) => !!c.sort && (CONTACT_ORDER_FIELDS as readonly string[]).includes(c.sort);

function SortHeader({ c, list }: { c: Column; list: ContactsList }) {
  const on = list.state.orderField === c.sort;
  const Icon = on ? (list.state.order === 'ASC' ? IconChevronUp : IconChevronDown) : IconArrowsSort;
  return (
    <UnstyledButton onClick={() => list.sortBy(c.sort as string)} fw={600} fz="sm">
      <Group gap={4} wrap="nowrap">
        {c.label}
        <Icon size={14} aria-hidden style={{ opacity: on ? 1 : 0.45 }} />
      </Group>
    </UnstyledButton>
  );
}

function EmptyList({ list }: { list: ContactsList }) {
  const searching = !!list.state.q.trim() || Object.values(list.state.filters).some((v) => v?.length);
  return (
    <Stack align="center" gap="xs" py="xl" role="status">
      <Text fw={600}>
        {searching
          ? list.state.q.trim()
            ? `No contacts match “${list.state.q.trim()}”${Object.keys(list.state.filters).length ? ' with these filters' : ''}.`
            : 'No contacts match these filters.'
          : list.state.group === 'deleted'
            ? 'No deleted contacts.'
            : list.state.duplicates
              ? 'No duplicates found.'
              : 'No contacts here yet.'}
      </Text>
      {searching ? (
        <>
          <Text size="sm" c="dimmed">
            Check the spelling, search by phone or email, or clear the search and filters.
          </Text>
          <Button variant="light" onClick={list.clearFilters}>
            Clear search and filters
          </Button>
        </>
      ) : (
        list.state.group === 'all' &&
        !list.state.duplicates && (
          <Group>
            <Button component={Link} to="/contacts/new">
              New contact
            </Button>
            <Button component={Link} to="/contacts/imports/new" variant="default">
              Import a list
            </Button>
          </Group>
        )
      )}
    </Stack>
  );
}

function SelectionBar({ list, total }: { list: ContactsList; total: string }) {
  const rows = list.query.data?.data ?? [];
  const meta = list.query.data?.meta;
  const pageIds = rows.map((r) => r.id);
  const pageChecked = pageIds.length > 0 && pageIds.every((id) => list.allMatching || list.selected.has(id));
  if (list.allMatching)
    return (
      <Group gap="xs" role="status">
        <Text size="sm">Every contact matching this filter is selected ({total}).</Text>
        <Button variant="subtle" size="xs" onClick={list.clearSelection}>
          Clear selection
        </Button>
      </Group>
    );
  if (pageChecked && meta?.has_more)
    return (
      <Group gap="xs" role="status">
        <Text size="sm">All {rows.length} contacts on this page are selected.</Text>
        <Button variant="subtle" size="xs" onClick={() => list.setAllMatching(true)}>
          Select all {total} matching contacts
        </Button>
      </Group>
    );
  return null;
}

/** Phone width: one card per contact with what a person looks for first. */
function ContactCards({ list }: { list: ContactsList }) {
  const rows = list.query.data?.data ?? [];
  return (
    <Stack gap="xs" component="ul" aria-label="Contacts" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {rows.map((r) => (
        <Card key={r.id} withBorder padding="sm" component="li">
          <Group justify="space-between" wrap="nowrap" align="start">
            <Stack gap={2} miw={0}>
              <Anchor component={Link} to={`/contacts/${r.number}`} fw={600}>
                {displayName(r)}
              </Anchor>
              {r.phone && <CallLink phone={r.phone} contactNumber={r.number} />}
              {r.email && (
                <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {r.email}
                </Text>
              )}
              <Group gap={4}>
                <StatusBadge r={r} />
                <Tags r={r} />
              </Group>
            </Stack>
            <Checkbox
              aria-label={`Select ${r.first_name} ${r.last_name}`}
              checked={list.allMatching || list.selected.has(r.id)}
              onChange={() => list.toggle(r.id)}
              disabled={list.query.isPlaceholderData}
            />
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

export function ContactsTable({ list, columns }: { list: ContactsList; columns: string[] }) {
  const navigate = useNavigate();
  const phone = useMediaQuery('(max-width: 48em)');
  const rows = list.query.data?.data ?? [];
  const meta = list.query.data?.meta;
  const shown = COLUMNS.filter((c) => columns.includes(c.key));
  const pageIds = rows.map((r) => r.id);
  const pageChecked = pageIds.length > 0 && pageIds.every((id) => list.allMatching || list.selected.has(id));
  const total = countLabel(useContactsCount(list.scope).data) ?? '';

  if (meta && rows.length === 0 && list.page === 1) return <EmptyList list={list} />;
  return (
    <>
      <SelectionBar list={list} total={total} />
      {phone ? (
        <ContactCards list={list} />
      ) : (
        <Table.ScrollContainer minWidth={shown.length * 110 + 40}>
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
                {shown.map((c) => {
                  const on = list.state.orderField === c.sort;
                  return (
                    <Table.Th
                      key={c.key}
                      aria-sort={on ? (list.state.order === 'ASC' ? 'ascending' : 'descending') : undefined}
                    >
                      {sortable(c) ? <SortHeader c={c} list={list} /> : c.label}
                    </Table.Th>
                  );
                })}
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
                    <Table.Td key={c.key} style={c.nowrap ? { whiteSpace: 'nowrap' } : undefined}>
                      {c.render(r)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <ContactsPager list={list} />
    </>
  );
}
