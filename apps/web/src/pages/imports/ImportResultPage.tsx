/**
 * The result page of one import (/contacts/imports/{id}): what was asked (owner, keys, what a match may change), the
 * figures, live progress while it runs, each row that was not imported with its reason (and their download), each
 * contact it changed old -> new, the contacts it created, and undo (with what it would do shown first).
 */

import { IMPORT_RESULT_DAYS, SCRUB_KEY_LABELS } from '@harbor/shared';
import { Alert, Anchor, Badge, Button, Group, List, Loader, Paper, Progress, Stack, Text } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { errorMessage } from '../../api/client';
import type { AttemptDetail } from '../../api/imports';
import { callQuery, qk, qkUnder } from '../../api/queries';
import { PageHeading } from '../../components/PageHeading';
import { when } from '../contacts/format';
import { STATUS_LABEL } from './ImportsPage';
import { plural } from './MatchList';
import { Figures } from './PreviewSummary';
import { ResultRows } from './ResultRows';
import { UndoDialog } from './UndoDialog';
import { onImportProgress } from './watchImport';

const ON_MATCH: Record<string, string> = {
  fill: 'fill in blank fields only',
  update: "replace values with the file's",
  skip: 'leave it alone',
};

export function ImportResultPage() {
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const q = useQuery({
    ...callQuery('GET /v1/contacts/import_attempts/{id}', { params: { id } }),
    enabled: id > 0,
  });
  const [undoing, setUndoing] = useState(false);

  useEffect(
    () =>
      onImportProgress((m) => {
        if (m.id !== id) return;
        queryClient.setQueryData<AttemptDetail>(
          qk('GET /v1/contacts/import_attempts/{id}', { params: { id } }),
          (old) => (old ? { ...old, status: m.status, processed: m.processed, total: m.total } : old),
        );
        if (['completed', 'failed', 'undone'].includes(m.status)) {
          void queryClient.invalidateQueries(qkUnder('/v1/contacts/import_attempts/{id}', { params: { id } }));
        }
      }),
    [id, queryClient],
  );

  // An address that names no import (/contacts/imports/abc) would leave the query disabled: pending for ever.
  const missing = !(id > 0) ? 'There is no import at this address.' : null;
  if (q.isPending && !missing) return <Loader aria-label="Loading the import" />;
  if (missing || q.isPending || q.error) {
    // Still a page with its heading: focus lands there after the navigation, and the tab names it.
    return (
      <Stack maw={1200}>
        <Anchor component={Link} to="/contacts/imports" size="sm">
          ← All imports
        </Anchor>
        <PageHeading title="Import" section="Imports" />
        <Alert color="red" role="alert">
          {missing ?? (q.error ? errorMessage(q.error) : null)}
        </Alert>
      </Stack>
    );
  }
  const a = q.data;
  const running = ['pending', 'processing', 'undoing'].includes(a.status);
  const scrub = a.scrub
    ? `Matched by ${a.scrub.by.map((k) => SCRUB_KEY_LABELS[k].replace('Same ', '')).join(', ')}; an existing contact: ${ON_MATCH[a.scrub.on_match]}`
    : 'Not matched against the book';
  return (
    <Stack maw={1200}>
      <Anchor component={Link} to="/contacts/imports" size="sm">
        ← All imports
      </Anchor>
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <PageHeading title={a.file_name} section="Imports" style={{ overflowWrap: 'anywhere', outlineOffset: 4 }} />
          <Text size="sm" c="dimmed">
            {a.user?.name || 'Someone'} · {when(a.created_at)} · {a.contact_type === 'client' ? 'Clients' : 'Leads'}
            {a.owner ? ` owned by ${a.owner.name}` : ''}
            {a.tags.length ? ` · tagged ${a.tags.join(', ')}` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            {scrub}
          </Text>
        </Stack>
        <Badge size="lg" variant="light" color={a.status === 'failed' ? 'red' : running ? 'blue' : 'teal'}>
          {STATUS_LABEL[a.status] ?? a.status}
        </Badge>
      </Group>
      {running && a.total > 0 && <Progress value={(100 * a.processed) / a.total} aria-label="Progress" animated />}
      {a.error && (
        <Alert color="red" title="The import failed">
          {a.error}
        </Alert>
      )}
      <Paper withBorder p="md">
        <Figures
          figures={[
            ['Rows', a.total],
            ['Created', a.created],
            ['Updated', a.updated],
            ['Unchanged', a.unchanged],
            ['Skipped', a.skipped],
            ['Invalid', a.failed],
          ]}
        />
        <UndoLine attempt={a} onUndo={() => setUndoing(true)} />
      </Paper>
      {a.rows_available ? (
        <ResultRows attempt={a} />
      ) : (
        <Text c="dimmed">
          The rows of an import are kept for {IMPORT_RESULT_DAYS} days after it finished; this one's are no longer kept.
        </Text>
      )}
      <UndoDialog attempt={a} opened={undoing} onClose={() => setUndoing(false)} />
    </Stack>
  );
}

function UndoLine({ attempt: a, onUndo }: { attempt: AttemptDetail; onUndo: () => void }) {
  const s = a.undo.summary;
  return (
    <Stack gap="xs">
      {s && (
        <Alert color={a.status === 'undone' ? 'gray' : 'blue'} title={s.finished_at ? 'Undone' : 'Being undone'}>
          <Text size="sm">
            {s.by ? `${s.by.name}, ` : ''}
            {when(s.started_at)}
          </Text>
          <List size="sm" aria-label="What the undo did">
            <List.Item>{plural(s.removed, 'created contact')} removed (restorable from Deleted contacts)</List.Item>
            {s.kept > 0 && <List.Item>{plural(s.kept, 'created contact')} kept: worked on since the import</List.Item>}
            <List.Item>
              {plural(s.restored, 'contact')} got old values back ({plural(s.fields_restored, 'field')})
            </List.Item>
            {s.fields_skipped > 0 && (
              <List.Item>{plural(s.fields_skipped, 'field')} left as changed since the import</List.Item>
            )}
            {s.tags_removed > 0 && <List.Item>{plural(s.tags_removed, 'tag')} taken off</List.Item>}
          </List>
        </Alert>
      )}
      {a.undo.available ? (
        <Group>
          <Button variant="light" color="red" onClick={onUndo}>
            {a.status === 'undoing' ? 'Resume the undo…' : 'Undo this import…'}
          </Button>
          {a.kept_until && (
            <Text size="sm" c="dimmed">
              Possible until {when(a.kept_until)}
            </Text>
          )}
        </Group>
      ) : (
        !s && (
          <Text size="sm" c="dimmed">
            {a.undo.reason}
          </Text>
        )
      )}
    </Stack>
  );
}
