/**
 * An import's rows by kind, paged: the rows not imported (each with its reason and its cells, downloadable), the
 * contacts it changed (old -> new), those it matched and left alone, those it created; after an undo, what became of
 * each.
 */

import { Anchor, Badge, Button, Group, Pagination, Stack, Tabs, Text } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { QueryOf } from '../../api/call';
import { type AttemptDetail, notImportedCsvUrl, type RowList } from '../../api/imports';
import { callQuery } from '../../api/queries';
import { RecordTable } from '../../components/RecordTable';
import { ContactCell, FieldChanges, MatchedBy } from './MatchList';

type RowKind = NonNullable<NonNullable<QueryOf<'GET /v1/contacts/import_attempts/{id}/rows'>>['kind']>;

const LIMIT = 50;
type Row = RowList['data'][number];

const UNDO: Record<string, string> = {
  removed: 'Removed by the undo',
  kept: 'Kept by the undo',
  restored: 'Old values restored',
  unchanged: 'Nothing to undo',
};

export function ResultRows({ attempt: a }: { attempt: AttemptDetail }) {
  const tabs: Array<[RowKind, string, number]> = [
    ['not_imported', 'Not imported', a.skipped + a.failed],
    ['updated', 'Changed', a.updated],
    ['unchanged', 'Unchanged', a.unchanged],
    ['created', 'Created', a.created],
  ];
  const [kind, setKind] = useState(tabs.find((t) => t[2] > 0)?.[0] ?? 'not_imported');
  return (
    <Tabs value={kind} onChange={(v) => setKind((v as RowKind | null) ?? 'not_imported')} keepMounted={false}>
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

function RowsPanel({ attempt: a, kind }: { attempt: AttemptDetail; kind: RowKind }) {
  const [page, setPage] = useState(1);
  const q = useQuery({
    ...callQuery('GET /v1/contacts/import_attempts/{id}/rows', {
      params: { id: a.id },
      query: { kind, page, limit: LIMIT },
    }),
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
    <RecordTable
      label="Rows not imported"
      striped
      rows={rows}
      rowKey={(r) => r.row}
      minWidth={560}
      columns={[
        { header: 'Row', cell: (r) => r.row },
        {
          header: 'Why',
          cell: (r) => (
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
          ),
        },
        {
          header: 'Values',
          cell: (r) => (
            <Text size="sm">
              {(r.cells ?? [])
                .map((c, i) => (c ? `${headers[i] ?? `Column ${i + 1}`}: ${c}` : ''))
                .filter(Boolean)
                .join(' · ')}
            </Text>
          ),
        },
      ]}
    />
  );
}

function UndoOutcome({ undo }: { undo: Row['undo'] }) {
  if (!undo) return null;
  return (
    <Stack gap={2}>
      <Text size="sm">{undo.reason ?? UNDO[undo.outcome]}</Text>
      {undo.skipped_fields.length > 0 && (
        <>
          <Text size="xs" c="dimmed">
            Left as changed since the import:
          </Text>
          <FieldChanges changes={undo.skipped_fields} />
        </>
      )}
    </Stack>
  );
}

function ContactsTable({ rows, kind }: { rows: Row[]; kind: string }) {
  const matched = kind === 'updated' || kind === 'unchanged';
  return (
    <RecordTable
      label={kind === 'updated' ? 'Contacts changed' : kind === 'created' ? 'Contacts created' : 'Contacts unchanged'}
      rows={rows}
      rowKey={(r) => r.row}
      minWidth={560}
      columns={[
        { header: 'Row', cell: (r) => r.row },
        { header: 'Contact', cell: (r) => <ContactCell contact={r.contact} /> },
        matched && {
          header: 'Matched by',
          cell: (r) => r.matched_by && <MatchedBy plan={{ matched_by: r.matched_by, same_person: !!r.same_person }} />,
        },
        kind === 'updated' && {
          header: 'What changed',
          cell: (r) => <FieldChanges changes={r.changes} tags={r.tags_added} />,
        },
        rows.some((r) => r.undo) && { header: 'Undo', cell: (r) => <UndoOutcome undo={r.undo} /> },
      ]}
    />
  );
}
