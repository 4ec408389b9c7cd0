/** The columns of the list and the contact field each goes to: matched automatically, fixed here. */

import { IMPORT_FIELDS } from '@harbor/shared';
import { Badge, NativeSelect, Table, Text } from '@mantine/core';
import type { Preview } from '../../api/imports';

const HOW: Record<string, { label: string; color: string }> = {
  form: { label: 'chosen', color: 'blue' },
  header: { label: 'by header', color: 'teal' },
  content: { label: 'by content', color: 'grape' },
  none: { label: 'not matched', color: 'gray' },
};

export function MappingTable(props: {
  columns: Preview['columns'];
  mapping: Record<string, string>;
  onChange: (header: string, field: string) => void;
}) {
  return (
    // At phone width the samples go under the column's name: the field picker, the one thing to act on, stays in view.
    <Table.ScrollContainer minWidth={300}>
      <Table aria-label="Column mapping" striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Column</Table.Th>
            <Table.Th visibleFrom="sm">Sample values</Table.Th>
            <Table.Th>Contact field</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {props.columns.map((c) => {
            const how = HOW[c.matched_by] ?? HOW.none;
            const samples = c.samples.slice(0, 3).join(' · ') || '—';
            return (
              <Table.Tr key={c.header}>
                <Table.Td>
                  <Text fw={500}>{c.header}</Text>
                  <Badge size="xs" variant="light" color={how.color}>
                    {how.label}
                  </Badge>
                  <Text size="xs" c="dimmed" lineClamp={2} hiddenFrom="sm" mt={4} style={{ overflowWrap: 'anywhere' }}>
                    {samples}
                  </Text>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <Text size="sm" c="dimmed" lineClamp={2}>
                    {samples}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <NativeSelect
                    aria-label={`Field for column ${c.header}`}
                    miw={150}
                    value={props.mapping[c.header] ?? c.field}
                    onChange={(e) => props.onChange(c.header, e.currentTarget.value)}
                    data={IMPORT_FIELDS.map((f) => ({ value: f.key, label: f.label }))}
                  />
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
