/** /contacts: the contacts list with search, filters by name, views, columns, selection and bulk actions. */
import { can } from '@harbor/shared';
import { Alert, Button, Checkbox, Group, Loader, Popover, Stack, Switch } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconColumns, IconPlus, IconTransfer } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useCurrentUser } from '../../auth/session';
import { PageHeading } from '../../components/PageHeading';
import { subjectOf } from '../../layout/nav';
import { BulkActions } from './BulkActions';
import { ContactsCount } from './ContactsCount';
import { COLUMNS, ContactsTable, DEFAULT_COLUMNS } from './ContactsTable';
import { ContactsToolbar } from './ContactsToolbar';
import { useContactsList } from './useContactsList';

function ColumnsPicker({ columns, onChange }: { columns: string[]; onChange: (c: string[]) => void }) {
  return (
    <Popover position="bottom-end" shadow="md">
      <Popover.Target>
        <Button variant="default" leftSection={<IconColumns size={16} aria-hidden />}>
          Columns
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Checkbox.Group label="Columns shown" value={columns} onChange={onChange}>
          <Stack gap={6} mt="xs">
            {COLUMNS.map((c) => (
              <Checkbox key={c.key} value={c.key} label={c.label} />
            ))}
          </Stack>
        </Checkbox.Group>
      </Popover.Dropdown>
    </Popover>
  );
}

export function ContactsPage() {
  const list = useContactsList();
  const transfers = can(subjectOf(useCurrentUser()), 'contacts.transfer');
  const [columns, setColumns] = useLocalStorage<string[]>({
    key: 'harbor.contacts.columns',
    defaultValue: DEFAULT_COLUMNS,
  });

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <PageHeading title="Contacts" />
        <Group gap="xs">
          {transfers && (
            <Button
              component={Link}
              to="/contacts/transfers"
              variant="default"
              leftSection={<IconTransfer size={16} aria-hidden />}
            >
              Transfers
            </Button>
          )}
          <Button component={Link} to="/contacts/new" leftSection={<IconPlus size={16} aria-hidden />}>
            New contact
          </Button>
        </Group>
      </Group>
      <ContactsToolbar list={list} />
      <ContactsCount scope={list.scope} />
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Group gap="sm">
          <BulkActions list={list} />
          <Switch
            label="Find duplicates"
            checked={list.state.duplicates}
            onChange={(e) => list.setState({ duplicates: e.currentTarget.checked })}
          />
          {list.query.isFetching && <Loader size="xs" aria-label="Loading contacts" />}
        </Group>
        <ColumnsPicker columns={columns} onChange={setColumns} />
      </Group>
      {list.query.isError && (
        <Alert color="red" role="alert">
          {errorMessage(list.query.error)}
        </Alert>
      )}
      {list.query.isPending ? (
        <Loader aria-label="Loading contacts" />
      ) : (
        <ContactsTable list={list} columns={columns} />
      )}
    </Stack>
  );
}
