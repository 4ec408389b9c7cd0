/**
 * The preview of an import before it runs: its figures, and by name what it would do to the book: each contact it
 * would change, field by field (old -> new), each matched contact it would leave alone and why, the rows it would
 * skip, the invalid ones. Contacts of someone else are said out loud.
 */
import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import type { Preview } from '../../api/imports';
import { MatchesTable } from './MatchList';

export function Figures(props: { figures: Array<[string, number]> }) {
  return (
    <Group mb="md" gap="lg">
      {props.figures.map(([label, n]) => (
        <Stack key={label} gap={0}>
          <Text size="xs" c="dimmed">
            {label}
          </Text>
          <Text fw={700} aria-label={label}>
            {n.toLocaleString('en-US')}
          </Text>
        </Stack>
      ))}
    </Group>
  );
}

const more = (shown: number, truncated: boolean) => (truncated ? ` (first ${shown.toLocaleString('en-US')})` : '');

export function PreviewSummary(props: { preview: Preview; onDownload: () => void }) {
  const p = props.preview;
  return (
    <Paper withBorder p="md" aria-label="Preview">
      <Title order={3} mb="sm">
        Preview
      </Title>
      <Figures
        figures={[
          ['Rows', p.row_count],
          ['To create', p.to_create],
          ['To update', p.to_update],
          ['Unchanged', p.unchanged],
          ['To skip', p.to_skip],
          ['Invalid', p.invalid_count],
        ]}
      />
      {p.other_owners > 0 && (
        <Alert color="orange" mb="md" title="Other people's contacts">
          {p.other_owners === 1
            ? '1 contact it would change belongs'
            : `${p.other_owners.toLocaleString('en-US')} contacts it would change belong`}{' '}
          to someone other than the import's owner. Each is named below with its owner.
        </Alert>
      )}
      <Stack gap="lg">
        {p.changes.length > 0 && (
          <section>
            <Title order={4} mb="xs">
              Contacts it would change{more(p.changes.length, p.matches_truncated)}
            </Title>
            <MatchesTable plans={p.changes} label="Contacts it would change" />
          </section>
        )}
        {p.untouched.length > 0 && (
          <section>
            <Title order={4} mb="xs">
              Matched contacts it leaves as they are{more(p.untouched.length, p.matches_truncated)}
            </Title>
            <MatchesTable plans={p.untouched} label="Contacts it leaves alone" untouched />
          </section>
        )}
        {p.skipped.length > 0 && (
          <section>
            <Title order={4} mb="xs">
              Rows it would skip
            </Title>
            <Table aria-label="Rows it would skip">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Row</Table.Th>
                  <Table.Th>Why</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {p.skipped.map((r) => (
                  <Table.Tr key={r.row}>
                    <Table.Td>{r.row}</Table.Td>
                    <Table.Td>{r.reasons.join('; ')}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </section>
        )}
        {p.invalid_count > 0 && (
          <section>
            <Group justify="space-between" mb="xs">
              <Title order={4}>Invalid rows{more(p.invalid.length, p.invalid_truncated)}</Title>
              <Button variant="light" onClick={props.onDownload}>
                Download invalid rows (CSV)
              </Button>
            </Group>
            <Table.ScrollContainer minWidth={480}>
              <Table aria-label="Invalid rows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>Row</Table.Th>
                    <Table.Th>Why</Table.Th>
                    <Table.Th>Values</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {p.invalid.map((r) => (
                    <Table.Tr key={r.row}>
                      <Table.Td>{r.row}</Table.Td>
                      <Table.Td>{r.reasons.join('; ')}</Table.Td>
                      <Table.Td>{r.values.join(', ')}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          </section>
        )}
      </Stack>
    </Paper>
  );
}
