/**
 * Undo, shown before it is done: how many created contacts go (restorable) and which stay because someone worked on
 * them, how many contacts get their old values back, and each field someone changed since, which stays as it is now.
 */

import { fieldLabel } from '@harbor/shared';
import { Alert, Button, Group, List, Loader, Modal, Stack, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/client';
import { type AttemptDetail, undoAttempt } from '../../api/imports';
import { callQuery, qk, qkUnder } from '../../api/queries';
import { ContactCell, plural } from './MatchList';
import { watchImport } from './watchImport';

export function UndoDialog(props: { attempt: AttemptDetail; opened: boolean; onClose: () => void }) {
  const a = props.attempt;
  const queryClient = useQueryClient();
  const plan = useQuery({
    ...callQuery('GET /v1/contacts/import_attempts/{id}/undo', { params: { id: a.id } }),
    enabled: props.opened,
    staleTime: 0,
    gcTime: 0,
  });
  const run = useMutation({
    mutationFn: () => undoAttempt(a.id),
    onSuccess: (attempt) => {
      watchImport(attempt);
      void queryClient.invalidateQueries(qkUnder('/v1/contacts/import_attempts/{id}', { params: { id: a.id } }));
      void queryClient.invalidateQueries({ queryKey: qk('GET /v1/contacts/import_attempts') });
      props.onClose();
    },
  });
  const p = plan.data;
  return (
    <Modal opened={props.opened} onClose={props.onClose} title={`Undo the import of ${a.file_name}?`} size="lg">
      {plan.isPending && <Loader aria-label="Working out what undo would do" />}
      {plan.error && (
        <Alert color="red" role="alert">
          {errorMessage(plan.error)}
        </Alert>
      )}
      {p && (
        <Stack>
          <List size="sm" spacing={4} aria-label="What undo will do">
            <List.Item>
              Removes {plural(p.removed, 'contact')} it created (they can be restored from Deleted contacts).
            </List.Item>
            {p.kept > 0 && (
              <List.Item>Keeps {plural(p.kept, 'contact')} it created that someone worked on since.</List.Item>
            )}
            <List.Item>
              Puts the old values back on {plural(p.restored, 'contact')} ({plural(p.fields_restored, 'field')}).
            </List.Item>
            {p.tags_removed > 0 && <List.Item>Takes off the {plural(p.tags_removed, 'tag')} it added.</List.Item>}
            {p.fields_skipped > 0 && (
              <List.Item>
                Leaves {plural(p.fields_skipped, 'field')} that changed again since the import as they are now (listed
                below).
              </List.Item>
            )}
          </List>
          {p.skipped_fields.length > 0 && (
            <Table.ScrollContainer minWidth={480}>
              <Table aria-label="Fields changed since the import">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Contact</Table.Th>
                    <Table.Th>Field</Table.Th>
                    <Table.Th>The import set</Table.Th>
                    <Table.Th>Now</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {p.skipped_fields.map((f) => (
                    <Table.Tr key={`${f.row}-${f.field}`}>
                      <Table.Td>
                        <ContactCell contact={f.contact} />
                      </Table.Td>
                      <Table.Td>{fieldLabel(f.field)}</Table.Td>
                      <Table.Td>{f.import_set ?? '(blank)'}</Table.Td>
                      <Table.Td>{f.now ?? '(blank)'}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {p.kept_contacts.length > 0 && (
            <Stack gap={4}>
              <Text size="sm" fw={600}>
                Created contacts it keeps
              </Text>
              {p.kept_contacts.map((k) => (
                <Group key={k.row} gap="xs">
                  <ContactCell contact={k.contact} />
                  <Text size="xs" c="dimmed">
                    {k.reason}
                  </Text>
                </Group>
              ))}
            </Stack>
          )}
          {run.error && (
            <Alert color="red" role="alert">
              {errorMessage(run.error)}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={props.onClose}>
              Cancel
            </Button>
            <Button color="red" loading={run.isPending} onClick={() => run.mutate()}>
              Undo the import
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
