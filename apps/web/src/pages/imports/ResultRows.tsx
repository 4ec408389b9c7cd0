/**
 * An import's rows by kind, paged: the rows not imported (each with its reason and its cells, downloadable), the
 * contacts it changed (old -> new), those it matched and left alone, those it created; after an undo, what became of
 * each.
 */
import { Anchor, Badge, Button, Group, Pagination, Stack, Table, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { type AttemptDetail, attemptRows, notImportedCsvUrl, type RowList } from '../../api/imports';
import { ContactCell, FieldChanges, MatchedBy } from './MatchList';

const LIMIT = 50;
type Row = RowList['data'][number];

const UNDO: Record<string, string> = {
  removed: 'Removed by the undo',
  kept: 'Kept by the undo',
  restored: 'Old values restored',
  unchanged: 'Nothing to undo',
};

export function ResultRows({ attempt: a }: { attempt: AttemptDetail }) {
  const tabs: Array<[string, string, number]> = [
    ['not_imported', 'Not imported', a.skipped + a.failed],
    ['updated', 'Changed', a.updated],
    ['unchanged', 'Unchanged', a.unchanged],
    ['created', 'Created', a.created],
  ];
  const [kind, setKind] = useState(tabs.find((t) => t[2] > 0)?.[0] ?? 'not_imported');
  return (
    <Tabs value={kind} onChange={(v) => setKind(v ?? 'not_imported')} keepMounted={false}>
      <Tabs.List>
        {tabs.map(([value, label, n]) => (
          <Tabs.Tab key={value} value={value}>
            {label} ({n.toLocaleString('en-US')})
          </Tabs.Tab>
        ))}
      </Tabs.List>
      {tabs.map(([value]) => (
        <Tabs.Panel key={value} value={value} pt="md">
          <RowsPanel attempt={a} kind={value} />
        </Tabs.Panel>
      ))}
    </Tabs>
  );
}

function RowsPanel({ attempt: a, kind }: { attempt: AttemptDetail; kind: string }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    queryKey: ['import_rows', a.id, kind, page],
    queryFn: ({ signal }) => attemptRows(a.id, { kind, page, limit: LIMIT }, signal),
    placeholderData: keepPreviousData,
  });
  if (!q.data) return <Text c="dimmed">Loading rows…</Text>;
  const { data, headers, meta } = q.data;
  return (
    <Stack>
      {kind === 'not_imported' && data.length > 0 && (
        <Group>
          <Button component="a" href={notImportedCsvUrl(a.id)} variant="light" download>
            Download these rows (CSV)
          </Button>
          <Text size="sm" c="dimmed">
            The file's columns plus the row number and why, ready to fix and import again.
          </Text>
        </Group>
      )}
      {data.length === 0 ? (
        <Text c="dimmed">No rows here.</Text>
      ) : kind === 'not_imported' ? (
        <NotImportedTable rows={data} headers={headers} />
      ) : (
        <ContactsTable rows={data} kind={kind} />
      )}
      {meta.total_pages > 1 && (
        <Pagination total={meta.total_pages} value={page} onChange={setPage} aria-label="Pages" />
      )}
    </Stack>
  );
}

function NotImportedTable({ rows, headers }: { rows: Row[]; headers: string[] }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table aria-label="Rows not imported" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Why</Table.Th>
            <Table.Th>Values</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.row}>
              <Table.Td>{r.row}</Table.Td>
              <Table.Td>
                <Stack gap={2}>
                  <Badge size="xs" variant="light" color={r.action === 'invalid' ? 'red' : 'gray'}>
                    {r.action === 'invalid' ? 'Invalid' : 'Skipped'}
                  </Badge>
                  <Text size="sm">{r.reasons.join('; ')}</Text>
                  {r.contact && (
                    <Anchor component={Link} to={`/contacts/${r.contact.number}`} size="sm">
                      {r.contact.name} (#{r.contact.number})
                    </Anchor>
                  )}
                </Stack>
              </Table.Td>
              <Table.Td>
                <Text size="sm">
                  {(r.cells ?? [])
                    .map((c, i) => (c ? `${headers[i] ?? `Column ${i + 1}`}: ${c}` : ''))
                    .filter(Boolean)
                    .join(' · ')}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function ContactsTable({ rows, kind }: { rows: Row[]; kind: string }) {
  const matched = kind === 'updated' || kind === 'unchanged';
  const undone = rows.some((r) => r.undo);
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table
        aria-label={
          kind === 'updated' ? 'Contacts changed' : kind === 'created' ? 'Contacts created' : 'Contacts unchanged'
        }
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Row</Table.Th>
            <Table.Th>Contact</Table.Th>
            {matched && <Table.Th>Matched by</Table.Th>}
            {kind === 'updated' && <Table.Th>What changed</Table.Th>}
            {undone && <Table.Th>Undo</Table.Th>}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.row}>
              <Table.Td>{r.row}</Table.Td>
              <Table.Td>
                <ContactCell contact={r.contact} />
              </Table.Td>
              {matched && (
                <Table.Td>
                  {r.matched_by && <MatchedBy plan={{ matched_by: r.matched_by, same_person: !!r.same_person }} />}
                </Table.Td>
              )}
              {kind === 'updated' && (
                <Table.Td>
                  <FieldChanges changes={r.changes} tags={r.tags_added} />
                </Table.Td>
              )}
              {undone && (
                <Table.Td>
                  {r.undo && (
                    <Stack gap={2}>
                      <Text size="sm">{r.undo.reason ?? UNDO[r.undo.outcome]}</Text>
                      {r.undo.skipped_fields.length > 0 && (
                        <>
                          <Text size="xs" c="dimmed">
                            Left as changed since the import:
                          </Text>
                          <FieldChanges changes={r.undo.skipped_fields} />
                        </>
                      )}
                    </Stack>
                  )}
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
