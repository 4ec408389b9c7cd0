/** /contacts: the contacts list with search, filters, views, columns, selection and bulk actions. */
import { can } from '@harbor/shared';
import { Alert, Anchor, Button, Checkbox, Group, Loader, Menu, Stack, Switch, Title } from '@mantine/core';
import { useLocalStorage } from '@mantine/hooks';
import { IconColumns } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client';
import { useCurrentUser } from '../../auth/session';
import { subjectOf } from '../../layout/nav';
import { BulkActions } from './BulkActions';
import { COLUMNS, ContactsTable, DEFAULT_COLUMNS } from './ContactsTable';
import { ContactsToolbar } from './ContactsToolbar';
import { useContactsList } from './useContactsList';

export function ContactsPage() {
  const list = useContactsList();
  const transfers = can(subjectOf(useCurrentUser()), 'contacts.transfer');
  const [columns, setColumns] = useLocalStorage<string[]>({
    key: 'harbor.contacts.columns',
    defaultValue: DEFAULT_COLUMNS,
  });
  const toggleColumn = (key: string) =>
    setColumns((cur) => (cur.includes(key) ? cur.filter((k) => k !== key) : [...cur, key]));

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Contacts</Title>
        {transfers && (
          <Anchor component={Link} to="/contacts/transfers">
            Transfers
          </Anchor>
        )}
      </Group>
      <ContactsToolbar list={list} />
      <Group justify="space-between">
        <Group>
          <BulkActions list={list} />
          <Switch
            label="Find duplicates"
            checked={list.state.duplicates}
            onChange={(e) => list.setState({ duplicates: e.currentTarget.checked })}
          />
          {list.query.isFetching && <Loader size="xs" aria-label="Loading contacts" />}
        </Group>
        <Menu closeOnItemClick={false}>
          <Menu.Target>
            <Button variant="default" leftSection={<IconColumns size={16} />}>
              Columns
            </Button>
          </Menu.Target>
          <Menu.Dropdown>
            {COLUMNS.map((c) => (
              <Menu.Item key={c.key}>
                <Checkbox label={c.label} checked={columns.includes(c.key)} onChange={() => toggleColumn(c.key)} />
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
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
